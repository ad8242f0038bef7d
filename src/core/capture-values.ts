/**
 * The values a fact states, by kind, so that memory can tell a statement of change that gives a new value
 * for what a current fact holds ("we bumped minSdk to 26" against "App minSdk is 24", "rehearsals moved to
 * Thursdays at 7:30" against "Choir rehearses Wednesday nights at 7", "I'm on an 8-shaft Louet now"
 * against "User weaves on a 4-shaft Schacht") even when it shares few words with it.
 */
import { porterStem } from './porter.js';
import { STOPWORDS } from './text.js';

/** A value and its kind: `money`, `time`, `day`, `year`, `address` (192.168.1.10), `percent`, or `n:<unit>` for a number (`n:` when it has no unit). */
export interface StatedValue {
  readonly kind: string;
  readonly value: string;
}

/** Counts said in words ("down to two hives"); not "one", which is mostly "the new one". */
const NUMBER_WORDS: Readonly<Record<string, string>> = { two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11', twelve: '12' };
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|weds|thurs|mon|tue|thu|fri';

/**
 * Money ("$1,400"), a time of day ("7pm", "7:30", "noon"), a weekday ("Thursdays", "thurs") and a number
 * with the unit it counts, attached, hyphened or the next word ("10mg", "4-shaft", "14U", "6 hives", "two
 * hives"; a version is a number without one: "Django 4.2").
 */
const VALUE = new RegExp(
  String.raw`(\$\s?\d[\d,]*(?:\.\d+)?)|\b(\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|noon|midnight)\b|\b(${DAYS})s?\b|(?<![\w.])(\d+(?:\.\d+)*(?![\d.])|(?:${Object.keys(NUMBER_WORDS).join('|')})\b)(?:-?([a-z]+)\b|\s([a-z]+)\b)?`,
  'gi',
);

/** A value as it is stated in a text: its kind and value, the content words of up to four words before it in its clause, and what it is for ("$95/hour for labor"). */
interface ValueInText extends StatedValue {
  readonly said: ReadonlySet<string>;
}

function valuesIn(text: string): ValueInText[] {
  const out: ValueInText[] = [];
  for (const m of text.matchAll(VALUE)) {
    const before = (text.slice(0, m.index).split(/[,.;:!?()—–]/).at(-1) ?? '').match(/[\p{L}\d'-]+/gu) ?? [];
    // And what it is for, after it: "$95/hour for labor".
    const after = /^\S*\s+(?:for|of|per)\s+(?:the\s+|a\s+)?([\p{L}'-]+)/u.exec(text.slice((m.index ?? 0) + m[0].length))?.[1];
    const words = [...before.slice(-4), ...(after ? [after] : [])];
    const said = new Set(words.map((w) => w.toLowerCase()).filter((w) => !STOPWORDS.has(w) && !/\d/.test(w)).map(porterStem));
    if (m[1]) out.push({ kind: 'money', value: m[1].replace(/[\s$,]/g, ''), said });
    else if (m[2]) out.push({ kind: 'time', value: m[2].toLowerCase().replace(/\s|:00/g, ''), said });
    else if (m[3]) out.push({ kind: 'day', value: m[3].toLowerCase().slice(0, 3), said });
    else if (m[4]) {
      const n = m[4].toLowerCase();
      const unit = (m[5] ?? m[6] ?? '').toLowerCase();
      // A following word that is not a stopword is what the number counts ("6 hives"); "26 last sprint" has none.
      const counted = unit && !(m[6] && STOPWORDS.has(unit)) && !/^(?:last|this|next|since|now|and|or|to|so|btw)$/.test(unit) ? porterStem(unit) : '';
      // A year or an address is not a count or a version: "NeurIPS 2025" gives no old value for "iOS 16".
      const kind = text[(m.index ?? 0) + m[0].length] === '%' ? 'percent' : /^(?:19|20)\d\d$/.test(n) && !counted ? 'year' : /^\d+(?:\.\d+){2,}$/.test(n) ? 'address' : `n:${counted}`;
      out.push({ kind, value: NUMBER_WORDS[n] ?? n, said });
    }
  }
  return out;
}

/** The values a text states. */
export function statedValues(text: string): StatedValue[] {
  return valuesIn(text).map(({ kind, value }) => ({ kind, value }));
}

/**
 * A statement gives a new value of a kind the fact holds: the fact has a value of that kind the statement
 * does not say, and the statement a value of that kind the fact does not hold.
 */
export function givesNewValue(factText: string, statement: string): boolean {
  const held = statedValues(factText);
  const said = statedValues(statement);
  const has = (vs: readonly StatedValue[], v: StatedValue) => vs.some((x) => x.value === v.value && x.kind === v.kind);
  return held.some((o) => !has(said, o) && said.some((n) => o.kind === n.kind && !has(held, n)));
}

/** A count of the same thing changed ("up to 17 alpacas" against "has 14 alpacas"): the stem it counts, or null. */
export function newCountOf(factText: string, statement: string): string | null {
  const held = statedValues(factText).filter((v) => v.kind.length > 2);
  for (const n of statedValues(statement)) if (n.kind.length > 2 && held.some((o) => o.kind === n.kind && o.value !== n.value) && !held.some((o) => o.kind === n.kind && o.value === n.value)) return n.kind.slice(2);
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
