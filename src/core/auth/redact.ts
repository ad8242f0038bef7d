/**
 * Redaction of secret-looking values in text that goes into hints (and may be logged). A fact's text is
 * the user's own words, and people do write "db password: hunter2" into memory; the hint must point at
 * the credential, never repeat it. Over-redaction is the safe failure: a long mixed-case identifier may
 * be masked, a secret may not leak. Ordinary words and hostnames stay intact.
 */

export const REDACTED = '[redacted]';

interface Rule {
  readonly re: RegExp;
  readonly replace: string | ((...groups: string[]) => string);
}

const RULES: readonly Rule[] = [
  // PEM private key blocks (terminated or not: everything after BEGIN is key material).
  { re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\s\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[A-Za-z0-9+/=\s]{0,20000})/g, replace: REDACTED },
  // user:password@ in URLs keeps the user and host.
  { re: /(\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/@:'"<>]{1,256}):[^\s/@'"<>]{1,256}@/gi, replace: `$1:${REDACTED}@` },
  // Well-known token shapes.
  { re: /\b(?:AKIA|ASIA|AROA|AIDA)[A-Z0-9]{16}\b/g, replace: REDACTED },
  { re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,255}|\bgithub_pat_[A-Za-z0-9_]{20,255}/g, replace: REDACTED },
  { re: /\bxox[abposr]-[A-Za-z0-9-]{8,255}/g, replace: REDACTED },
  { re: /\b(?:sk|rk)[-_](?:live_|test_|proj-|ant-)?[A-Za-z0-9_-]{16,255}/g, replace: REDACTED },
  { re: /\beyJ[A-Za-z0-9_-]{4,4096}\.[A-Za-z0-9_-]{4,4096}\.[A-Za-z0-9_-]{0,4096}/g, replace: REDACTED },
  // An Authorization scheme and its credential, which looks made up (a digit, a symbol inside it, a capital
  // past its first letter, or 20+ characters): "Basic dXNlcjpwYXNz", not "basic economy" or "Bearer Bonds".
  { re: /\b([Bb]earer|[Bb]asic|BEARER|BASIC)\s+(?=[\w.~+/=-]{20}|[\w.~+/=-]*(?:[\d_~+/=]|[.-][A-Za-z0-9])|[\w.~+/=-]+[A-Z])[\w.~+/=-]{6,4096}/g, replace: `$1 ${REDACTED}` },
  // Command lines (a turn excerpt holds the command that failed): options that take a secret, as
  // --password x / --token=x; sshpass -p x; mysql -px (attached); curl -u user:pass; and environment
  // assignments such as PGPASSWORD=x or GITHUB_TOKEN=x before a command.
  { re: /(--(?:password|passwd|pass|token|auth-token|access-token|api-key|apikey|secret|client-secret)(?:=|\s+))(?:(["'])[^"'\n]{1,4096}\2|[^\s"']{1,4096})/gi, replace: `$1${REDACTED}` },
  { re: /(\bsshpass\s+-p\s*)(?:(["'])[^"'\n]{1,4096}\2|[^\s"']{1,4096})/g, replace: `$1${REDACTED}` },
  { re: /(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,512}?\s-p)(?!\s)(?:(["'])[^"'\n]{1,4096}\2|[^\s"']{1,4096})/g, replace: `$1${REDACTED}` },
  { re: /((?:\s|^)(?:-u|--user)\s+[^\s:'"]{1,256}:)[^\s'"]{1,4096}/g, replace: `$1${REDACTED}` },
  { re: /(\b[A-Z][A-Z0-9_]{0,64}(?:PASSWORD|PASSWD|PASS|PWD|TOKEN|SECRET|API_KEY|APIKEY|ACCESS_KEY)=)(?:(["'])[^"'\n]{1,4096}\2|[^\s"']{1,4096})/g, replace: `$1${REDACTED}` },
  // name: value / name=value / password is value (also db_pass=, ssh_key:). A quoted value is taken whole ("pass = 'two words'"),
  // an unquoted one up to the next space, quote or separator.
  {
    re: /(?<![A-Za-z0-9])(pass(?:word|wd|phrase)?|pwd|secret|client_secret|(?:access_|refresh_|auth_|api_)?token|api[ _-]?key|apikey|key)((?:\s+for\s+[^\s:=]{1,100})?\s{0,3}(?:[:=]|\bis\b|\bwas\b)\s{0,3})(?:(["'`])([^"'`\n]{1,4096})\3|([^\s"'`,;]{1,4096}))/gi,
    replace: (whole: string, name: string, sep: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined) => {
      const value = quoted ?? bare ?? '';
      // "key is in the vault", "token is expired": prose after is/was is not a value.
      if (/\b(?:is|was)\b/i.test(sep) && (quote === undefined) && (!/^pass|^pwd|^secret/i.test(name) || /^(?:in|the|a|an|stored|kept|not|set|saved|expired|invalid|required|missing|available|rotated)$/i.test(value))) return whole;
      if (value.startsWith(REDACTED)) return whole;
      // A file path names where a key lives, not the key ("key: ~/.ssh/deploy_ed25519").
      if (/^(?:~|\.{1,2})?\/[\w./-]*$/.test(value) && !/[A-Za-z0-9+/]{24}/.test(value)) return whole;
      return quote === undefined ? `${name}${sep}${REDACTED}` : `${name}${sep}${quote}${REDACTED}${quote}`;
    },
  },
  // "password hunter2": a value right after the word, with only a space between. A plain lower-case word is
  // prose ("password manager", "password in the vault"), and so is the name of a place for secrets ("Secret
  // Manager", "Password Safe"); a token with a digit, a symbol or a capital is a value.
  {
    re: /(?<![A-Za-z0-9])(pass(?:word|wd|phrase)?|pwd|secret)(\s{1,3})([^\s"'`,;:=]{3,256})/gi,
    replace: (whole: string, name: string, sep: string, value: string) =>
      value.startsWith(REDACTED) || /^[a-z]+[.!?]?$/.test(value) || /^(?:manager|vault|store|safe|server|service|keeper|hub)[.!?]?$/i.test(value) ? whole : `${name}${sep}${REDACTED}`,
  },
  // Long high-entropy strings: >= 24 base64/URL-safe characters mixing lower case, upper case and digits,
  // or >= 32 hex characters with both letters and digits, with or without a short prefix ("ck_4e7a...").
  {
    re: /(?<![\w+/=-])[A-Za-z0-9+/=_-]{24,4096}(?![\w+/=-])/g,
    replace: (s: string) => (/[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s)) || (/^(?:[a-z]{1,8}_)?[0-9a-f]{32,}$/i.test(s) && /\d/.test(s) && /[a-f]/i.test(s.replace(/^[a-z]{1,8}_/i, ''))) || randomOneCase(s) ? REDACTED : s,
  },
];

/**
 * A token in one case that reads as random, not as words: >= 32 letters and digits only, with digits and
 * letters alternating often (an Azure DevOps PAT, a base32 secret: "4f3kq7zvx2m6tplw8hyr..."). A word run
 * with a number after it ("supercalifragilistic2024") alternates once.
 */
function randomOneCase(s: string): boolean {
  if (!/^(?:[a-z0-9]{32,}|[A-Z0-9]{32,})$/.test(s)) return false;
  const switches = s.split('').filter((c, i) => i > 0 && /\d/.test(c) !== /\d/.test(s[i - 1] as string)).length;
  return switches >= s.length / 6;
}

/** Replaces secret-looking values in `text` with "[redacted]"; everything else is kept as written. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) {
    out = typeof rule.replace === 'string'
      ? out.replace(rule.re, rule.replace)
      : out.replace(rule.re, rule.replace as (...args: string[]) => string);
  }
  return out;
}
