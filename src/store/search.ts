/**
 * Bounded full-text search with BM25 ranking.
 *
 * FTS5's bm25() computes each phrase's document frequency by walking its whole posting list, per cursor:
 * ranking every match of a common word costs ~35 ms at 100k rows, and asking FTS5 to rank a candidate set
 * (`rowid IN (...)`) costs far more (one cursor, one idf scan per row). So a query runs in two phases:
 *
 * 1. Candidates (src/store/fts-plan.ts, fts-legs.ts): capped, newest-first legs: each part alone (rarest
 *    first; a rare part brings all of its matches, common parts share the rest of the budget), the AND of
 *    the (up to 4) rarest parts when every part had more matches than its cap, and for such parts their
 *    strongest entity/tags matches (cached lists). Scope, currency and credential filters are in every leg's SQL.
 *    At most ~CANDIDATE_BUDGET rows, whatever the corpus size.
 * 2. Ranking in JS (src/store/fts-score.ts): the same BM25 as FTS5's bm25() with the same k1, b and column
 *    weights; N and avgdl from FTS5's own totals, df from the fts5vocab table (cached, src/store/fts-stats.ts),
 *    tf and row length by tokenizing and Porter-stemming the candidates exactly as FTS5 does (a row's scan is
 *    kept for the next queries that bring it back: ScanCache). For words and prefixes the scores equal
 *    FTS5's; a phrase's df is estimated (FtsStats.phraseDf).
 *
 * Every leg returns all matches when a query's parts are rare, so the result is then exactly unbounded
 * bm25's. For common words it is the best of the newest matches plus the strongest entity/tags matches.
 * `unbounded: true` ranks every match with FTS5's bm25() (the reference the benchmark compares against).
 *
 * Query text is parsed by src/core/text.ts and every token is quoted, so user input never reaches FTS5's
 * query syntax.
 */
import type { Database } from 'better-sqlite3';
import type { Visibility } from '../core/scope.js';
import type { QueryPart } from '../core/text.js';
import type { Category, Fact } from '../core/types.js';
import { CandidateCollector, type Filter } from './fts-legs.js';
import { partExpr, planParts } from './fts-plan.js';
import { COLUMN_WEIGHTS, RowScorer, ScanCache } from './fts-score.js';
import { FtsStats } from './fts-stats.js';
import { prep } from './prepared.js';
import { FACT_COLUMNS, factRow, toFact, type FactRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

export { partExpr } from './fts-plan.js';

export interface FtsOptions {
  readonly limit?: number;
  readonly includeSuperseded?: boolean;
  /** Only credential facts (spec "Credential facts (recall filter)"). */
  readonly credentialsOnly?: boolean;
  /** Only facts of this category. */
  readonly category?: Category;
  /** Candidate rows all legs together may fetch (default CANDIDATE_BUDGET = 600). */
  readonly candidateCap?: number;
  /** Rank all matches with FTS5's bm25() and no cap (the reference the benchmark compares against). */
  readonly unbounded?: boolean;
}

export interface FtsHit {
  readonly fact: Fact;
  /** bm25 relevance, >= 0, higher is better (FTS5's bm25() negated; computed the same way when bounded). */
  readonly relevance: number;
}

/** Column weights for bm25(text, entity, tags), as SQL arguments. */
export const BM25_WEIGHTS = COLUMN_WEIGHTS.map((w) => w.toFixed(1)).join(', ');

/** The credential filter of the spec, as SQL over alias f. */
export const CREDENTIAL_SQL = `(f.category = 'technical' OR f.entity = 'Credentials' COLLATE NOCASE OR EXISTS (SELECT 1 FROM json_each(f.tags) t
  WHERE lower(t.value) IN ('credential','ssh','token','api','auth','password')))`;

const MAX_LIMIT = 200;

export class FtsSearch {
  private readonly stats: FtsStats;
  private readonly collector: CandidateCollector;
  private readonly scans = new ScanCache();

  constructor(private readonly db: Database) {
    this.stats = new FtsStats(db);
    this.collector = new CandidateCollector(db, this.stats);
  }

  /** Forget cached statistics, entity/tags lists and row scans (e.g. after a bulk import; benchmarks of cold queries). */
  clearCaches(): void {
    this.stats.clear();
    this.scans.clear();
  }

  search(parts: readonly QueryPart[], v: Visibility, options: FtsOptions = {}): FtsHit[] {
    if (parts.length === 0) return [];
    const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? 10)), MAX_LIMIT);
    const scope = scopeSql(v);
    const filters = [options.includeSuperseded ? 'f.deleted_at IS NULL' : 'f.valid_until IS NULL', scope.sql];
    if (options.credentialsOnly) filters.push(CREDENTIAL_SQL);
    const params: (string | number)[] = [...scope.params];
    if (options.category) {
      filters.push('f.category = ?');
      params.push(options.category);
    }
    const filter: Filter = { sql: filters.join(' AND '), params };
    if (options.unbounded) return this.unbounded(parts, filter, limit);
    return this.bounded(parts, filter, limit, options.candidateCap);
  }

  private unbounded(parts: readonly QueryPart[], filter: Filter, limit: number): FtsHit[] {
    const orExpr = parts.map(partExpr).join(' OR ');
    const sql = `SELECT f.*, bm25(facts_fts, ${BM25_WEIGHTS}) AS rank FROM facts_fts CROSS JOIN facts f ON f.seq = facts_fts.rowid
      WHERE facts_fts MATCH ? AND ${filter.sql} ORDER BY rank LIMIT ${limit}`;
    const rows = prep(this.db, sql).all(orExpr, ...filter.params) as (FactRow & { rank: number })[];
    return rows.map((r) => ({ fact: toFact(r), relevance: -r.rank }));
  }

  private bounded(parts: readonly QueryPart[], filter: Filter, limit: number, cap: number | undefined): FtsHit[] {
    const totals = this.stats.totals();
    if (totals.rows === 0) return [];
    const planned = planParts(parts, this.stats, totals);
    const found = this.collector.collect(planned, filter, limit, cap, totals.rows);
    if (found.rows.size === 0) return [];
    const scorer = new RowScorer(planned.map((p) => p.matcher), totals.avgLen, this.scans);
    const scored: { seq: number; score: number }[] = [];
    for (const [seq, row] of found.rows) {
      const score = scorer.score(seq, row);
      // A row known only from a cached list may no longer match (edited since): drop it then.
      if (score > 0 || !found.cachedOnly.has(seq)) scored.push({ seq, score });
    }
    scored.sort((a, b) => b.score - a.score || a.seq - b.seq); // ties: lower seq first, as FTS5 returns them
    return this.fetch(scored.slice(0, limit));
  }

  /** The full rows of the ranked top, in rank order. */
  private fetch(top: readonly { seq: number; score: number }[]): FtsHit[] {
    const sql = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.seq IN (SELECT value FROM json_each(?))`;
    const rows = (prep(this.db, sql).raw().all(JSON.stringify(top.map((t) => t.seq))) as unknown[][]).map(factRow);
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    const hits: FtsHit[] = [];
    for (const t of top) {
      const row = bySeq.get(t.seq);
      if (row) hits.push({ fact: toFact(row), relevance: t.score });
    }
    return hits;
  }

}
