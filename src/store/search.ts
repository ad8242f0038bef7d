/**
 * Bounded full-text search. Ranking every match of a common word costs ~100 ms at 100k rows, and huge
 * OR-joined MATCH expressions have stalled FTS5 for seconds elsewhere, so a query runs in two phases:
 *
 * 1. Candidates: each query part (word, prefix, phrase) and the AND of all parts are matched separately,
 *    newest first, each capped at `candidateCap` rows (scope and currency filtered in the same query).
 *    A rare word contributes all of its matches; a common word contributes its newest `candidateCap`;
 *    documents matching every part are found through the AND leg. Cost is bounded by
 *    parts x candidateCap whatever the corpus size.
 * 2. Ranking: bm25 over the OR of all parts, computed by FTS5 for the candidate rowids only (so scores use
 *    the corpus-wide statistics and equal unbounded bm25 for those rows).
 *
 * Query text is parsed by src/core/text.ts and every part is quoted, so user input never reaches FTS5's
 * query syntax.
 */
import type { Database } from 'better-sqlite3';
import type { Visibility } from '../core/scope.js';
import type { QueryPart } from '../core/text.js';
import type { Fact } from '../core/types.js';
import { toFact, type FactRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

export interface FtsOptions {
  readonly limit?: number;
  readonly includeSuperseded?: boolean;
  /** Only credential facts (spec "Credential facts (recall filter)"). */
  readonly credentialsOnly?: boolean;
  /** Per-leg cap of phase 1 (default 400). */
  readonly candidateCap?: number;
  /** Rank all matches with no cap (the reference the benchmark compares against). */
  readonly unbounded?: boolean;
}

export interface FtsHit {
  readonly fact: Fact;
  /** bm25 relevance, >= 0, higher is better (FTS5's bm25() negated). */
  readonly relevance: number;
}

/** Column weights for bm25(text, entity, tags). Entity and tags are short and deliberate: weigh them up. */
const BM25_WEIGHTS = '1.0, 2.0, 1.5';

/** The credential filter of the spec, as SQL over alias f. */
export const CREDENTIAL_SQL = `(f.category = 'technical' OR f.entity = 'Credentials' COLLATE NOCASE OR EXISTS (SELECT 1 FROM json_each(f.tags) t
  WHERE lower(t.value) IN ('credential','ssh','token','api','auth','password')))`;

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

export function partExpr(p: QueryPart): string {
  switch (p.kind) {
    case 'term':
      return quote(p.term);
    case 'prefix':
      return `${quote(p.term)}*`;
    case 'phrase':
      return quote(p.terms.join(' '));
  }
}

export class FtsSearch {
  constructor(private readonly db: Database) {}

  search(parts: readonly QueryPart[], v: Visibility, options: FtsOptions = {}): FtsHit[] {
    if (parts.length === 0) return [];
    const limit = Math.min(Math.max(1, options.limit ?? 10), 200);
    const scope = scopeSql(v);
    const filters = [options.includeSuperseded ? 'f.deleted_at IS NULL' : 'f.valid_until IS NULL', scope.sql];
    if (options.credentialsOnly) filters.push(CREDENTIAL_SQL);
    const where = filters.join(' AND ');
    const orExpr = parts.map(partExpr).join(' OR ');

    if (options.unbounded) {
      const sql = `SELECT f.*, bm25(facts_fts, ${BM25_WEIGHTS}) AS rank FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
        WHERE facts_fts MATCH ? AND ${where} ORDER BY rank LIMIT ${limit}`;
      return this.hits(this.db.prepare(sql).all(orExpr, ...scope.params) as (FactRow & { rank: number })[]);
    }

    const cap = Math.min(Math.max(limit, options.candidateCap ?? 400), 5000);
    const legSql = `SELECT facts_fts.rowid AS seq FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
      WHERE facts_fts MATCH ? AND ${where} ORDER BY facts_fts.rowid DESC LIMIT ${cap}`;
    const leg = this.db.prepare(legSql).pluck();
    const candidates = new Set<number>();
    const legs = parts.length > 1 ? [parts.map(partExpr).join(' AND '), ...parts.map(partExpr)] : [orExpr];
    for (const expr of legs) for (const seq of leg.all(expr, ...scope.params) as number[]) candidates.add(seq);
    if (candidates.size === 0) return [];

    const rankSql = `SELECT f.*, bm25(facts_fts, ${BM25_WEIGHTS}) AS rank FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
      WHERE facts_fts MATCH ? AND facts_fts.rowid IN (SELECT value FROM json_each(?)) ORDER BY rank LIMIT ${limit}`;
    const rows = this.db.prepare(rankSql).all(orExpr, JSON.stringify([...candidates])) as (FactRow & { rank: number })[];
    return this.hits(rows);
  }

  private hits(rows: (FactRow & { rank: number })[]): FtsHit[] {
    return rows.map((r) => ({ fact: toFact(r), relevance: -r.rank }));
  }
}
