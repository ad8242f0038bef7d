/**
 * Phase 1 of a bounded search: the capped candidate queries ("legs") of a plan (see fts-plan.ts for the
 * order and the budget). Every leg carries the query's scope/currency/credential filter in its SQL.
 */
import { prep } from './prepared.js';
import type { Database } from 'better-sqlite3';
import { budgetFor, fieldParts, MAX_AND_PARTS, partCap, type PlannedPart } from './fts-plan.js';
import type { FtsStats } from './fts-stats.js';

/** Entity/tags matches kept per part, strongest tier first (see fieldList). */
export const FIELD_ROWS = 256;

export interface Filter {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

/** A candidate row, raw: its indexed columns then its seq (arrays allocate less than row objects). */
export type Candidate = readonly [text: string, entity: string, tags: string, seq: number];
const CANDIDATE_COLUMNS = "f.text, coalesce(f.entity, ''), f.tags_text, f.seq";

export interface Found {
  readonly rows: Map<number, Candidate>;
  /** Rows that came only from a cached entity/tags list (not matched by FTS5 in this query). */
  readonly cachedOnly: Set<number>;
}

/**
 * Tiers of entity/tags matches, strongest first: the word in entity and tags, in a field and in the
 * text, then in a field at all. Within a tier newest first. Each tier costs one walk of the part's
 * postings (no per-row ranking), so building a list is bounded by ~3 posting walks.
 */
function fieldTiers(expr: string): string[] {
  return [`{entity} : (${expr}) AND {tags} : (${expr})`, `{entity tags} : (${expr}) AND {text} : (${expr})`, `{entity tags} : (${expr})`];
}

export class CandidateCollector {

  constructor(
    private readonly db: Database,
    private readonly stats: FtsStats,
  ) {}

  collect(planned: readonly PlannedPart[], filter: Filter, limit: number, cap: number | undefined, rows: number): Found {
    const budget = budgetFor(planned.length, limit, cap);
    const found: Found = { rows: new Map(), cachedOnly: new Set() };
    const full = new Map<PlannedPart, number>();
    let used = 0;
    const byCost = [...planned].sort((a, b) => a.cost - b.cost);
    byCost.forEach((p, i) => {
      const legCap = partCap(budget, used, byCost.length - i);
      const leg = this.leg(p.expr, legCap, filter, found);
      used += leg.count;
      if (leg.count >= legCap) full.set(p, leg.minSeq);
    });
    // While some part's leg is complete, every row matching all parts is already a candidate.
    if (planned.length > 1 && full.size === planned.length) {
      const and = byCost.slice(0, MAX_AND_PARTS).map((p) => p.expr);
      this.leg(and.join(' AND '), budget.andCap, filter, found);
    }
    const fields = fieldParts([...full.keys()], rows);
    const fieldCap = Math.max(budget.minCap, Math.floor(budget.fieldBudget / Math.max(1, fields.length)));
    for (const p of fields) this.fieldLeg(p, full.get(p) ?? 0, fieldCap, filter, found);
    return found;
  }

  /** One capped, newest-first candidate query. */
  private leg(expr: string, cap: number, filter: Filter, found: Found): { count: number; minSeq: number } {
    const sql = `SELECT ${CANDIDATE_COLUMNS} FROM facts_fts CROSS JOIN facts f ON f.seq = facts_fts.rowid
      WHERE facts_fts MATCH ? AND ${filter.sql} ORDER BY facts_fts.rowid DESC LIMIT ?`;
    const rows = prep(this.db, sql).raw().all(expr, ...filter.params, cap) as Candidate[];
    for (const r of rows) {
      if (!found.rows.has(r[3])) found.rows.set(r[3], r);
      found.cachedOnly.delete(r[3]);
    }
    return { count: rows.length, minSeq: rows[rows.length - 1]?.[3] ?? 0 };
  }

  /**
   * The strongest entity/tags matches of a part whose own leg was full. The unfiltered rowid list is
   * cached (FtsStats.fields) with the highest seq it covers, and stays valid while the part's leg reaches
   * down to that seq (every newer match is then in the leg); otherwise it is rebuilt. The rows are read
   * with the query's filters, in SQL, in list order.
   */
  private fieldLeg(p: PlannedPart, legMinSeq: number, cap: number, filter: Filter, found: Found): void {
    let entry = this.stats.fields.get(p.expr);
    if (!entry || legMinSeq > entry.upTo) {
      const upTo = this.stats.seqBounds()[1];
      entry = { seqs: this.fieldList(p.expr), upTo };
      this.stats.fields.set(p.expr, entry);
    }
    if (entry.seqs.length === 0) return;
    // CROSS JOIN keeps json_each as the outer loop, so rows come in list order and LIMIT stops early.
    const sql = `SELECT ${CANDIDATE_COLUMNS} FROM json_each(?) j CROSS JOIN facts f ON f.seq = j.value
      WHERE f.deleted_at IS NULL AND ${filter.sql} LIMIT ?`;
    const rows = prep(this.db, sql).raw().all(JSON.stringify(entry.seqs), ...filter.params, cap) as Candidate[];
    for (const r of rows) {
      if (found.rows.has(r[3])) continue;
      found.rows.set(r[3], r);
      found.cachedOnly.add(r[3]);
    }
  }

  private fieldList(expr: string): number[] {
    const sql = `SELECT rowid FROM facts_fts WHERE facts_fts MATCH ? ORDER BY rowid DESC LIMIT ${FIELD_ROWS}`;
    const list = new Set<number>();
    for (const tier of fieldTiers(expr)) {
      for (const seq of prep(this.db, sql).pluck().all(tier) as number[]) {
        list.add(seq);
        if (list.size >= FIELD_ROWS) return [...list];
      }
    }
    return [...list];
  }

}
