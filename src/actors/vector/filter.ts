/**
 * The vector search's filter, in SQL on the worker's read-only connection, so it is the same visibility
 * rule as every other read (scopeSql) and is applied before k is cut.
 *
 * - `allowedSeqs`: which of the ANN candidates pass (one query, candidates passed as one JSON array).
 * - `exactTopK`: the fallback when the filter is so selective that even a large over-fetch keeps fewer
 *   than k: score every eligible row that passes the filter exactly. It only runs when fewer than k of the
 *   MAX_FETCH nearest candidates were visible, i.e. when the visible set is a small part of the index.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { VectorFilter, VectorHit } from './contract.js';
import { scopeSql } from '../../store/scope-sql.js';
import { CREDENTIAL_SQL } from '../../store/search.js';
import { ELIGIBLE, decodeInto } from './rows.js';

const MAX_STATEMENTS = 64;

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
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  private prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** The subset of `seqs` the filter lets through. */
  allowedSeqs(seqs: readonly number[], filter: VectorFilter): Set<number> {
    if (seqs.length === 0) return new Set();
    const c = filterClause(filter);
    const sql = `SELECT f.seq FROM facts f WHERE f.seq IN (SELECT value FROM json_each(?)) AND ${c.sql}`;
    return new Set(this.prepare(sql).pluck().all(JSON.stringify(seqs), ...c.params) as number[]);
  }

  /** Exact top-k by cosine over the eligible rows that pass the filter (see the file comment). */
  exactTopK(modelId: string, dim: number, query: Float32Array, k: number, filter: VectorFilter): VectorHit[] {
    const c = filterClause(filter, true);
    const sql = `SELECT v.fact_seq AS seq, v.vector AS vector ${ELIGIBLE} AND ${c.sql}`;
    const qn = norm(query, 0, dim);
    const row = new Float32Array(dim);
    const top: VectorHit[] = [];
    for (const r of this.prepare(sql).iterate(modelId, dim, ...c.params) as IterableIterator<{ seq: number; vector: Buffer }>) {
      decodeInto(row, 0, r.vector);
      const denom = qn * norm(row, 0, dim);
      const similarity = denom > 0 ? dot(query, row, dim) / denom : 0;
      if (top.length < k || similarity > (top[top.length - 1] as VectorHit).similarity) insertSorted(top, { seq: r.seq, similarity }, k);
    }
    return top;
  }
}

function dot(a: Float32Array, b: Float32Array, dim: number): number {
  let s = 0;
  for (let j = 0; j < dim; j++) s += (a[j] as number) * (b[j] as number);
  return s;
}

function norm(a: Float32Array, offset: number, dim: number): number {
  let s = 0;
  for (let j = 0; j < dim; j++) s += (a[offset + j] as number) ** 2;
  return Math.sqrt(s);
}

/** Keep `top` sorted by descending similarity and at most k long. */
function insertSorted(top: VectorHit[], hit: VectorHit, k: number): void {
  let lo = 0;
  let hi = top.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((top[mid] as VectorHit).similarity >= hit.similarity) lo = mid + 1;
    else hi = mid;
  }
  top.splice(lo, 0, hit);
  if (top.length > k) top.pop();
}
