/**
 * Time in a recall query: "in March 2025", "summer 2025", "before January 2026", "last month", and words
 * asking for the newest or the first state of something ("now", "current", "latest", "most recent", "last
 * time"; "first", "originally"). Recall uses them to prefer facts whose time fits (src/memory/recall.ts):
 * a fact's time is a date written in its text when it has one, else when it was stored (valid_from). A query
 * that asks when favours a fact that says when (asksWhen, saysWhen), one that asks how much a fact that gives
 * a number (asksNumber, saysNumber). Pure: no clock of its own (`now` is passed in), no I/O.
 */
import { spokenWords } from './embed-text.js';

export interface TimeCues {
  /** Facts from [from, to) fit; others are demoted. */
  readonly range: readonly [number, number] | null;
  /** Newest first (now, current, latest) or oldest first (first, originally); null: no preference. */
  readonly prefer: 'recent' | 'early' | null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const SEASONS: Readonly<Record<string, readonly [number, number]>> = {
  spring: [2, 5],
  summer: [5, 8],
  autumn: [8, 11],
  fall: [8, 11],
  winter: [11, 14],
};
const DAY = 86_400_000;

function monthIndex(word: string): number {
  const w = word.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(w));
}

const utc = (year: number, month: number, day = 1): number => Date.UTC(year, month, day);

/** The cues in `query`, relative to `now`. */
export function timeCues(query: string, now: number): TimeCues {
  const q = query.toLowerCase();
  return { range: rangeOf(q, now), prefer: preferenceOf(q) };
}

function rangeOf(q: string, now: number): readonly [number, number] | null {
  const year = new Date(now).getUTCFullYear();
  let m = new RegExp(`\\b(before|after|since|until|by)?\\s*(?:the\\s+)?(?:in\\s+|during\\s+)?${MONTH_RE}\\s+(\\d{4})\\b`).exec(q);
  if (m) return bounded(m[1], utc(Number(m[3]), monthIndex(m[2] as string)), utc(Number(m[3]), monthIndex(m[2] as string) + 1));
  m = new RegExp(`\\b(before|after|since|until|by)?\\s*(?:the\\s+)?(?:in\\s+|during\\s+)?(spring|summer|autumn|fall|winter)(?:\\s+of)?\\s+(\\d{4})\\b`).exec(q);
  if (m) {
    const [a, b] = SEASONS[m[2] as string] as readonly [number, number];
    return bounded(m[1], utc(Number(m[3]), a), utc(Number(m[3]), b));
  }
  m = /\b(before|after|since|until|by)?\s*(?:in\s+|during\s+)?((?:19|20)\d{2})\b/.exec(q);
  if (m) return bounded(m[1], utc(Number(m[2]), 0), utc(Number(m[2]) + 1, 0));
  m = new RegExp(`\\b(before|after|since|until|by)?\\s*(?:the\\s+)?(?:in\\s+|during\\s+)?${MONTH_RE}\\b(?!\\s+\\d)`).exec(q);
  // A month without a year: the last such month up to now ("in March" asked in May means this March).
  if (m && !/\bmay\b/.test(m[0]) && (m[1] || /\b(?:in|during)\s/.test(m[0]))) {
    const month = monthIndex(m[2] as string);
    const y = month <= new Date(now).getUTCMonth() ? year : year - 1;
    return bounded(m[1], utc(y, month), utc(y, month + 1));
  }
  if (/\b(?:last|past|previous)\s+week\b/.test(q)) return [now - 14 * DAY, now];
  if (/\b(?:last|past|previous)\s+month\b/.test(q)) return [now - 62 * DAY, now];
  if (/\b(?:last|past|previous)\s+year\b/.test(q)) return [now - 730 * DAY, now - 180 * DAY];
  if (/\byesterday\b/.test(q)) return [now - 3 * DAY, now];
  if (/\bthis\s+week\b/.test(q)) return [now - 8 * DAY, now + DAY];
  if (/\bthis\s+month\b/.test(q)) return [now - 32 * DAY, now + DAY];
  return null;
}

/** "before March 2025" is everything up to March; "after"/"since" from its start; otherwise the span itself. */
function bounded(word: string | undefined, from: number, to: number): readonly [number, number] {
  if (word === 'before' || word === 'until' || word === 'by') return [0, word === 'before' ? from : to];
  if (word === 'after' || word === 'since') return [word === 'after' ? to : from, Number.MAX_SAFE_INTEGER];
  return [from, to];
}

function preferenceOf(q: string): TimeCues['prefer'] {
  if (/\b(?:now|nowadays|currently|current|latest|most recent(?:ly)?|these days|today|last time|still|anymore|any more)\b/.test(q)) return 'recent';
  if (/\b(?:first|originally|initially|at first|in the beginning|to begin with|earliest|used to)\b/.test(q)) return 'early';
  return null;
}

/**
 * A date a fact's text opens with (within its first 40 characters), as a note or a transcript line
 * carries its date: ISO (2025-03-14), "14 March 2025", "March 14, 2025", "March 2025". Dates later in the
 * text are what it talks about (a deadline, an expiry), not when it happened.
 */
export function dateInText(full: string): number | null {
  const text = full.slice(0, 40);
  let m = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/.exec(text);
  if (m) return utc(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_RE},?\\s+((?:19|20)\\d{2})\\b`, 'i').exec(text);
  if (m) return utc(Number(m[3]), monthIndex(m[2] as string), Number(m[1]));
  m = new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+((?:19|20)\\d{2})\\b`, 'i').exec(text);
  if (m) return utc(Number(m[3]), monthIndex(m[1] as string), Number(m[2]));
  m = new RegExp(`\\b${MONTH_RE}\\s+((?:19|20)\\d{2})\\b`, 'i').exec(text);
  if (m) return utc(Number(m[2]), monthIndex(m[1] as string), 15);
  return null;
}

/** How much a fact outside the asked-for time span keeps of its score. */
export const OUT_OF_RANGE = 0.5;
/** How much the newest (or, asked for the first, the oldest) of the candidates gains over the other end. */
export const RECENCY_GAIN = 0.5;

/**
 * Re-weight scored candidates by the query's time cues: outside the asked-for span a fact keeps OUT_OF_RANGE
 * of its score; asked for the newest (or first) state, scores gain up to RECENCY_GAIN by the fact's place
 * between the oldest and the newest candidate. Returns a weight in [0, 1] per time, in order.
 */
export function timeWeights(cues: TimeCues, times: readonly number[], options: { outOfRange?: number; gain?: number } = {}): number[] {
  const outOfRange = options.outOfRange ?? OUT_OF_RANGE;
  const gain = options.gain ?? RECENCY_GAIN;
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  return times.map((t) => {
    let w = 1;
    if (cues.range && (t < cues.range[0] || t >= cues.range[1])) w *= outOfRange;
    if (cues.prefer && hi > lo) w *= 1 + gain * (cues.prefer === 'recent' ? (t - lo) / (hi - lo) : (hi - t) / (hi - lo));
    return cues.prefer ? w / (1 + gain) : w;
  });
}

/** A query that asks when: "When did ...", "What day did ...", "How long ago ...". */
export function asksWhen(query: string): boolean {
  return /^\s*(?:when\b|(?:on |in )?(?:what|which) (?:date|day|month|year|week|weekend|time)\b|how long ago\b)/i.test(query);
}

const WEEKDAYS = '(?:mon|tues?|wednes|thurs?|fri|satur|sun)day';
/** A text that says when something happened or will: "yesterday", "last Tuesday", "two weeks ago", "on Thursday", "in March", "the 14th". */
const SAYS_WHEN = new RegExp(
  String.raw`\b(?:yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening|weekend)|(?:last|this|next|past) (?:night|week|weekend|month|year|spring|summer|autumn|fall|winter|${WEEKDAYS})|(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of) (?:days?|weeks?|months?|years?) (?:ago|back|from now)|ago|(?:on|since|until|by|from) (?:the )?(?:${WEEKDAYS}|\d{1,2}(?:st|nd|rd|th))|${WEEKDAYS}|(?:in|since|until|by|early|late|mid)[ -]${MONTH_RE}|${MONTH_RE} \d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH_RE}|(?:19|20)\d{2})\b`,
  'i',
);
/** A text that says when (SAYS_WHEN); a dialogue turn's time stamp and speaker are not read. */
export function saysWhen(text: string): boolean {
  return SAYS_WHEN.test(spokenWords(text));
}

/** How much a text that says when counts for more when the query asks when (tuned on the dev split of eval/recall). */
export const SAYS_WHEN_WEIGHT = 1.5;

/** A query that asks how much: "How much did Tara weigh?", "How many ...", "How long ...", "What time ...". */
export function asksNumber(query: string): boolean {
  return /^\s*(?:how (?:much|many|long|far|old|big|heavy|tall|fast|often)|what (?:time|price|score|size|weight|age|number))\b/i.test(query);
}
/** A text that gives a number, in digits or words ("3.4 kilos", "four hours"); a dialogue turn's time stamp and speaker are not read. */
export function saysNumber(text: string): boolean {
  return /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|dozen|half)\b/i.test(spokenWords(text));
}
/** How much a text that gives a number counts for more when the query asks how much (tuned on the dev split of eval/recall). */
export const SAYS_NUMBER_WEIGHT = 1.5;
