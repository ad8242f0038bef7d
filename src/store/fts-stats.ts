/**
 * Corpus statistics for JS-side BM25 over the `facts_fts` index, read the way FTS5's own bm25() sees them:
 *
 * - N and the average row length come from FTS5's 'averages' record (facts_fts_data id 1: varint row
 *   count, then one varint token total per column). One primary-key read, done on every query: exact.
 * - Document frequencies come from the fts5vocab table `facts_fts_vocab` ('row': `doc` = rows holding the
 *   term). A lookup walks the term's posting list (about 1 ms for a term in half of 100k rows), so results
 *   are cached.
 * - A phrase's df is estimated from the newest PHRASE_SAMPLE matches (unfiltered, rowids only): exact
 *   when there are fewer, otherwise scaled by the share of the rowid range they cover (rowids are
 *   insertion order), and never above the df of its rarest word.
 * - A prefix is expanded through a vocab range scan (cost: the postings of every expansion). Its df is the
 *   sum of the expansions' dfs capped at N (an upper bound of FTS5's distinct count); the expansion keeps
 *   the most frequent terms so candidate queries can name them instead of a full prefix merge.
 * - Entity/tags matches of a common part (see fts-plan.ts) are kept as rowid lists with the highest seq
 *   they cover; fts-legs.ts decides when a list is still complete for a query.
 *
 * Cache policy: the df and prefix caches are dropped when N has moved by more than 1% since they were
 * filled, when older than CACHE_TTL_MS, or when they hold more than MAX_ENTRIES entries; the entity/tags
 * lists after FIELD_TTL_MS (their validity is otherwise checked per query). A stale df only shifts idf by
 * about the same 1%; a stale expansion can miss a term added since (bounded by the same rules; prefixes
 * small enough for a native prefix query do not depend on it, see fts-plan.ts).
 */
import type { Database, Statement } from 'better-sqlite3';

export const CACHE_TTL_MS = 60_000;
/** Entity/tags lists track their own validity (see fts-legs.ts); this only bounds in-place edits. */
export const FIELD_TTL_MS = 600_000;
const MAX_ENTRIES = 20_000;
/** Expansions kept per prefix, most frequent first. */
export const MAX_EXPANSION_TERMS = 32;
/** Safety bound on the terms one prefix scan visits. */
const MAX_SCANNED_TERMS = 20_000;
/** Newest matches sampled to estimate a phrase's df. */
export const PHRASE_SAMPLE = 256;

export interface CorpusTotals {
  /** Rows in the index (N). */
  readonly rows: number;
  /** Average tokens per row over all columns (FTS5's avgdl). */
  readonly avgLen: number;
}

export interface PrefixStats {
  /** Approximate number of rows holding any expansion (sum of dfs, capped at N). */
  readonly df: number;
  /** Total postings over all expansions: what a native prefix query has to merge. */
  readonly postings: number;
  /** Number of expansion terms. */
  readonly termCount: number;
  /** The most frequent expansions (indexed stems), at most MAX_EXPANSION_TERMS. */
  readonly topTerms: readonly string[];
}

/** Rowids (newest first) of the entity/tags matches of one part, complete for every seq above `upTo`. */
export interface FieldMatches {
  readonly seqs: readonly number[];
  readonly upTo: number;
}

/** Read one SQLite/FTS5 varint (big-endian, 7 bits a byte, 9th byte 8 bits). */
export function readVarint(buf: Uint8Array, pos: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[pos + i];
    if (b === undefined) return [v, pos + i];
    if ((b & 0x80) === 0) return [v * 128 + b, pos + i + 1];
    v = v * 128 + (b & 0x7f);
  }
  return [v * 256 + (buf[pos + 8] ?? 0), pos + 9];
}

/** Decode the 'averages' record: [row count, token total of each column]. */
export function decodeAverages(buf: Uint8Array): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [v, next] = readVarint(buf, pos);
    out.push(v);
    pos = next;
  }
  return out;
}

/** The smallest string greater than every string starting with `p` (for a vocab range scan). */
function rangeEnd(p: string): string {
  return `${p}\u{10ffff}`;
}

export class FtsStats {
  private readonly averages: Statement;
  private readonly termDoc: Statement;
  private readonly range: Statement;
  private readonly sample: Statement;
  private readonly seqRange: Statement;
  private readonly dfs = new Map<string, number>();
  private readonly prefixes = new Map<string, PrefixStats>();
  /** Entity/tags match lists by FTS5 expression (filled and read by search.ts). */
  readonly fields = new Map<string, FieldMatches>();
  private filledRows = -1;
  private filledAt = 0;
  private fieldsAt = 0;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.averages = db.prepare('SELECT block FROM facts_fts_data WHERE id = 1').pluck();
    this.termDoc = db.prepare('SELECT doc FROM facts_fts_vocab WHERE term = ?').pluck();
    this.range = db.prepare('SELECT term, doc FROM facts_fts_vocab WHERE term >= ? AND term < ?').raw();
    this.sample = db.prepare(`SELECT rowid FROM facts_fts WHERE facts_fts MATCH ? ORDER BY rowid DESC LIMIT ${PHRASE_SAMPLE}`).pluck();
    // Two subqueries: SQLite's min/max optimisation (one b-tree end each) does not apply to min() and max() together.
    this.seqRange = db.prepare('SELECT (SELECT min(seq) FROM facts), (SELECT max(seq) FROM facts)').raw();
  }

  /** Lowest and highest seq in facts ([0, 0] when empty). */
  seqBounds(): [min: number, max: number] {
    const [min, max] = (this.seqRange.get() as [number | null, number | null] | undefined) ?? [null, null];
    return [min ?? 0, max ?? 0];
  }

  /** N and avgdl, read fresh; also expires the caches when N has drifted (see the module comment). */
  totals(): CorpusTotals {
    const block = this.averages.get() as Uint8Array | undefined;
    const values = block ? decodeAverages(block) : [];
    const rows = values[0] ?? 0;
    const tokens = values.slice(1).reduce((a, b) => a + b, 0);
    this.expire(rows);
    return { rows, avgLen: rows > 0 ? tokens / rows : 0 };
  }

  /** Rows holding the indexed term (a stem). */
  termDf(term: string): number {
    const hit = this.dfs.get(term);
    if (hit !== undefined) return hit;
    const df = (this.termDoc.get(term) as number | undefined) ?? 0;
    this.dfs.set(term, df);
    return df;
  }

  /** Estimated df of a phrase given as an FTS5 expression; `upper` bounds it (its rarest word's df). */
  phraseDf(expr: string, upper: number): number {
    const key = `phrase:${expr}`;
    const hit = this.dfs.get(key);
    if (hit !== undefined) return hit;
    if (upper === 0) return 0;
    const rowids = this.sample.all(expr) as number[];
    let df = rowids.length;
    const last = rowids[rowids.length - 1];
    if (rowids.length >= PHRASE_SAMPLE && last !== undefined) {
      const [min, max] = this.seqBounds();
      df = Math.round((rowids.length * (max - min + 1)) / Math.max(1, max - last + 1));
    }
    df = Math.min(df, upper);
    this.dfs.set(key, df);
    return df;
  }

  /** Expansion statistics of an indexed-term prefix (a stemmed prefix). */
  prefix(prefix: string, rows: number): PrefixStats {
    const hit = this.prefixes.get(prefix);
    if (hit) return hit;
    const terms: [string, number][] = [];
    let postings = 0;
    for (const row of this.range.iterate(prefix, rangeEnd(prefix)) as IterableIterator<[string, number]>) {
      terms.push(row);
      postings += row[1];
      if (terms.length >= MAX_SCANNED_TERMS) break;
    }
    terms.sort((a, b) => b[1] - a[1]);
    const stats: PrefixStats = {
      df: Math.min(rows, postings),
      postings,
      termCount: terms.length,
      topTerms: terms.slice(0, MAX_EXPANSION_TERMS).map(([t]) => t),
    };
    this.prefixes.set(prefix, stats);
    return stats;
  }

  /** Drop every cache (the next queries pay the df, expansion and entity/tags scans again). */
  clear(): void {
    this.dfs.clear();
    this.prefixes.clear();
    this.fields.clear();
  }

  private expire(rows: number): void {
    const now = this.now();
    if (now - this.fieldsAt > FIELD_TTL_MS || this.fields.size > MAX_ENTRIES) {
      this.fields.clear();
      this.fieldsAt = now;
    }
    const drifted = Math.abs(rows - this.filledRows) * 100 > this.filledRows;
    const old = now - this.filledAt > CACHE_TTL_MS;
    const big = this.dfs.size + this.prefixes.size > MAX_ENTRIES;
    if (!drifted && !old && !big) return;
    this.dfs.clear();
    this.prefixes.clear();
    this.filledRows = rows;
    this.filledAt = now;
  }
}
