/**
 * Auto-capture rules (issue 19): what is worth keeping from a conversation, without an LLM. Only the
 * user's own words are read (never tool output, never the assistant's, never an injected memory block);
 * each sentence is tested against the rules below in order, and the first that fires sets the fact's
 * category, importance, decay class and confidence. Pure functions: the service (src/memory/capture.ts)
 * dedupes, supersedes and stores. The table with examples is docs/auto-memory.md.
 *
 *   rule        fires on                                              category    importance  decay     conf.
 *   explicit    "remember (that)", "note:", "don't forget", "fyi"     by content  0.8         stable    0.95
 *   correction  "actually", "correction:", "scratch that", "no        by content  0.7         stable    0.85
 *               longer", "not ... anymore", "we switched to"; a state
 *               said to hold now with a value ("its release/2.15 now")          0.8
 *   decision    "we decided", "we're going with", "let's go with",   decision    0.7         stable    0.85
 *               "from now on", "going forward", "we'll use"
 *   preference  "I prefer / like / love / hate / can't stand",        preference  0.6         stable    0.8
 *               "I always / never", "please always", "I'm a X person"
 *   named-fact  "<my|our|the> X is|runs on|lives in|listens on Y"     technical   0.5         stable    0.7
 *               with a named thing (host, path, version, Name)        or fact
 *
 * Not captured: questions, requests to the assistant ("can you ..."), hedges ("maybe", "I think we
 * might", "not sure"), hypotheticals ("if we ...", "what if"), sarcasm ("/s"). A secret-looking value is
 * never kept: the fact keeps the sentence with the value replaced ("the prod db password is [not stored:
 * ask the user]"), so memory knows a credential exists without holding it.
 */
import { REDACTED } from './auth/redact.js';
import { withoutSecrets } from './capture-secrets.js';
import { FILLER, MIN_CHARS, userSentences, type UserSentence } from './capture-sentences.js';
import { onlyNow } from './capture-moment.js';
import { groupSender } from './host-context.js';
import type { Category, DecayClass } from './types.js';

export const RULE_NAMES = ['explicit', 'correction', 'decision', 'preference', 'named-fact'] as const;
/** What found a fact: one of the rules, or the sentence classifier (`model`, src/core/capture-model.ts). */
export const CAPTURE_RULES = [...RULE_NAMES, 'model'] as const;
export type CaptureRule = (typeof CAPTURE_RULES)[number];

export interface CaptureTurn {
  readonly role: string;
  readonly content: string;
}

export interface CapturedFact {
  readonly rule: CaptureRule;
  readonly text: string;
  readonly category: Category;
  readonly entity: string | null;
  readonly tags: readonly string[];
  readonly importance: number;
  readonly decayClass: DecayClass;
  readonly confidence: number;
  /** A correction: the words of the thing it corrects, to find the fact it replaces. */
  readonly corrects: boolean;
  /** True when a secret-looking value was taken out of the sentence. */
  readonly redacted: boolean;
  /** A fact of sentences said in a row (src/core/capture-keep.ts): each sentence's own fact, in order. */
  readonly parts?: readonly CapturedFact[];
  /** A sentence the classifier dropped that says it is known ("like always", "is still"): it may strengthen the fact it restates, never be stored. */
  readonly restatesOnly?: boolean;
  /** The content words the user said in the rest of the conversation: what else it is about (capture's replacement). */
  readonly context?: ReadonlySet<string>;
  /** Who said it, in a group chat (saidBy): the text opens with their name. */
  readonly sender?: string;
}

const NOT_STORED = '[not stored: ask the user]';
export const MAX_FACT_CHARS = 500;

/**
 * The user's own role, work or pursuit: "I direct the marching band at Westfield High", "I'm a K9 handler
 * on the Chaffee County team", "I'm designing a game called Brinewater". Kept only with something it
 * names (NAMED_IN): "I coach the under-tens on weekends" is not kept by this rule.
 */
const SELF =
  /^(?:i|we)\s+(?:(?:also|mostly|usually|currently|still|now|actually|mainly)\s+)?(?:work|live|run|manage|direct|lead|coach|teach|host|own|build|make|sell|play|skip|captain|fly|ride|shoot|train|breed|raise|grow|volunteer|keep|study|attend|compete|race|drive|design|write|maintain|organize|organise|foster|handle|cover|represent|belong|serve|sing|perform|pour|brew|bake|knit|sew|tutor|mentor|moderate|referee|umpire|judge|show|hunt|fish|sail|dive|swim)\b(?!\s+(?:to|it|that|this|them|him|her|into|out|through|across|over)\b)|^(?:i'?m|i am|we'?re|we are)\s+(?:a|an|the)\s+(?!bit\b|little\b|lot\b|few\b|big\b|huge\b|total\b|complete\b)[\w -]{2,40}?\s+(?:at|on|for|with|in|of|from)\s|^(?:i'?m|i am|we'?re|we are)\s+(?:designing|building|restoring|writing|recording|stage[- ]managing|coaching|organi[sz]ing|training|raising|studying|showing|competing)\b/i;
/** Someone or something of the user's, by name: "my instructor Dana", "our mare Juniper", "my sister Priya". */
const THEIR_NAMED =
  /(?:^|\s)(?:[Mm]y|[Oo]ur)\s+(?:(?:new|old|little|big|younger|older|oldest|youngest|eldest|baby|main|regular|current|flight|riding|piano|voice|driving)\s+)?(?:wife|husband|partner|fianc[eé]e?|son|daughter|kid|child|mom|mum|mother|dad|father|sister|brother|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|granddaughter|grandson|friend|boss|manager|instructor|coach|teacher|doctor|vet|therapist|dentist|landlord|neighbou?r|roommate|flatmate|colleague|co-?worker|accountant|lawyer|mentor|trainer|tutor|assistant|dog|cat|horse|mare|gelding|stallion|pony|puppy|kitten|parrot|hawk|falcon|rabbit|tortoise|snake|gecko)\s+(?:is\s+|named\s+|called\s+)?[A-Z]\p{Ll}+/u;
/**
 * A state said to hold now, a changed one ("its release/2.15 now", "we're with harbor tax group now", "we carry Malabrigo now");
 * not how long since something happened ("day 3 now").
 */
const NOW_STATE = /^(?!.*\b(?:right now|for now|just now|now that|by now|until now|up to now|now (?:i|we) (?:need|want)|now what|now (?:can|could) you|\d+\+? (?:years?|yrs?) now|(?:day|week|night|month) \d+ now)\b)(?:(?:i|we|it|they|he|she|my|our|the|its|it'?s|[\w-]+'s|[\w-]+)\b).{0,80}?\bnow\b/i;
/** What the user or theirs took to a new number or version: "we expanded the yb cluster to 5 nodes", "i raised my rate to $95/hr", "we finally upgraded to zod 4", "dad's pulmonologist bumped him to 3 liters". */
const GREW_TO = /^(?:(?:so|and|also|btw|ok|oh and),?\s+)?(?:i|we|they|he|she|(?:my|our|his|her|their|the) [\w-]+|[\w-]+'s [\w-]+)\s+(?:just\s+|finally\s+)?(?:expanded|grew|increased|raised|reduced|lowered|upped|doubled|halved|bumped|cut|upgraded|downgraded|tightened|loosened|extended|shortened)\b.{0,40}?\bto\s+(?:\$?\d|[\w.-]+\s+v?\d)/i;
/** ... with a value in it: a number, a Name, a version, a place or a code. */
const NOW_VALUE = /\d|\s[A-Z]\p{Ll}|\b(?:with|at|on|in|through|via|to)\s+\w/u;
/** What the user is on, by name or number: "I'm on rizatriptan 10mg now", "we're on Django 4.2", "I'm on an Omnipod 5". */
const ON_SOMETHING = /^(?:i'?m|i am|we'?re|we are)\s+(?:now\s+|currently\s+|still\s+)?on\s+(?!call\b|it\b|my way\b|the way\b|board\b|track\b|time\b|vacation\b|holiday\b|leave\b|shift\b|site\b)/i;
/** Something a sentence names after its first word: a Name, or a word with a digit ("K9", "DR650", "1924"). */
const NAMED_IN = /\s(?:[A-Z]\p{Ll}[\p{L}'-]*|[\p{L}-]*\d[\w-]*)/u;

/** Someone's lasting likes and limits: "<name or my someone> hates / loves / prefers / can't stand / is allergic to ...". */
const THEIR_LIKING = /^(?:(?:my|our) [\w-]+(?: [\w-]+)?|[A-Za-z][\p{L}-]+)(?:'s| is| are)? (?:(?:really |also )?(?:hates|loves|prefers|dislikes|can'?t stand|cannot stand|can'?t have|can'?t eat|doesn'?t eat|won'?t eat)|allergic to)\b/iu;

const RULES: readonly { rule: CaptureRule; re: RegExp; needs?: RegExp; category: Category | null; importance: number; decay: DecayClass; confidence: number; corrects?: boolean }[] = [
  { rule: 'explicit', re: /^.{0,40}?\b(?:keep in mind|remember|(?<!\b(?:add|put|leave|include|write|stick|drop|with) (?:a |in a |the )?)note|don'?t forget|remind me) that\s+|^(?:please\s+|pls\s+)?(?:save this|save that|write this down|log this|make a note|remember|note|don'?t forget|do not forget|keep in mind|fyi|for the record|for future reference|just so you know|heads up)\b(?:\s+that)?\s*[:,-]?\s*/i, category: null, importance: 0.8, decay: 'stable', confidence: 0.95 },
  { rule: 'correction', re: /^(?:actually|correction|scratch that|sorry,? i meant|update|to be clear|change of plans?)\b\s*[:,-]?\s*|\bchanged\b[^.]{0,20}\bactually\b|\b(?:(?:got|was|has been|have been|is|are) (?:moved|changed|pushed|bumped) to|no longer|(?:not|isn'?t|aren'?t) [\w\s.:-]{1,40}any ?more|we switched (?:to|from)|we moved (?:\w+ )?(?:to|from)|has moved to|now (?:lives|runs|is hosted) (?:on|in|at)|(?:has|have) changed to|changed (?:it )?to|is now [\w./:-]+ instead of|instead of [\w./:-]+,? (?:it'?s|use)|(?:was|were) (?:renamed|moved|migrated) to|not [\w./:-]+ but)\b/i, category: null, importance: 0.7, decay: 'stable', confidence: 0.85 },
  { rule: 'decision', re: /^(?:ok(?:ay)?,? )?decided\b|^(?:(?:also|and|oh and|so)\s+)?(?:one|a|the|our|another|new|house)\s+(?:more\s+)?(?:house\s+)?(?:rule|policy)\b(?! (?:of thumb|is that)\b)|^(?:going with|settled on|sticking with)\b|\b(?:we settled on|we(?:'ve| have)? decided|(?:we|i)(?:'re| are) going with|let'?s go with|from now on|going forward|we(?:'ll| will) (?:use|go with|stick with)|we(?:'re| are) (?:using|sticking with|switching to)|we chose|we picked|the decision is|decided to|we agreed|we(?:'ve| have) settled on|we(?:'re| are) (?:moving|migrating) to|we(?:'ll| will) (?:move|migrate|switch) to|the plan is to|let'?s (?:use|stick with|keep|switch to|move to)|(?:use|keep) [\w.-]+ (?:from now on|going forward)|stick with)\b/i, category: 'decision', importance: 0.7, decay: 'stable', confidence: 0.85 },
  { rule: 'preference', re: /\b(?:i|we) (?:really |much |strongly |generally |usually )?(?:prefer|like|love|enjoy|hate|dislike|loathe|can'?t stand|cannot stand|always|never|want you to|don'?t want|do not want|don'?t like|don'?t eat|don'?t drink|avoid)\b|\b(?:i'?m|i am) (?:vegetarian|vegan|pescatarian|allergic to|lactose|not a fan of|a big fan of|into)\b|\bno [\w-]+(?: [\w-]+)? please\b|\bi only (?!have|had|need|know|want|got|just)[a-z]+\b|\b(?:works|work) best for me\b|\bi'?d like (?:you to|it|them|answers|replies)\b|\bi'?m (?:a|an) [\w-]+ (?:person|guy|girl|fan|user)\b|\bplease (?:always|never|don'?t|do not)\b|^(?:please |pls )?(?:always|never) (?!mind\b|again\b|ever\b|have\b|been\b)[a-z]+\b|\bmy (?:favou?rite|preferred) \w+|\bi'?d (?:rather|prefer)\b|^(?:can you |could you |please )?(?:stop|quit) (?:with |using |adding |sending |\w+ing\b)|^(?:please )?(?:don'?t|do not) (?:book|schedule|suggest|use|send|call|add|put|open|ping|message|write|format|answer|reply)\b/i, category: 'preference', importance: 0.6, decay: 'stable', confidence: 0.8 },
  { rule: 'named-fact', re: /(?:\b(?:is|are|lives?|stored|kept)|'re|'s)\s+(?:also\s+)?(?:stored\s+|kept\s+)?in\s+(?:the\s+)?(?:vault|1password|bitwarden|keychain|lastpass|keepass|secrets? manager|ssm|parameter store)\b/i, category: 'technical', importance: 0.6, decay: 'stable', confidence: 0.75 },
  { rule: 'named-fact', re: /^(?:[Ii]'?m|[Ii] am) [A-Z][\p{L}-]+/u, category: 'fact', importance: 0.5, decay: 'stable', confidence: 0.75 },
  { rule: 'named-fact', re: /^(?:i'?m|i am) (?:on [\w/ -]{2,30} time|based in \S+|from \S+)|^i (?:work|live|run|lead|manage|own) (?:at|for|as|in|on)?\s*\S+|^we (?:use|run|deploy|host) [\w.-]+ (?:for|on|in|as) /iu, category: null, importance: 0.5, decay: 'stable', confidence: 0.75 },
  { rule: 'named-fact', re: THEIR_NAMED, category: 'fact', importance: 0.5, decay: 'stable', confidence: 0.7 },
  // What someone of the user's likes, hates or can't have ("carla hates long emails", "my kid's allergic to bees").
  { rule: 'named-fact', re: THEIR_LIKING, category: 'fact', importance: 0.5, decay: 'stable', confidence: 0.7 },
  { rule: 'named-fact', re: SELF, needs: NAMED_IN, category: 'fact', importance: 0.5, decay: 'stable', confidence: 0.7 },
  { rule: 'named-fact', re: ON_SOMETHING, needs: NAMED_IN, category: 'fact', importance: 0.5, decay: 'stable', confidence: 0.7 },
  // A statement of change, not a correction of a fact by its words: the store replaces what it mostly restates (CHANGED), not any fact sharing a quarter of its words.
  { rule: 'correction', re: NOW_STATE, needs: NOW_VALUE, category: null, importance: 0.7, decay: 'stable', confidence: 0.8, corrects: false },
  // A count or an amount that grew or shrank: "we expanded the yb cluster to 5 nodes", "i raised my rate to $95".
  { rule: 'correction', re: GREW_TO, category: null, importance: 0.7, decay: 'stable', confidence: 0.8, corrects: false },
];

/** "<subject> is|runs on|... <value>" about a named thing. */
const NAMED = /^(?:(?:my|our|the|his|her|their)\s+)?([\w][\w .'/-]{1,60}?)\s+(?:is|are|was|runs on|run on|lives (?:in|on|at)|listens on|is hosted on|is on|are on|sits on|points to|resolves to|uses|use|takes over|does|handles|owns|leads|covers|moved to|relocated to|replaced|took over from|goes to|go to|works (?:at|for|on)|is based in|is deployed (?:to|on)|is hosted (?:at|by)|is called|is named|belongs to|=)\s+(.{2,})$/i;
/** A subject that opens with a clause of its own ("She's ok they induced vomiting and" are checking ...): no thing a fact is about. */
const CLAUSE_IN_SUBJECT = /^(?:she|he|it|that|there|they|we|i|you)['’](?:s|re|m|ve|ll|d)\b/i;
/** A value or subject that names something: a host, IP, port, path, version, e-mail, a capitalised Name. */
export const NAMED_THING = /#[\w-]{2,}|\b\d+\.\d+\.\d+\.\d+\b|\b[\w-]+\.(?:internal|local|lan|com|net|org|io|dev|app|de|co|uk)\b|\b[a-z]+[-_]?\d+\b|(?:^|\s)[~.]?\/[\w./-]+|\bport \d+|:\d{2,5}\b|\bv?\d+\.\d+\b|\b[\w.+-]+@[\w-]+\.\w+|\b[\w.-]+\/[\w.-]+|(?:^|\s)[A-Z][a-z]+[A-Z]?\w*/;
/** Sentences that state nothing: questions, requests, hedges, hypotheticals, sarcasm. */
export const NOT_A_STATEMENT = /\?\s*$|^(?:if (?:i|we|you|u) (?!always|never|ever)\w+(?:\s+\S+){0,8}$|can|could|would|will|should|do|does|did|is|are|was|were|have|has|what|why|how|when|where|which|who|whats|hows|any idea|any chance|(?:i )?(?:saw|read|heard|watched) (?:a|an|this|that|about|somewhere)|(?:please|pls|plz) (?!always|never|don'?t|do not|remember|note))\b|\b(?:maybe|perhaps|might|i think we (?:could|might|should)|not sure|idk|i guess|what if|if we|suppose|hypothetically|in theory|would it|could we|should we|lol|\/s|(?:he|she|they|[A-Z][a-z]+|my \w+) (?:says|said|thinks|claims|reckons|believes|told me|swears|insists|argues)|keeps? (?:dying|failing|crashing|breaking|getting|flapping)|(?:does|would|will|could|can|is) (?:that|this|it) (?:change|matter|affect|work|help|make|mean)|yes or no|if\b[^.!?]{1,200}?,?\s(?:can|could|should|do|does|will|would|may|is|are) (?:i|we|you|u|it|they|he|she|that|this)\b)\b|\b(?:is|are) (?:that|this|those|these) (?:a |an |the )?(?:normal|same|ok|okay|right|fine|safe|enough|legit|worth it|too much|bad)(?: \w+)?[.!]?$|[\u{1F643}\u{1F644}\u{1F612}\u{1F60F}]/iu;
/** The user asks for it not to be kept ("don't write that anywhere", "off the record"). */
const DO_NOT_KEEP = /\b(?:don'?t|dont|do not|never|no need to)(?: (?:need|have) to)? (?:write|keep|store|save|note|record|remember|log|put) (?:that|this|it|them|those|these)(?: (?:down|anywhere|in|on)\b)?|\b(?:off the record|between us|don'?t (?:save|store) that)\b/i;
/** The opener words a fact does not keep ("remember that", "actually,"). */
const STRIP_OPENER = /^.{0,40}?\b(?:keep in mind|remember|note|don'?t forget|remind me) that\s+|^(?:please\s+)?(?:make a note|remember|note|don'?t forget|do not forget|keep in mind|fyi|for the record|for future reference|just so you know|heads up|actually|correction|scratch that|sorry,? i meant|update|to be clear|change of plans?)\b(?:\s+that)?\s*[:,-]?\s*/i;
/** "can you stop ..." is a request that states a preference. */
const STOP_REQUEST = /^(?:can you |could you |please )?(?:stop|quit)\b/i;
/** "can you remind me that i always batch on wednesdays": a request to keep what follows. */
const KEEP_REQUEST = /^(?:(?:can|could|would) (?:you|u) |please |pls )?(?:remind me|remember|note|keep in mind) that\b|^(?:(?:can|could|would) (?:you|u) |please |pls )(?!.*\?\s*$).*\b(?:from now on|going forward)\b/i;

/** The user says memory knows this already ("as you know ...", "like I said", "again, ...", "is still ...", "no change"). */
export const RESTATES = /^(?:(?:ok(?:ay)?|so|and|but)\s+)?(?:as (?:you know|i said|i mentioned|mentioned|before)|like i (?:said|mentioned)|again\b|reminder\b|you know (?:that|the drill))|\b(?:like i said|as i said|as you know|you know the drill|as always|(?:is|are|'s|'re) still|no change)\b/i;

function category(text: string, fallback: Category | null): Category {
  if (fallback) return fallback;
  if (RULES[3]?.re.test(text)) return 'preference';
  if (RULES[2]?.re.test(text)) return 'decision';
  return NAMED_THING.test(text) && /\b(?:host|server|port|db|database|cluster|ip|url|repo|branch|deploy|ci|vpn|dns|ssh|api|node|vm|bucket|queue|service)\b/i.test(text) ? 'technical' : 'fact';
}

function slug(s: string): string | null {
  const t = s.toLowerCase().replace(/^(?:the|my|our|a|an)\s+/, '').replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');
  return t.length >= 2 && t.length <= 60 ? t : null;
}

/** The sentence as a fact: filler off, capitalised, secrets replaced (and reported), bounded. */
function factText(sentence: string): { text: string; redacted: boolean } {
  const trimmed = sentence.replace(FILLER, '').trim();
  const safe = withoutSecrets(trimmed).split(REDACTED).join(NOT_STORED);
  const text = safe.charAt(0).toUpperCase() + safe.slice(1);
  return { text: text.length > MAX_FACT_CHARS ? `${text.slice(0, MAX_FACT_CHARS - 1)}…` : text, redacted: safe !== trimmed };
}

/** The first rule that fires on one sentence, as a fact, or null. */
export function captureSentence(sentence: string, listed = false): CapturedFact | null {
  if (listed) return listedItem(sentence);
  const body = sentence.replace(FILLER, '').trim();
  // "please keep my handouts at a 6th grade reading level": a standing instruction, said politely.
  const polite = /^(?:please|pls|plz)\s+(.*)$/i.exec(body)?.[1];
  if (polite && /\b(?:my|our)\b/i.test(polite) && !DO_NOT_KEEP.test(body) && standingInstruction(polite)) return instruction(body);
  if (body.length < MIN_CHARS || DO_NOT_KEEP.test(body) || (NOT_A_STATEMENT.test(body) && !STOP_REQUEST.test(body) && !KEEP_REQUEST.test(body))) return null;
  // Where a credential lives: a technical fact with the credential tag (the auth-failure hint finds it).
  if (credentialHome(body)) return { ...namedFact(body, { entity: null, importance: 0.7, confidence: 0.8, decayClass: 'stable' }), category: 'technical', tags: CREDENTIAL_HOME_TAGS };
  for (const r of RULES) {
    if (!r.re.test(body) || (r.needs && !r.needs.test(body))) continue;
    // The explicit and correction openers are dropped: "remember that X" keeps X.
    const opener = r.rule === 'explicit' || r.rule === 'correction' ? STRIP_OPENER.exec(body) : null;
    const rest = opener ? body.slice(opener[0].length) : body;
    if (rest.trim().length < 3) return null;
    const { text, redacted } = factText(rest);
    const subject = NAMED.exec(rest.replace(FILLER, ''));
    return {
      rule: r.rule,
      text,
      category: category(rest, r.category),
      entity: subject?.[1] && NAMED_THING.test(subject[1]) ? slug(subject[1]) : null,
      tags: ['auto-capture', r.rule],
      importance: r.importance,
      decayClass: FLEETING.test(rest) ? 'episodic' : r.decay,
      confidence: r.confidence,
      corrects: r.corrects ?? r.rule === 'correction',
      redacted,
    };
  }
  if (standingInstruction(body)) return instruction(body);
  if (onlyNow(body)) return null;
  const named = NAMED.exec(body);
  if (named && named[1] && named[2] && (NAMED_THING.test(named[1]) || NAMED_THING.test(named[2])) && !/^(?:it|this|that|there|here|he|she|they|which|what)$/i.test(named[1].trim()) && !CLAUSE_IN_SUBJECT.test(named[1])) {
    return namedFact(body, { entity: slug(named[1]), importance: 0.5, confidence: 0.7, decayClass: FLEETING.test(body) ? 'volatile' : 'stable' });
  }
  return declarative(body);
}

/**
 * Where a credential lives ("the new one goes in the org secret RELEASE_PAT", "I moved the key into a .env
 * file", "they live in the GitLab CI/CD variables"): the fact issue 19 keeps in a secret's place.
 */
const CREDENTIAL = /\b(?:pass(?:word|phrase|code)s?|pw|api[ -]?keys?|keys?|tokens?|secrets?|creds|credentials?|pats?|those|them|it|one)\b/i;
/** Put somewhere: "lives in", "goes in the", "store it as", "moved the key into"; the place follows. */
const PUT_IN = /\b(?:lives?|stored|stores?|kept|keeps?|goes|go|going|put|moved|saved?)(?:\s+[\w'-]+){0,3}?\s+(?:in|into|under|as)\b(.{0,60})/i;
/** A place for secrets: a vault, a secrets store, env settings, a .env file, or a variable's NAME_LIKE_THIS. */
const SECRET_PLACE = /\b(?:vault|1password|bitwarden|lastpass|keychain|keepass|secrets? manager|ssm|parameter store|secrets?|env(?:ironment)? (?:settings|vars?|variables)|(?:ci(?:\/cd)? )?variables)\b|\.env\b/i;
const VARIABLE_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
/** The tag of a credential's home: a credential tag (src/core/auth/named-hosts.ts isCredentialFact), kept whatever the classifier says. */
export const CREDENTIAL_HOME_TAG = 'credential';
const CREDENTIAL_HOME_TAGS = ['auto-capture', 'named-fact', CREDENTIAL_HOME_TAG] as const;
function credentialHome(body: string): boolean {
  const place = PUT_IN.exec(body)?.[1];
  return place !== undefined && CREDENTIAL.test(body) && (SECRET_PLACE.test(place) || VARIABLE_NAME.test(place));
}

/** What a standing instruction is about: the form of what the assistant writes or does. */
const FORM = /\b(?:emojis?|exclamation (?:points?|marks?)|spelling|(?:oxford )?commas?|semicolons?|tabs|spaces|bullets?|bullet points|tables?|paragraphs?|one[- ]liners?|one line|words?|reading level|sign(?:ed)?[- ]?off|sign (?:it|them|off) (?:as|with)|tone|formal|casual|metric|imperial|units|utc|time ?zone|[a-z]+ time|format(?:ted)?|lowercase|uppercase|british|american|english|spanish|french|german|romaji|kana|kanji|furigana|honorifics|font|one (?:page|screen)|short|shorter|concise|brief|answers?|replies|comments?|commit messages?|typescript|javascript|bash|python|code|scripts?|decimals?|dates?|timestamps)\b/i;
/** It holds beyond this task: always, never, every, anything you write for me. */
const GENERAL = /\b(?:always|never|ever|every|each|all (?:our|my|the)|anything|any (?:time|of)|whenever|for (?:all|every|any)|in (?:all|every|any)|by default|in general|as a rule|(?:you|u) (?:write|give|draft|send|make|do)\b[^.]{0,20}\bfor me|for me\b|for my\b)/i;
/** Shaped as a directive: keep / use / no / don't / put / sign / only ..., "X not Y", "... pls", "max N". */
const DIRECTIVE = /^(?:(?:and|also|oh and|but)\s+)?(?:keep|use|no|don'?t|dont|do not|put|sign|give|write|answer|reply|stick|avoid|skip|only|just|lead with|start with|open with|end with|stay|stays)\b|\b(?:pls|please|plz)[.!]?$|^[\w' -]{2,30} not [\w' -]{2,30}[.!]?$|\b(?:max|at most|or less|or fewer|under \d+)\b/i;
/** About this one thing only ("this email", "the draft above", "here"). */
const THIS_TASK = /\b(?:this|that|the above|the last) (?:one|email|draft|post|message|letter|version|paragraph|list|doc|document|file|page|slide|reply|answer|text|bio|listing|caption|flyer)\b|\b(?:above|below|here|again)\b/i;

/** A standing instruction about how the assistant should write or work ("no emojis in show notes pls", "keep menu descriptions under 10 words"). */
function standingInstruction(body: string): boolean {
  if (!DIRECTIVE.test(body) || !FORM.test(body) || THIS_TASK.test(body) || body.split(/\s+/).length > 30) return false;
  // "write me a script", "keep it short": a task's request, unless it says it holds beyond the task.
  return GENERAL.test(body) || !TASK_REQUEST.test(body);
}
function instruction(body: string): CapturedFact {
  const { text, redacted } = factText(body);
  return { rule: 'preference', text, category: 'preference', entity: null, tags: ['auto-capture', 'preference'], importance: 0.6, decayClass: 'stable', confidence: 0.75, corrects: false, redacted };
}
const TASK_REQUEST = /^(?:(?:and|also|oh and|but)\s+)?(?:(?:write|give|draft|make|answer|reply|send|create)\b|(?:keep|put|sign|use) (?:it|them)\b)/i;

/** An item of a list the user introduced as worth keeping: the rules first, else kept as it stands. */
function listedItem(item: string): CapturedFact | null {
  const ruled = captureSentence(item);
  if (ruled) return ruled;
  if (NOT_A_STATEMENT.test(item) || item.split(/\s+/).length < 2) return null;
  return namedFact(item, { entity: null, importance: 0.5, confidence: 0.75, decayClass: 'stable' });
}

/** Words that make a fact short-lived. */
const FLEETING = /\b(?:today|tonight|this (?:week|month|sprint)|tomorrow|until)\b/i;

/** A fact of the named-fact rules (a statement about something), from the sentence as written. */
function namedFact(body: string, o: { entity: string | null; importance: number; confidence: number; decayClass: DecayClass }): CapturedFact {
  const { text, redacted } = factText(body);
  return { rule: 'named-fact', text, category: category(body, null), tags: ['auto-capture', 'named-fact'], corrects: false, redacted, ...o };
}

/** A request to the assistant, not a statement ("write ...", "can you ...", "need a letter to ..."). */
export const IMPERATIVE = /^(?:(?:(?:i|we) )?(?:need|want|wanna|would like|'d like) (?:a|an|some|help|you|to|the)\b|can|could|would|will|pls|please|let'?s|write|draft|make|help|fix|show|give|tell|send|add|create|find|check|update|turn|scale|redo|list|look|pull|run|set up|setup(?! is| was| are)|review|explain|summari[sz]e|translate|book|schedule|remind|ask|use|try|go|get|put|change|move|rewrite|tighten|clean|generate|plan|shorten|lengthen|simplify|reword|rephrase|proofread|polish|outline|brainstorm|suggest|recommend|estimate|double[- ]check|remove|delete|swap|convert|compare|debug|refactor|optimi[sz]e|calculate|compute|sort|tweak|adjust|expand|condense|trim|highlight|attach|insert|append|rename|deactivate|disable|cancel|archive|here(?:'s| is| are)|just say)\b/i;
/** Specific content: a Name after the first word, a date, a time, an amount, a code or id. */
export const SPECIFIC = /(?:^|\s)\S+\s+(?:[A-Z][\p{L}'-]+)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}(?::\d{2}|\s?(?:am|pm))\b|[£$€]\s?\d|\b\d+\.\d+\b|\b\d[\d,.]*\s?(?:%|(?:k|m|gb|tb|kg|km|miles?|days?|weeks?|months?|hours?|mins?|minutes?|guests?|people|covers)\b)|\b[a-z]+[-_]\d+\b|\b\d[a-z]\b|\b[\w-]+\.(?:service|internal|lan|local|corp|com|io|dev)\b/u;
/** Something that recurs: "every sunday", "on tuesdays", "thursday mornings", "monthly" (a routine lasts). */
const ROUTINE =
  /\b(?:every (?:day|night|morning|evening|week(?:day|end)?|month|year|quarter|other|(?:mon|tues|wednes|thurs|fri|satur|sun)day|first|second|third|fourth|last|\d+)|(?:mon|tues|wednes|thurs|fri|satur|sun)days|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]* (?:mornings|nights|evenings|afternoons)|weekly|monthly|nightly|daily|biweekly|quarterly|annually|yearly|each (?:week|month|morning|night|year))\b/i;
/** Who or what is the user's: "my accountant is ...", "our contact there is ...", "he's my office manager". */
const OWN_THING = /\b(?:(?:he|she|they)(?:'s|'re| is| are) (?:my|our)\b|(?:my|our) (?:[a-z-]+ ){0,2}?(?:is|are|'s)\s+(?!not\b|so\b|too\b|like\b|only\b|just\b|still\b|down\b|broken\b|out\b|off\b|being\b|getting\b|showing\b|throwing\b)\w)/i;
/** A standing rule: "every prod topic must have ...", "no exceptions", "we only ever ..." (not "it must be stale"). */
const RULE_OF_OURS = /\bno exceptions\b|\bonly ever\b|\bmust (?!be\b|have been\b|'ve\b)\w/i;
/** A clause with a verb of state or change (what a fact about something says). */
const STATE_VERB = /\b(?:stay|stays|run|see|sees|switched|is|are|was|were|'s|'re|has|have|had|gets|get|goes|go|moves|moved|starts|started|ends|ended|leaves|comes|runs|uses|owns|signed|hired|joined|left|set for|due|closes|closed|opens|costs|takes|lives|works|teaches|lands|flies|meets|needs|belongs)\b/i;

/**
 * The last rule: a plain statement with something specific in it ("my defense is set for november 8th"),
 * a routine ("we close the shop every sunday"), who or what is the user's ("our contact there is lena
 * marsh") or a standing rule ("every prod topic must have replication factor 3"): not a request, a
 * question or a hedge.
 */
function declarative(body: string): CapturedFact | null {
  if (IMPERATIVE.test(body) || body.split(/\s+/).length < 4) return null;
  if (!(SPECIFIC.test(body) && STATE_VERB.test(body)) && !ROUTINE.test(body) && !OWN_THING.test(body) && !RULE_OF_OURS.test(body)) return null;
  return namedFact(body, { entity: null, importance: 0.4, confidence: 0.7, decayClass: FLEETING.test(body) ? 'volatile' : 'stable' });
}

/** Share of `of`'s words that `other` holds. */
export function shareOf(of: ReadonlySet<string>, other: ReadonlySet<string>): number {
  if (of.size === 0) return 0;
  let n = 0;
  for (const x of of) if (other.has(x)) n++;
  return n / of.size;
}

/** One sentence of the user's and the fact the rules found in it (null: none fired). */
export interface Candidate {
  readonly sentence: UserSentence;
  readonly ruled: CapturedFact | null;
  /** The assistant's answer to the turn the sentence is in ('' when none followed). */
  readonly reply: string;
  /** The index of the turn the sentence is in. */
  readonly turn: number;
  /** The sentence is the whole of its message ("I hate tabs"). */
  readonly alone: boolean;
  /** Who wrote it, in a group chat (the host's conversation info); null when it is the user. */
  readonly sender: string | null;
}

/** Every sentence of a conversation's user turns (never tool or assistant text), with what the rules find in it. */
export function captureCandidates(turns: readonly CaptureTurn[], maxChars: number): Candidate[] {
  return turns.flatMap((t, i) => {
    if (!/^(?:user|human|prompt)$/i.test(t.role)) return [];
    const next = turns.slice(i + 1).find((x) => !/^tool$/i.test(x.role));
    const reply = next && /^(?:assistant|ai|agent|model)$/i.test(next.role) ? next.content : '';
    const sentences = userSentences(t.content, maxChars);
    const sender = groupSender(t.content);
    return sentences.map((sentence) => ({ sentence, ruled: captureSentence(sentence.text, sentence.listed), reply, turn: i, alone: sentences.length === 1, sender }));
  });
}

/**
 * The request a preference in the same sentence gives the reason for ("pls use metric for everything, i
 * never think in fahrenheit", "keep it under 100 words, i always keep those short"): what to do instead,
 * kept with it; null for a question, a long request, or something about this one draft or this moment only.
 */
export function requestItExplains(clause: string): string | null {
  const body = clause
    .replace(FILLER, '')
    .replace(/^(?:good|looks good|love it|better)\s+but\s+/i, '')
    .replace(/^(?:(?:can|could|would) (?:you|u)\s+)?(?:(?:pls|please|plz)\s+)?/i, '')
    .replace(/[\s,]*\b(?:pls|please|plz|btw|fyi)[.!]?$/i, '')
    .trim();
  const words = body.split(/\s+/).length;
  if (words < 2 || words > 10 || NOT_A_STATEMENT.test(body) || THIS_TASK.test(body) || onlyNow(body)) return null;
  return body;
}

/**
 * A fact a member of a group chat stated, said to be theirs ("Dana: my editor is Helix"): about them when
 * they speak of themselves (so it never replaces the user's own "my editor is Vim"), else about what it names.
 */
export function saidBy(f: CapturedFact, sender: string): CapturedFact {
  const own = /\b(?:i|i'm|im|i've|i'd|i'll|my|me|mine)\b/i.test(f.text);
  return { ...f, text: `${sender}: ${f.text}`, sender, entity: own ? slug(sender) : (f.entity ?? slug(sender)), tags: [...f.tags, 'group-chat'] };
}

/** What a fact says, without the name of the group chat member who said it: what memory compares. */
export function spokenText(f: CapturedFact): string {
  return f.sender && f.text.startsWith(`${f.sender}: `) ? f.text.slice(f.sender.length + 2) : f.text;
}

/** A sentence the classifier keeps though no rule fired: kept as the user wrote it (filler off, secrets out). */
export function plainFact(sentence: UserSentence): CapturedFact | null {
  const body = sentence.text.replace(FILLER, '').trim();
  // What the rules never keep stays out whatever the classifier says: questions, requests, hedges, asides.
  if (body.length < MIN_CHARS || body.split(/\s+/).length < 3 || DO_NOT_KEEP.test(body) || NOT_A_STATEMENT.test(body) || IMPERATIVE.test(body) || onlyNow(body)) return null;
  return { ...namedFact(body, { entity: null, importance: 0.4, confidence: 0.7, decayClass: FLEETING.test(body) ? 'volatile' : 'stable' }), rule: 'model', tags: ['auto-capture', 'model'] };
}
