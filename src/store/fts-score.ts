/**
 * BM25 computed in JS exactly as FTS5's bm25() does, for a bounded set of candidate rows:
 *
 *   score = sum over query parts p of idf(p) * f(p) * (k1 + 1) / (f(p) + k1 * (1 - b + b * D / avgdl))
 *
 * where f(p) is the count of p's instances in the row, each weighted by its column's weight, D the row's
 * token count over all columns, idf(p) = ln((N - df + 0.5) / (df + 0.5)), floored at 1e-6 (as FTS5 does).
 * Rows are tokenized like src/core/text.ts `tokenize` (unicode61 rules) and stemmed by src/core/porter.ts
 * (which agrees with FTS5's porter tokenizer), so f and D match what FTS5 indexed. Known gap: `tokenize`
 * folds with NFKD, unicode61 does not decompose compatibility characters (ligatures such as U+FB01,
 * full-width letters) and treats a few combining letters as separators; rows with those can get a
 * slightly different f or D.
 */
import { porterStem } from '../core/porter.js';
import { tokenize, type QueryPart } from '../core/text.js';

export const K1 = 1.2;
export const B = 0.75;
/** Column weights of bm25(text, entity, tags): entity and tags are short and deliberate. */
export const COLUMN_WEIGHTS: readonly number[] = [1.0, 2.0, 1.5];
/** A row's indexed column values in FTS order (null entity as ''), possibly followed by other fields. */
export type IndexedColumns = readonly [text: string, entity: string, tags: string, ...rest: unknown[]];

const MAX_STEM_CACHE = 100_000;
const stemCache = new Map<string, string>();

export function stem(token: string): string {
  let s = stemCache.get(token);
  if (s === undefined) {
    if (stemCache.size >= MAX_STEM_CACHE) stemCache.clear();
    s = porterStem(token);
    stemCache.set(token, s);
  }
  return s;
}

/** unicode61's token characters within ASCII: letters and digits. */
const ASCII_TOKEN_CHAR = new Uint8Array(128).map((_, c) => (/[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0));

/** Tokens of one column value as FTS5 indexes them (folded, stemmed). */
export function indexedTokens(value: string): string[] {
  return tokenize(value).map(stem);
}

/**
 * The first characters a token needs to possibly match a query part. Porter stemming never changes a
 * token's first character, so any other token is only counted (for the row length), never stemmed.
 */
export class FirstChars {
  private readonly ascii = new Uint8Array(128);
  private readonly other = new Set<string>();
  /** The characters, sorted, as one string (a scan's key in ScanCache). */
  readonly chars: string;

  constructor(chars: Iterable<string>) {
    const all = new Set(chars);
    for (const ch of all) {
      const c = ch.codePointAt(0) ?? 0;
      if (c < 128) this.ascii[c] = 1;
      else this.other.add(ch);
    }
    this.chars = [...all].sort().join('');
  }

  /** The first characters of the matchers' stems. */
  static of(matchers: readonly Matcher[]): FirstChars {
    return new FirstChars(matchers.flatMap((m) => m.stems.flatMap((s) => (s.length > 0 ? [String.fromCodePoint(s.codePointAt(0) ?? 0)] : []))));
  }

  hasAscii(lowerCode: number): boolean {
    return this.ascii[lowerCode] === 1;
  }

  has(token: string): boolean {
    const c = token.codePointAt(0) ?? 0;
    return c < 128 ? this.ascii[c] === 1 : this.other.has(String.fromCodePoint(c));
  }

  /** True when a scan for `chars` stemmed every token these characters need. */
  within(chars: string): boolean {
    for (const ch of this.chars) if (!chars.includes(ch)) return false;
    return true;
  }
}

/**
 * Tokenize `value` into `out` (cleared first): the stem of each token that may match, null for the
 * others. ASCII text is scanned in place; anything else goes through src/core/text.ts `tokenize`.
 */
export function scanTokens(value: string, first: FirstChars, out: (string | null)[]): void {
  out.length = 0;
  const len = value.length;
  let i = 0;
  while (i < len) {
    const c = value.charCodeAt(i);
    if (c >= 128) return scanUnicode(value, first, out);
    if (ASCII_TOKEN_CHAR[c] !== 1) {
      i++;
      continue;
    }
    const start = i;
    while (i < len && ASCII_TOKEN_CHAR[value.charCodeAt(i)] === 1) i++;
    // c | 0x20 lower-cases a letter; digits already have that bit.
    out.push(first.hasAscii(c | 0x20) ? stem(value.slice(start, i).toLowerCase()) : null);
  }
}

function scanUnicode(value: string, first: FirstChars, out: (string | null)[]): void {
  out.length = 0;
  for (const t of tokenize(value)) out.push(first.has(t) ? stem(t) : null);
}

/** Rows whose scans ScanCache keeps (about 650 bytes each with the strings they hold: ~26 MB when full); the oldest entry goes first when full. */
export const MAX_SCANNED_ROWS = 40_000;

/** A row's columns as scanned for some first characters: each column's tokens, stemmed where they may match. */
interface Scan {
  readonly columns: readonly [string, string, string];
  readonly chars: string;
  readonly tokens: readonly (readonly (string | null)[])[];
}

/**
 * Candidate rows' scans by seq. Common words bring the same newest rows to query after query, and scanning
 * them (tokenize, stem) is most of the ranking's cost. A scan is reused while the row's columns are the
 * same strings and it stemmed every first character the query needs; otherwise the row is scanned again
 * for both sets of characters, so a row costs no more than an uncached scan.
 */
export class ScanCache {
  private readonly rows = new Map<number, Scan>();

  constructor(private readonly max = MAX_SCANNED_ROWS) {}

  get size(): number {
    return this.rows.size;
  }

  tokens(seq: number, columns: IndexedColumns, first: FirstChars): readonly (readonly (string | null)[])[] {
    const [text, entity, tags] = columns;
    const old = this.rows.get(seq);
    const same = old !== undefined && old.columns[0] === text && old.columns[1] === entity && old.columns[2] === tags;
    if (same && first.within(old.chars)) return old.tokens;
    const chars = same ? new FirstChars([...old.chars, ...first.chars]) : first;
    const tokens = [text, entity, tags].map((value) => {
      const out: (string | null)[] = [];
      scanTokens(value, chars, out);
      return out;
    });
    if (!old && this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value as number);
    this.rows.set(seq, { columns: [text, entity, tags], chars: chars.chars, tokens });
    return tokens;
  }

  clear(): void {
    this.rows.clear();
  }
}

/** A query part as indexed stems, with its idf. */
export interface Matcher {
  readonly kind: QueryPart['kind'];
  /** term: [stem]; prefix: [stemmed prefix]; phrase: the stems in order. */
  readonly stems: readonly string[];
  readonly idf: number;
}

/** The stems FTS5 looks up for a part (it tokenizes and stems query text too, prefixes included). */
export function partStems(p: QueryPart): string[] {
  if (p.kind === 'phrase') return p.terms.map(stem);
  return [stem(p.term)];
}

export function idf(rows: number, df: number): number {
  const v = Math.log((rows - df + 0.5) / (df + 0.5));
  return v > 0 ? v : 1e-6;
}

function countIn(tokens: readonly (string | null)[], m: Matcher): number {
  const first = m.stems[0] as string;
  let n = 0;
  if (m.kind === 'prefix') {
    for (const t of tokens) if (t !== null && t.startsWith(first)) n++;
    return n;
  }
  const len = m.stems.length;
  for (let i = 0; i + len <= tokens.length; i++) {
    if (tokens[i] !== first) continue;
    let j = 1;
    while (j < len && tokens[i + j] === m.stems[j]) j++;
    if (j === len) n++;
  }
  return n;
}

/** Per-query state of the ranking: the matchers, their first characters and the scans it may reuse. */
export class RowScorer {
  private readonly first: FirstChars;
  private readonly freqs: number[];

  constructor(
    private readonly matchers: readonly Matcher[],
    private readonly avgLen: number,
    private readonly scans: ScanCache,
  ) {
    this.first = FirstChars.of(matchers);
    this.freqs = new Array<number>(matchers.length).fill(0);
  }

  /** BM25 of one row given its seq and column values (text, entity, tags; anything after them is ignored). */
  score(seq: number, columns: IndexedColumns): number {
    const { matchers, freqs } = this;
    freqs.fill(0);
    let docLen = 0;
    const scanned = this.scans.tokens(seq, columns, this.first);
    for (let c = 0; c < COLUMN_WEIGHTS.length; c++) {
      const tokens = scanned[c] as readonly (string | null)[];
      docLen += tokens.length;
      if (tokens.length === 0) continue;
      const w = COLUMN_WEIGHTS[c] ?? 1;
      for (let p = 0; p < matchers.length; p++) {
        const n = countIn(tokens, matchers[p] as Matcher);
        if (n > 0) freqs[p] = (freqs[p] as number) + n * w;
      }
    }
    const norm = K1 * (1 - B + (B * docLen) / (this.avgLen > 0 ? this.avgLen : 1));
    let score = 0;
    for (let p = 0; p < matchers.length; p++) {
      const f = freqs[p] as number;
      if (f > 0) score += ((matchers[p] as Matcher).idf * f * (K1 + 1)) / (f + norm);
    }
    return score;
  }
}
