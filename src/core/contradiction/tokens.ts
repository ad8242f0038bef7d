/**
 * Statement tokens for the contradiction rule: a fact's text split into words (folded and stemmed, so
 * "approval"/"approvals" and "uses"/"use" align) and typed values kept whole ("10.0.4.12:6379",
 * "db-1.internal", "/var/log/app.log", "2025-03-01", "March 14", "$4,200", "web-1"), so a changed value is
 * one token that differs, not a run of digits and dots.
 */
import { porterStem } from '../porter.js';
import { STOPWORDS, fold, tokenize } from '../text.js';

/** What a value token is; `word` is everything else. */
export const VALUE_KINDS = ['email', 'url', 'ip', 'host', 'path', 'file', 'date', 'day', 'time', 'amount', 'version', 'number', 'id', 'word'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** One token of a statement. */
export interface Token {
  /** The comparable form: folded, stemmed for words, canonical for values. */
  readonly norm: string;
  /** As written (for reasons). */
  readonly raw: string;
  /** Folded, not stemmed (for word lists). */
  readonly low: string;
  readonly kind: ValueKind;
  /** A function word ("the", "is"): left out of the alignment. */
  readonly stop: boolean;
  /** Written with a capital letter inside the sentence (a name). */
  readonly capital: boolean;
}

const MONTHS = 'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(' ');
const DAYS = /^(mon|tues|wednes|thurs|fri|satur|sun)days?$/;
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11', twelve: '12',
};
const TLDS = new Set('com net org io dev app co de uk eu fr nl us internal local lan corp cloud ai sh me info biz'.split(' '));

/** Words kept in the alignment although STOPWORDS drops them from search queries: they carry meaning here. */
const KEEP = new Set(['no', 'not', 'from', 'to']);

function classify(chunk: string): ValueKind | null {
  if (/^[^@\s/]+@[^@\s/]+\.[a-z]{2,}$/i.test(chunk)) return 'email';
  if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(chunk)) return 'url';
  if (/^\d{1,3}(\.\d{1,3}){3}(:\d+)?$/.test(chunk)) return 'ip';
  if (/^\d{4}-\d{2}-\d{2}([t ][\d:]+z?)?$/i.test(chunk) || /^\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(chunk)) return 'date';
  if (/^([a-z]:\\|~?\.{0,2}\/)\S*$/i.test(chunk) || /^[\w.-]+\/[\w./-]+$/.test(chunk)) return 'path';
  if (/^\d{1,2}(:\d{2}){1,2}(am|pm)?$/i.test(chunk) || /^\d{1,2}(am|pm)$/i.test(chunk)) return 'time';
  if (/^[$€£¥]\d[\d,]*(\.\d+)?[kmb]?$/i.test(chunk) || /^\d[\d,]*(\.\d+)?[kmb]?[$€£¥]$/i.test(chunk)) return 'amount';
  const host = /^([a-z0-9-]+\.)+([a-z]{2,})(:\d+)?$/i.exec(chunk);
  if (host) return TLDS.has((host[2] as string).toLowerCase()) ? 'host' : 'file';
  if (/^v\d+(\.\d+)*$/i.test(chunk) || /^\d+(\.\d+){2,}$/.test(chunk)) return 'version';
  if (/^\d[\d,]*(\.\d+)?%?$/.test(chunk)) return 'number';
  if (/^[a-z][a-z0-9]*([-_][a-z0-9]+)*[-_]\d+[a-z]?$/i.test(chunk) || /^[a-z]+\d+$/i.test(chunk)) return 'id';
  return null;
}

function canonical(chunk: string, kind: ValueKind): string {
  const f = fold(chunk);
  if (kind === 'number') return f.replace(/,/g, '');
  if (kind === 'amount') return f.replace(/,/g, '');
  if (kind === 'url') return f.replace(/\/$/, '');
  return f;
}

/**
 * Split a fact's text into tokens. Values are classified on whitespace-separated chunks (trailing
 * punctuation removed); other chunks are tokenized like the search index and stemmed. "March 14" becomes
 * one date token; a number right after "port" is a port; number words are numbers.
 */
export function statementTokens(text: string): Token[] {
  const out: Token[] = [];
  const push = (t: Token): void => {
    const prev = out[out.length - 1];
    if (prev && prev.kind === 'word' && MONTHS.includes(prev.low) && /^\d{1,2}(st|nd|rd|th)?$/.test(t.norm)) {
      out[out.length - 1] = { norm: `${prev.low} ${parseInt(t.norm, 10)}`, raw: `${prev.raw} ${t.raw}`, low: `${prev.low} ${t.low}`, kind: 'date', stop: false, capital: false };
    } else out.push(t);
  };
  const chunks = text.replace(/[’‘]/g, "'").split(/\s+/).filter(Boolean);
  chunks.forEach((rawChunk, i) => {
    const chunk = rawChunk.replace(/^[("'`[]+|[)"'`\],;:!?.]+$/g, '');
    if (!chunk) return;
    const capital = i > 0 && /^\p{Lu}/u.test(chunk);
    const kind = classify(chunk);
    if (kind) {
      push({ norm: canonical(chunk, kind), raw: chunk, low: fold(chunk), kind, stop: false, capital: false });
      return;
    }
    const words = tokenize(chunk.replace(/'/g, ''));
    // as written, for reasons ("Acme vs Globex"); folding can change the split of rare characters
    const written = chunk.replace(/'/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
    words.forEach((w, k) => {
      const raw = written.length === words.length ? (written[k] as string) : w;
      const number = NUMBER_WORDS[w] ?? (/^\d{1,2}(st|nd|rd|th)$/.test(w) ? w : undefined);
      if (number) push({ norm: number, raw, low: w, kind: 'number', stop: false, capital: false });
      else if (DAYS.test(w)) push({ norm: w.replace(/s$/, ''), raw, low: w, kind: 'day', stop: false, capital: false });
      else push({ norm: porterStem(w), raw, low: w, kind: 'word', stop: STOPWORDS.has(w) && !KEEP.has(w), capital });
    });
  });
  return out;
}
