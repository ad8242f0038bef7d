/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), written to agree with
 * the `porter` tokenizer of SQLite FTS5, so that JS-side scoring counts exactly the terms FTS5 indexed.
 *
 * FTS5 specifics reproduced here (checked against the real tokenizer by test/search.test.ts):
 * - input is a token already folded by unicode61 (lower case, diacritics removed);
 * - tokens shorter than 3 or longer than 64 UTF-8 bytes are returned unchanged;
 * - the stemmer works on bytes: every byte of a non-ASCII character counts as a consonant;
 * - the later rules of Porter's reference implementation: BLI -> BLE, LOGI -> LOG;
 * - IES -> I, SSES -> SS and EED -> EE only when something precedes the suffix (`ies` -> `ie`,
 *   `sses` -> `sse`, `eed` -> `e` through the ED rule);
 * - in step 1b the doubled-consonant test treats `y` as a consonant.
 */

const MIN_BYTES = 3;
const MAX_BYTES = 64;

function isVowelChar(c: string): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';
}

/** Porter's consonant: not a vowel; `y` is a consonant at the start or after a vowel. */
function isCons(w: string, i: number): boolean {
  const c = w[i] as string;
  if (isVowelChar(c)) return false;
  if (c !== 'y') return true;
  return i === 0 || !isCons(w, i - 1);
}

/** Porter's m: the number of VC sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isCons(w, i)) i++;
  while (i < end) {
    while (i < end && !isCons(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && isCons(w, i)) i++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isCons(w, i)) return true;
  return false;
}

/** *o: the stem ends consonant-vowel-consonant and the last consonant is not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  const last = w[end - 1];
  if (last === 'w' || last === 'x' || last === 'y') return false;
  return isCons(w, end - 3) && !isCons(w, end - 2) && isCons(w, end - 1);
}

/** A suffix rule: [suffix, replacement, extra condition on the stem (beyond the step's own)]. */
type Rule = readonly [string, string, ((w: string, stemEnd: number) => boolean)?];

/**
 * Apply the first rule whose suffix matches (rules are ordered longest first where they overlap). When the
 * matching rule's condition fails the word is left alone: Porter never falls back to a shorter suffix.
 */
function applyFirst(w: string, rules: readonly Rule[], cond: (w: string, stemEnd: number) => boolean): string {
  for (const [suffix, replacement, extra] of rules) {
    if (w.length <= suffix.length || !w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (extra && !extra(w, stemEnd)) continue;
    return cond(w, stemEnd) ? w.slice(0, stemEnd) + replacement : w;
  }
  return w;
}

function step1a(w: string): string {
  if (!w.endsWith('s')) return w;
  if (w.endsWith('sses') && w.length > 4) return w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 3) return w.slice(0, -2);
  if (w.endsWith('ss')) return w;
  return w.slice(0, -1);
}

function step1bFix(w: string): string {
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  const last = w[w.length - 1] as string;
  const doubled = w.length >= 2 && last === w[w.length - 2] && !isVowelChar(last) && !'lsz'.includes(last);
  if (doubled) return w.slice(0, -1);
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return `${w}e`;
  return w;
}

function step1b(w: string): string {
  if (w.endsWith('eed') && w.length > 3) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  for (const suffix of ['ed', 'ing']) {
    if (w.length > suffix.length && w.endsWith(suffix) && hasVowel(w, w.length - suffix.length)) {
      return step1bFix(w.slice(0, -suffix.length));
    }
  }
  return w;
}

function step1c(w: string): string {
  return w.endsWith('y') && hasVowel(w, w.length - 1) ? `${w.slice(0, -1)}i` : w;
}

const STEP2: readonly Rule[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];

const STEP3: readonly Rule[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

const endsST = (w: string, stemEnd: number): boolean => w[stemEnd - 1] === 's' || w[stemEnd - 1] === 't';

const STEP4: readonly Rule[] = [
  ['al', ''], ['ance', ''], ['ence', ''], ['er', ''], ['ic', ''], ['able', ''], ['ible', ''], ['ant', ''],
  ['ement', ''], ['ment', ''], ['ent', ''], ['ion', '', endsST], ['ou', ''], ['ism', ''], ['ate', ''],
  ['iti', ''], ['ous', ''], ['ive', ''], ['ize', ''],
];

const mGt0 = (w: string, end: number): boolean => measure(w, end) > 0;
const mGt1 = (w: string, end: number): boolean => measure(w, end) > 1;

function step5(w: string): string {
  let out = w;
  if (out.endsWith('e')) {
    const m = measure(out, out.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(out, out.length - 1))) out = out.slice(0, -1);
  }
  if (out.endsWith('ll') && measure(out, out.length - 1) > 1) out = out.slice(0, -1);
  return out;
}

/** Stem a word whose every char stands for one byte (ASCII, or UTF-8 bytes as chars >= 0x80). */
function stemBytes(w: string): string {
  let s = step1c(step1b(step1a(w)));
  s = applyFirst(s, STEP2, mGt0);
  s = applyFirst(s, STEP3, mGt0);
  s = applyFirst(s, STEP4, mGt1);
  return step5(s);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The FTS5 porter stem of one folded token (see the module comment). */
export function porterStem(token: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(token)) {
    return token.length < MIN_BYTES || token.length > MAX_BYTES ? token : stemBytes(token);
  }
  const bytes = encoder.encode(token);
  if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) return token;
  const asChars = String.fromCharCode(...bytes);
  const stemmed = stemBytes(asChars);
  if (stemmed === asChars) return token;
  return decoder.decode(Uint8Array.from(stemmed, (c) => c.charCodeAt(0)));
}
