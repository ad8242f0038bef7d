/**
 * Text helpers shared by the store's query builder and the rules: a tokenizer that splits like SQLite's
 * unicode61 tokenizer (letters and digits are token characters, everything else separates, case folded,
 * diacritics removed), and the parser for user search queries.
 */

const TOKEN = /[\p{L}\p{N}]+/gu;

export function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export function tokenize(s: string): string[] {
  return fold(s).match(TOKEN) ?? [];
}

/**
 * English function words. A natural-language query ("how can I sign into our DB machine") would otherwise
 * match every fact containing "I" or "our"; such words are dropped from a query that has other words.
 * Quoted phrases keep them.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to us was we were what when ' +
    'where which who why will with would you your').split(' '),
);

/** A lookup is at most this many words. */
const LOOKUP_MAX_WORDS = 8;

/**
 * Whether a query is a lookup of an exact thing rather than a question: no function words, no question
 * mark, at most 8 words ("hx-ch-1", "PostgresWALArchiveFailing", "port 8096", "Redpoint", "Crumb & Co
 * Kirkgate interview"). Recall ranks a lookup by its words alone (src/memory/recall.ts): on eval/recall's
 * dev split every such query was a keyword query, and the vector leg only cost them rank-1 hits.
 */
export function isLookupQuery(input: string): boolean {
  const words = tokenize(input);
  return words.length > 0 && words.length <= LOOKUP_MAX_WORDS && !input.includes('?') && !words.some((w) => STOPWORDS.has(w));
}

/** One piece of a parsed search query. */
export type QueryPart =
  | { readonly kind: 'term'; readonly term: string }
  | { readonly kind: 'prefix'; readonly term: string }
  | { readonly kind: 'phrase'; readonly terms: readonly string[] };

/** Hard bound on the parts one query may carry; the rest are ignored (documented). */
export const MAX_QUERY_PARTS = 16;
/** A prefix shorter than this is searched as a whole word (a 1-letter prefix matches nearly everything). */
export const MIN_PREFIX_LENGTH = 2;

/**
 * Parse a user query. Supported: words, `"quoted phrases"`, and `prefix*`. Everything else is plain text:
 * FTS5 operators typed by a user (AND, OR, NEAR, column filters, parentheses) are treated as words, so no
 * input can produce an FTS5 syntax error or an unbounded expression.
 */
export function parseQuery(input: string): QueryPart[] {
  const parts: QueryPart[] = [];
  const seen = new Set<string>();
  const push = (p: QueryPart): void => {
    const key = p.kind === 'phrase' ? `p:${p.terms.join(' ')}` : `${p.kind}:${p.term}`;
    if (seen.has(key) || parts.length >= MAX_QUERY_PARTS * 4) return;
    seen.add(key);
    parts.push(p);
  };
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    if (m[1] !== undefined) {
      const terms = tokenize(m[1]);
      if (terms.length === 1) push({ kind: 'term', term: terms[0] as string });
      else if (terms.length > 1) push({ kind: 'phrase', terms });
      continue;
    }
    const word = m[2] as string;
    const terms = tokenize(word);
    if (terms.length === 0) continue;
    const isPrefix = word.endsWith('*') && terms.length === 1 && (terms[0] as string).length >= MIN_PREFIX_LENGTH;
    if (isPrefix) push({ kind: 'prefix', term: terms[0] as string });
    else if (terms.length === 1) push({ kind: 'term', term: terms[0] as string });
    else push({ kind: 'phrase', terms }); // e.g. "user@host", "v1.2": adjacent tokens
  }
  const content = parts.filter((p) => p.kind !== 'term' || !STOPWORDS.has(p.term));
  return (content.length > 0 ? content : parts).slice(0, MAX_QUERY_PARTS);
}

/** Text on one line (whitespace runs become one space), cut to `max` characters ending in `ellipsis`. */
export function oneLine(text: string, max: number, ellipsis = '...'): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - ellipsis.length)}${ellipsis}` : flat;
}
