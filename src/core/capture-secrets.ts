/**
 * Secret values out of a sentence auto-capture keeps (src/core/capture.ts): what the gateway's redaction
 * finds (keys, tokens, private key blocks), then what only a sentence about a credential gives away (a
 * password after "is", the part after "name /", a made-up token, an access code). Over-masking such a
 * sentence is the safe failure.
 */
import { redactSecrets, REDACTED } from './auth/redact.js';

/** Words that say a sentence is about a credential. */
const CREDENTIAL_WORDS = /\b(?:pass(?:word|wd|phrase|code)?s?|pw|pwd|pins?|logins?|log-?in|creds?|credentials?|secrets?|tokens?|pats?|api[ _-]?keys?|keys?|wi-?fi|ssid|router|account|door code|alarm|snmp community|community strings?|auth_?pass|psk|pre-?shared keys?)\b/i;
/**
 * In a sentence about a credential, any token that looks made up (letters with digits or symbols, 6+
 * characters) is taken for the value ("the login is admin / Tr0ub4dor&3x"): hosts, versions, times, paths
 * and e-mail addresses are kept. Over-masking such a sentence is the safe failure.
 */
const VALUE_LIKE = /(?<![^\s('"`])(?=[^\s]*[A-Za-z])(?=[^\s]*[\d!#$%&*+=?^~|])[^\s,;'"`()]{6,256}/g;
/**
 * A product's model number, named as a thing ("a synology DS920+", "the ZT411", "our new RT4090"): capitals
 * then digits, after an article or a possessive and a word ("a synology DS920+"), or right after an article
 * not put where a value is given; "login: admin XJ4493", "the password is the AB1234" are masked.
 */
const MODEL_NUMBER = /^[A-Z]{1,4}-?\d{2,5}[A-Z]{0,3}\+?[.,!?:]?$/;
const THING_WORDS = String.raw`(?:^|(?<=[\s(]))(?:a|an|the|my|our|their|his|her|new|old|same)\s+`;
const NAMED_AS_A_THING = new RegExp(
  String.raw`${THING_WORDS}(?!${CREDENTIAL_WORDS.source})[A-Za-z][\w-]*\s+$|(?<!(?:\b(?:is|was|are|be|to|as)|[:=/]|${CREDENTIAL_WORDS.source})\s*)${THING_WORDS}$`,
  'i',
);
const NOT_A_VALUE = /^(?:[a-z][a-z\d+.-]*:\/\/[^\s?@]*|[a-z][\w-]*-\*|\*\.[\w.-]+|1password|bitwarden|lastpass|keepass(?:xc)?|[a-z]+\.env|[a-z]+(?:-[a-z0-9]+)+|\d{1,3}(?:-[a-z]+)+|[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?|v?\d[\d.:/-]*\w{0,3}|[~.]?\/\S*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|#[\w-]+|[a-z]+-?\d{1,3}[a-z]?|\d+(?:am|pm|h|m|s|ms|gb|mb|kb|tb|k|%)?)[.,!?:]?$/i;

/** Words and digits joined by hyphens in mixed case, as password generators write them ("Dolphin-7781-Sky"; not "web-01", "pve-node-2"). */
const PASSPHRASE = /^(?=[^-]*-)(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z]+(?:-[A-Za-z0-9]+)+[.,!?:]?$/;

/** A part of a token that looks made up: 12+ letters and digits, four or more of them digits ("inv-7f3a9c21e8b04d6f95a2c7e1b8d30f46"; not "powerlevel10k"). */
const RANDOM_PART = /(?:^|[-_.:])(?=(?:[a-z]*\d){4})(?=[a-z0-9]*[a-z])[a-z0-9]{12,}/i;

/** A token with lower case, upper case, a digit and a symbol is a password wherever it stands. */
const PASSWORD_SHAPE = /(?<![^\s('"`])(?=[^\s]*[a-z])(?=[^\s]*[A-Z])(?=[^\s]*\d)(?=[^\s]*[!#$%&*+=?^~|@])[^\s,;'"`()]{6,128}/g;

/** Words that say a number is an access code ("the combo on the side gate is 0619"; not the verb: "i want to pin everything to pinata"). */
const CODE_WORDS = /\b(?:(?<!\b(?:to|i|we|you|u|pls|please|'ll|will) )pin|passcode|pass ?code|code|combo|combination|keypad|lockbox|key ?safe|safe|locker|alarm|bitting)\b/i;
/** A number right after its code word ("alarm code 9914", "(pin 0932)", "alarm #4417*", "bitting 35274"). */
const CODE_AFTER_WORD = /(\b(?:pin|passcode|pass ?code|code|combo|combination|bitting|alarm)\s*(?:#|:|no\.?\s*|number\s*)?\s*)\d[\d#*-]{2,15}(?![\d:])(?!\s?(?:am|pm|h\b|mins?\b|minutes\b|hours\b|days\b))/gi;
/** A dial combination ("24-61-13"). */
const COMBINATION = /(?<![\w-])\d{1,2}(?:-\d{1,2}){2,}(?![\w-])/g;
/** Single digits in a row with dashes or spaces ("7-3-1-9", "2 9 0 4", "1-5-9-#"): a code, whatever the sentence says. */
const DIGIT_RUN = /(?<![\w-])\d(?:[- ]\d){2,}(?:[- ][#*])?(?![\w-])|(?<![\w-])\d(?:-\d){1,}-[#*](?![\w-])/g;

/**
 * Words after "password" that say where it is or what happens to it, not what it is: "the real password lives in
 * vault", "the admin password is stored in bitwarden", "a password manager".
 */
const SAID_OF_A_PASSWORD = String.raw`(?:is|was|in|for|on|at|the|a|an|to|lives?|stored|stays|sits|kept|saved|goes|moved|manager|vault|reset|rotated|changed|expired|expires|hint|field|prompt|protected|required|policy|and|or|but|from|with|of|should|will|must|can|has|had|have|needs|works|worked|failed|fails|did|does|only|still|now|there|here)\b`;
/** The word given as a password: "password is X", "pw: X", "wifi pass X". */
const PASSWORD_VALUE = new RegExp(String.raw`\b(password|passwd|passphrase|pw|pwd|pass)(\s*(?:is|was|:|=)?\s+)(?!${SAID_OF_A_PASSWORD}|\[)([^\s,;'"\x60()]{3,256})`, 'gi');

/** A number given as a key or token ("api key 584913276402118", "token: 99120384"): some services' keys are digits only. */
const NUMBER_KEY = /\b((?:api[ _-]?)?(?:keys?|tokens?|secrets?)(?:\s*(?:is|was|:|=))?\s+)\d{6,64}(?![\w.])/gi;

/**
 * A URL that is its own key (a capability URL: "https://hc-ping.com/5f2c9a1e-7b3d-...", a webhook's
 * ".../services/T04QX7B2K/B06LM3N8P/q7VxK2m..."): a path segment or query value that is a UUID or looks made up
 * (RANDOM_PART) is masked wherever the URL stands; the host and the rest of the path stay, to say what it was.
 */
const URL_TOKEN = /(?<=https?:\/\/[^\s/]+(?:\/[^\s/?#]*)*[/=])[A-Za-z0-9_-]{12,}(?=[/?&#\s,;'"`)]|$)/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A URL's user part that is its key (a Sentry or GlitchTip DSN: "https://a81c3f0e...@glitchtip.example.dev/3"); masked when it looks made up, not "bob@". */
const URL_USER = /(?<=\b[a-z][a-z\d+.-]*:\/\/)[A-Za-z0-9_-]{12,}(?=@[^\s@])/gi;

function maskValues(text: string): string {
  const madeUp = (token: string) => (UUID.test(token) || RANDOM_PART.test(token) ? REDACTED : token);
  text = text.replace(URL_TOKEN, madeUp).replace(URL_USER, madeUp);
  text = text.replace(PASSWORD_SHAPE, (token) => (/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+[.,]?$/.test(token) ? token : REDACTED)).replace(DIGIT_RUN, REDACTED);
  // A number given as a code, wherever the code word stands in the sentence.
  if (CODE_WORDS.test(text)) {
    text = text
      .replace(/((?:\b(?:is|was|are|to|of|its)|['’]s|:|=)\s*)\d[\d#*-]{2,15}(?![\d:])(?!\s?(?:am|pm|h\b|mins?\b|minutes\b|hours\b|days\b))/gi, `$1${REDACTED}`)
      .replace(CODE_AFTER_WORD, `$1${REDACTED}`)
      .replace(COMBINATION, REDACTED);
  }
  if (!CREDENTIAL_WORDS.test(text)) return text;
  return (
    text
      // "name / password", "user: x / y": in a sentence about a credential, what follows the slash is the secret,
      // whatever it looks like; not a path's first folder ("stored in /etc/caddy/caddy.env": no space after the
      // slash, another slash after the word). "Home / sunny/day" is still a password.
      // A one-letter word right before the slash is shorthand ("w/ home assistant", "b/c"), never a name.
      .replace(/(?!(?<=^|[\s(])[A-Za-z]\/)(\S(?:\s+\/\s*|\s*\/\s+))([^\s/,;'"`()]{3,256})(\/[^\s,;'"`()]*)?/g, (all, pre: string, token: string, path?: string) => (/^(?:\[|https?:|[~.]?\/)/.test(token) || /^\d+(?:\.\d+)?$|^\d{1,2}(?::\d\d)?$/.test(token) || (path && pre.endsWith('/')) ? all : `${pre}${REDACTED}`))
      .replace(PASSWORD_VALUE, `$1$2${REDACTED}`)
      .replace(NUMBER_KEY, `$1${REDACTED}`)
      .replace(VALUE_LIKE, (token: string, at: number, all: string) =>
        (NOT_A_VALUE.test(token) && !RANDOM_PART.test(token) && !PASSPHRASE.test(token)) || token.startsWith(REDACTED) || (MODEL_NUMBER.test(token) && NAMED_AS_A_THING.test(all.slice(Math.max(0, at - 40), at))) ? token : REDACTED,
      )
  );
}

/** What follows a masked secret to say why it was given now ("..., just so you can walk me through X"). */
const ERRAND_AFTER_SECRET = new RegExp(
  String.raw`(?<=${REDACTED.replace(/[[\]]/g, '\\$&')})[,;]?\s+(?:just so|so (?:that )?(?:you|u)|if (?:you|u)|in case|when (?:you|u)|btw|for (?:the|now|when|testing)|to (?:test|check|try|log in|fix|set up|setup)|(?:and )?(?:put|add|use) it)\b.*$`,
  'i',
);

/**
 * A user's line with every secret-looking value replaced by REDACTED, before it is cut into sentences: the
 * words that say a value is a credential ("guest wifi", "alarm") often stand in another clause than the
 * value ("add the guest wifi at the bottom: Brewhaus-Guest / hopheads2024").
 */
export function maskLine(line: string): string {
  return maskValues(redactSecrets(line));
}

/** The sentence with every secret-looking value replaced by REDACTED; a credential's sentence ends at the credential. */
export function withoutSecrets(sentence: string): string {
  // What it was handed over for is this task's business.
  return maskValues(redactSecrets(sentence)).replace(ERRAND_AFTER_SECRET, '');
}
