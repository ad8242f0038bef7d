/**
 * The vector search's filter, in SQL on the worker's read-only connection, so it is the same visibility
 * rule as every other read (scopeSql) and is applied before k is cut.
 *
 * - `allowedSeqs`: which of the ANN candidates pass (one query, candidates passed as one JSON array).
 * - `exactTopK`: the fallback when the filter is so selective that even a large over-fetch keeps fewer
 *   than k: score every eligible row that passes the filter exactly. It runs when a round of candidates
 *   kept fewer than k and the visible set, estimated from that round, is no larger than the next round
 *   would fetch, or when fewer than k of the MAX_FETCH nearest candidates were visible.
 *   Scored with the WASM core in chunks (exact.ts).
 * - `newestVectors`: the newest visible rows with their vectors, for the pairwise scan of suggested links.
 */
import type { Database } from 'better-sqlite3';
import { prep } from '../../store/prepared.js';
import type { VectorFilter, VectorHit } from './contract.js';
import { scopeSql } from '../../store/scope-sql.js';
import { CREDENTIAL_SQL } from '../../store/search.js';
import { exactScan, type BlobRow } from './exact.js';
import { ELIGIBLE, decodeInto } from './rows.js';


interface Clause {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

/** The filter as a predicate over `facts f`; `currentOnly` forces `valid_until IS NULL`. */
export function filterClause(filter: VectorFilter, currentOnly = false): Clause {
  const scope = scopeSql(filter.visibility, 'f');
  const parts = [filter.includeSuperseded && !currentOnly ? 'f.deleted_at IS NULL' : 'f.valid_until IS NULL', scope.sql];
  const params: (string | number)[] = [...scope.params];
  if (filter.category) {
    parts.push('f.category = ?');
    params.push(filter.category);
  }
  if (filter.credentialsOnly) parts.push(CREDENTIAL_SQL);
  return { sql: parts.join(' AND '), params };
}

export class FilterQueries {
  constructor(private readonly db: Database) {}

  /** The subset of `seqs` the filter lets through. */
  allowedSeqs(seqs: readonly number[], filter: VectorFilter): Set<number> {
    if (seqs.length === 0) return new Set();
    const c = filterClause(filter);
    const sql = `SELECT f.seq FROM facts f WHERE f.seq IN (SELECT value FROM json_each(?)) AND ${c.sql}`;
    return new Set(prep(this.db, sql).pluck().all(JSON.stringify(seqs), ...c.params) as number[]);
  }

  /**
   * Exact top-k by cosine over the eligible rows that pass the filter (see the file comment), WASM-scored;
   * null, having read at most `max` + 1 rows, when more than `max` rows pass.
   */
  exactTopK(modelId: string, dim: number, query: Float32Array, k: number, filter: VectorFilter, max = Infinity): VectorHit[] | null {
    const c = filterClause(filter, true);
    // The facts the filter keeps first, then their vectors by key (CROSS JOIN fixes that order): a selective
    // filter reads a few vector rows, not every one (at 100k x 512 dims, 0.2% visible: 10 ms against 110 ms).
    // The limit is bound, not written in, so one prepared statement serves every bound (-1: none).
    const sql = `SELECT v.fact_seq AS seq, v.vector AS vector FROM facts f CROSS JOIN fact_vectors v ON v.fact_seq = f.seq
      WHERE ${c.sql} AND v.model_id = ? AND v.dim = ? ORDER BY f.seq LIMIT ?`;
    let read = 0;
    const rows = prep(this.db, sql).iterate(...c.params, modelId, dim, Number.isFinite(max) ? Math.floor(max) + 1 : -1) as IterableIterator<BlobRow>;
    const counted = (function* () {
      for (const row of rows) {
        read++;
        yield row;
      }
    })();
    const hits = exactScan(dim, counted, query, k, decodeInto);
    return read > max ? null : hits;
  }

  /** The `limit` newest (highest seq) eligible rows that pass the filter, with their vectors (suggested links). */
  newestVectors(modelId: string, dim: number, filter: VectorFilter, limit: number): { seqs: number[]; vectors: Float32Array } {
    const c = filterClause(filter, true);
    const sql = `SELECT v.fact_seq AS seq, v.vector AS vector ${ELIGIBLE} AND ${c.sql} ORDER BY v.fact_seq DESC LIMIT ?`;
    const rows = prep(this.db, sql).all(modelId, dim, ...c.params, limit) as BlobRow[];
    const vectors = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => decodeInto(vectors, i * dim, r.vector));
    return { seqs: rows.map((r) => r.seq), vectors };
  }
}
