/**
 * The values a fact states, by kind, so that memory can tell a statement of change that gives a new value
 * for what a current fact holds ("we bumped minSdk to 26" against "App minSdk is 24", "rehearsals moved to
 * Thursdays at 7:30" against "Choir rehearses Wednesday nights at 7", "I'm on an 8-shaft Louet now"
 * against "User weaves on a 4-shaft Schacht") even when it shares few words with it.
 */
import { porterStem } from './porter.js';
import { STOPWORDS } from './text.js';

/** A value and its kind: `money`, `time`, `day`, `month`, `year`, `address` (192.168.1.10), `percent`, `ordinal` (2nd), `often` (nightly, every 6 hours), or `n:<unit>` for a number (`n:` when it has no unit). */
export interface StatedValue {
  readonly kind: string;
  readonly value: string;
}

/** Counts said in words ("down to two hives"); not "one", which is mostly "the new one". */
const NUMBER_WORDS: Readonly<Record<string, string>> = { two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11', twelve: '12' };
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|weds|thurs|mon|tue|thu|fri';
/** A month ("october", "nov"; "may" and "mar" only before a day of it, since they are words too). */
const MONTHS = String.raw`january|february|march|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec|(?:may|mar)(?=\s+\d)`;

/**
 * Money ("$1,400", "£4", "€30"), a time of day ("7pm", "7:30", "noon"), a weekday ("Thursdays", "thurs"), a month and a number
 * with the unit it counts, attached, hyphened or the next word ("10mg", "4-shaft", "14U", "6 hives", "two
 * hives"; a version is a number without one: "Django 4.2").
 */
const VALUE = new RegExp(
  String.raw`([$£€]\s?\d[\d,]*(?:\.\d+)?)|\b(\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|noon|midnight)\b|\b(${DAYS})s?\b|(?<![\w.])(\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:\.\d+)*(?![\d.])|(?:${Object.keys(NUMBER_WORDS).join('|')})\b)(?:-?([a-z]+)\b|\s([a-z]+)\b)?|\b(nightly|daily|weekly|biweekly|monthly|quarterly|yearly|annually|hourly|every (?:other )?(?:\d+ )?(?:day|night|week|month|hour|hr|year)s?)\b|\b(${MONTHS})\b`,
  'gi',
);

/** How often each word says, as one value. */
const OFTEN: Readonly<Record<string, string>> = { nightly: '1 day', daily: '1 day', weekly: '1 week', biweekly: '2 week', monthly: '1 month', quarterly: '3 month', yearly: '1 year', annually: '1 year', hourly: '1 hour' };

/** How often, as one value: "nightly" and "every night" are "1 day", "every 6 hours" "6 hour", "biweekly" "2 week". */
function howOften(phrase: string): string {
  const p = phrase.toLowerCase();
  const named = OFTEN[p];
  if (named) return named;
  const unit = /(day|night|week|month|hour|hr|year)s?$/.exec(p)?.[1] ?? '';
  const n = /\d+/.exec(p)?.[0] ?? (p.includes('other') ? '2' : '1');
  return `${n} ${unit === 'night' ? 'day' : unit === 'hr' ? 'hour' : unit}`;
}

/**
 * A value as it is stated in a text: its kind and value, the content words of up to four words before it in its
 * clause, and what it is for ("$95/hour for labor"); for a count, the words of what it counts ("6 barn owl nest
 * boxes": barn, box), so that "8 boxes" counts the same thing.
 */
interface ValueInText extends StatedValue {
  readonly said: ReadonlySet<string>;
  readonly counts: ReadonlySet<string>;
}

/** Words that end what a count counts ("5 nodes across 3 AZs", "8 boxes now"). */
const NOT_COUNTED = /^(?:during|while|when|where|which|that|who|like|every|across|along|with|from|by|into|over|under|per|each|about|around|through|thru|now|last|this|next|since|so|and|or|but|plus|total|left|more|less|than|before|after|until|till|btw|w|is|are|was|were|'s)$/i;

/** What a count counts: the word after it and the last of up to four words that name the thing ("6 barn owl nest boxes": barn, box). */
function countedWords(after: string): Set<string> {
  const words: string[] = [];
  for (const w of (/^\s*([\p{L}' ]*)/u.exec(after)?.[1] ?? '').split(/\s+/).filter(Boolean).slice(0, 4)) {
    if (STOPWORDS.has(w.toLowerCase()) || NOT_COUNTED.test(w)) break;
    words.push(porterStem(w.toLowerCase()));
  }
  return new Set([words[0], words.at(-1)].filter((w): w is string => w !== undefined));
}

/** What a value that is no count counts: nothing. */
const NONE: ReadonlySet<string> = new Set();

function valuesIn(text: string): ValueInText[] {
  const out: ValueInText[] = [];
  for (const m of text.matchAll(VALUE)) {
    // A value in brackets is said of the words before them: "Nora (9)".
    const before = (text.slice(0, m.index).replace(/\(\s*$/, '').split(/[,.;:!?()—–]/).at(-1) ?? '').match(/[\p{L}\d'-]+/gu) ?? [];
    // And what it is for, after it: "$95/hour for labor".
    const after = /^\S*\s+(?:for|of|per)\s+(?:the\s+|a\s+)?([\p{L}'-]+)/u.exec(text.slice((m.index ?? 0) + m[0].length))?.[1];
    const words = [...before.slice(-4), ...(after ? [after] : [])];
    // Whose it is is the word: "aiko's 10 now" is said of Aiko.
    const said = new Set(words.map((w) => w.toLowerCase().replace(/['’]s$/, '')).filter((w) => !STOPWORDS.has(w) && !/\d/.test(w)).map(porterStem));
    if (m[1]) out.push({ kind: 'money', value: m[1].replace(/[\s$£€,]/g, ''), said, counts: NONE });
    else if (m[2]) out.push({ kind: 'time', value: m[2].toLowerCase().replace(/\s|:00/g, ''), said, counts: NONE });
    else if (m[3]) out.push({ kind: 'day', value: m[3].toLowerCase().slice(0, 3), said, counts: NONE });
    else if (m[7]) out.push({ kind: 'often', value: howOften(m[7]), said, counts: NONE });
    else if (m[8]) out.push({ kind: 'month', value: m[8].toLowerCase().slice(0, 3), said, counts: NONE });
    else if (m[4]) {
      const n = m[4].toLowerCase().replace(/,/g, '');
      const unit = (m[5] ?? m[6] ?? '').toLowerCase();
      // A following word that is not a stopword is what the number counts ("6 hives"); "26 last sprint" has none.
      const counted = unit && !(m[6] && STOPWORDS.has(unit)) && !/^(?:last|this|next|since|now|and|or|to|so|btw)$/.test(unit) ? porterStem(unit) : '';
      // A year or an address is not a count or a version: "NeurIPS 2025" gives no old value for "iOS 16".
      // "92k" with nothing counted after it is money ("Budget's 92k now" against "$85k"); "92k miles" counts miles.
      const next = /^\s+([\p{L}']+)/u.exec(text.slice((m.index ?? 0) + m[0].length))?.[1]?.toLowerCase();
      const thousands = m[5]?.toLowerCase() === 'k' && (next === undefined || STOPWORDS.has(next) || /^(?:now|after|since|btw|total)$/.test(next));
      const kind = thousands ? 'money' : text[(m.index ?? 0) + m[0].length] === '%' ? 'percent' : m[5] && /^(?:st|nd|rd|th)$/i.test(m[5]) ? 'ordinal' : /^(?:19|20)\d\d$/.test(n) && !counted ? 'year' : /^\d+(?:\.\d+){2,}$/.test(n) ? 'address' : `n:${counted}`;
      // What a count counts past its next word, only when that word stands apart: "10-acre lease" counts acres, "64gb ram" gigabytes.
      out.push({ kind, value: NUMBER_WORDS[n] ?? n, said, counts: counted && m[6] ? countedWords(text.slice((m.index ?? 0) + m[4].length)) : new Set([counted]) });
    }
  }
  return out;
}

/** The values a text states. */
export function statedValues(text: string): StatedValue[] {
  return valuesIn(text).map(({ kind, value }) => ({ kind, value }));
}

/** What a count of `a` counts, when `b` counts it too ("8 boxes" and "6 barn owl nest boxes": box); null if either is no count of a thing. */
function countedByBoth(a: ValueInText, b: ValueInText): string | null {
  if (a.kind.length <= 2 || b.kind.length <= 2 || !a.kind.startsWith('n:') || !b.kind.startsWith('n:')) return null;
  const [x, y] = [a.kind.slice(2), b.kind.slice(2)];
  return x === y || b.counts.has(x) ? x : a.counts.has(y) ? y : null;
}

/** Two values are of one kind: the same kind, or counts of one thing. */
function sameKind(a: ValueInText, b: ValueInText): boolean {
  return a.kind === b.kind || countedByBoth(a, b) !== null;
}

/** `vs` holds the value `v`: the same value, of one kind. */
function has(vs: readonly ValueInText[], v: ValueInText): boolean {
  return vs.some((x) => x.value === v.value && sameKind(x, v));
}

/**
 * A statement gives a new value of a kind the fact holds: the fact has a value of that kind the statement
 * does not say, and the statement a value of that kind the fact does not hold. `kinds`: only the fact's values of these kinds.
 */
export function givesNewValue(factText: string, statement: string, kinds: (kind: string) => boolean = () => true): boolean {
  const held = valuesIn(factText).filter((v) => kinds(v.kind));
  const said = valuesIn(statement);
  return held.some((o) => !has(said, o) && said.some((n) => sameKind(o, n) && !has(held, n)));
}

/**
 * A statement says every value of a kind the fact holds and one more of that kind ("closed mondays and tuesdays
 * now" against "closed on Mondays"): the fact's values are no longer the whole of it.
 */
export function addsValue(factText: string, statement: string, kinds: (kind: string) => boolean = () => true): boolean {
  const held = valuesIn(factText).filter((v) => kinds(v.kind));
  const said = valuesIn(statement);
  return held.some((o) => held.filter((h) => sameKind(h, o)).every((h) => has(said, h)) && said.some((n) => sameKind(o, n) && !has(held, n)));
}

/** Units of measure (stemmed): a weight or a length is no thing counted, so "80 lbs" says nothing of a "150 lb pole". */
const MEASURE = new Set(['lb', 'kg', 'g', 'mg', 'mcg', 'oz', 'ml', 'l', 'km', 'mi', 'mile', 'ft', 'feet', 'foot', 'inch', 'in', 'cm', 'mm', 'm', 'gb', 'mb', 'tb', 'kb', 'hour', 'hr', 'min', 'minut', 'sec', 'second', 'dai', 'week', 'month', 'year', 'yr', 'mph', 'kph', 'degre', 'f', 'c', 'k', 'x', 'gallon', 'gal', 'litr', 'liter', 'pound', 'ounc', 'ton', 'sq', 'w', 'kw', 'kwh', 'v', 'mah']);

/** A count of the same thing changed ("up to 17 alpacas" against "has 14 alpacas"): the stem it counts, or null (not for a measure). */
export function newCountOf(factText: string, statement: string): string | null {
  const held = valuesIn(factText);
  for (const n of valuesIn(statement)) {
    const thing = held.map((o) => (o.value !== n.value ? countedByBoth(n, o) : null)).find((t) => t !== null);
    if (thing && !MEASURE.has(thing) && !has(held, n)) return thing;
  }
  return null;
}

/**
 * The words a statement gives a new value of: stems said just before a value of the fact and just before a
 * new value of the same kind in the statement ("minsdk" for "we bumped minSdk to 26" against "App minSdk is
 * 24", "lisinopril" for "bumped the lisinopril to 20mg" against "Mom takes lisinopril 10mg every morning").
 */
export function newValueOf(factText: string, statement: string): Set<string> {
  const held = valuesIn(factText);
  const said = valuesIn(statement);
  const out = new Set<string>();
  for (const o of held) {
    if (said.some((n) => n.kind === o.kind && n.value === o.value)) continue;
    for (const n of said) if (n.kind === o.kind && !held.some((x) => x.kind === n.kind && x.value === n.value)) for (const w of n.said) if (o.said.has(w)) out.add(w);
  }
  return out;
}

/**
 * How far apart the counts of one thing a fact and a statement give are, in orders of magnitude (Infinity
 * when they give none): "up to 8 boxes" is nearer "6 barn owl nest boxes" than "480 boxes" on a mail route.
 */
export function countGap(factText: string, statement: string): number {
  const held = valuesIn(factText);
  let gap = Infinity;
  for (const n of valuesIn(statement))
    for (const o of held) if (o.value !== n.value && countedByBoth(n, o) !== null) gap = Math.min(gap, Math.abs(Math.log10((Number(n.value) || 1) / (Number(o.value) || 1))));
  return gap;
}
