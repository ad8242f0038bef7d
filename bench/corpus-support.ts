/** Support for the synthetic corpus (bench/corpus.ts): raw fact inserts and ranking-quality metrics. */
import type { Database } from 'better-sqlite3';
import { visibility } from '../src/core/scope.js';
import { parseQuery } from '../src/core/text.js';
import { OPERATOR } from '../src/core/types.js';
import type { FtsSearch } from '../src/store/search.js';

export type QueryKind = 'rare' | 'common' | 'prefix' | 'phrase' | 'mixed';
export const QUERY_KINDS: readonly QueryKind[] = ['rare', 'common', 'prefix', 'phrase', 'mixed'];

export interface LabelledQuery {
  readonly kind: QueryKind;
  readonly query: string;
  /** Ids of the planted relevant facts. */
  readonly relevant: readonly string[];
}

/** One fact row for raw inserts (tests and benchmarks; the FTS triggers index it). */
export interface RawFact {
  readonly id: string;
  readonly text: string;
  readonly category?: string;
  readonly entity?: string | null;
  readonly tags?: readonly string[];
  readonly scope?: 'global' | 'agent' | 'session';
  readonly agent?: string | null;
  readonly session?: string | null;
  readonly at?: number;
  readonly validUntil?: number | null;
  readonly deletedAt?: number | null;
  readonly endedReason?: string | null;
}

/**
 * A raw `INSERT INTO facts` for RawFact rows; returns the new seq. Fills `dedupe_key` (with the id) when
 * the schema has that column.
 */
export function factInserter(db: Database): (f: RawFact) => number {
  const columns = (db.pragma('table_info(facts)') as { name: string }[]).map((c) => c.name);
  const dedupe = columns.includes('dedupe_key');
  const insert = db.prepare(`INSERT INTO facts (id, text, category, entity, tags, tags_text, importance, confidence, decay_class,
    scope_kind, scope_agent, scope_session, lineage_id, version, created_at, updated_at, valid_from, valid_until, deleted_at,
    ended_reason, source${dedupe ? ', dedupe_key' : ''}) VALUES (?, ?, ?, ?, ?, ?, 0.5, 0.8, 'stable', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, 'import'${dedupe ? ', ?' : ''})`);
  return (f) => {
    const tags = f.tags ?? [];
    const at = f.at ?? Date.UTC(2026, 0, 1);
    const args: unknown[] = [f.id, f.text, f.category ?? 'fact', f.entity ?? null, JSON.stringify(tags), tags.join(' '), f.scope ?? 'global',
      f.agent ?? null, f.session ?? null, f.id, at, at, at, f.validUntil ?? null, f.deletedAt ?? null, f.endedReason ?? null];
    if (dedupe) args.push(f.id);
    return Number(insert.run(...args).lastInsertRowid);
  };
}

/** recall@k and nDCG@k (binary gains) of a ranked id list against the relevant set. */
export function quality(ranked: readonly string[], relevant: readonly string[], k = 10): { recall: number; ndcg: number } {
  const rel = new Set(relevant);
  let dcg = 0;
  let hits = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (!rel.has(id)) return;
    hits++;
    dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(k, rel.size); i++) idcg += 1 / Math.log2(i + 2);
  return { recall: rel.size ? hits / Math.min(k, rel.size) : 0, ndcg: idcg ? dcg / idcg : 0 };
}

export interface QualityRow {
  readonly kind: QueryKind | 'all';
  readonly boundedRecall: number;
  readonly unboundedRecall: number;
  readonly boundedNdcg: number;
  readonly unboundedNdcg: number;
  readonly overlap: number;
}

/** Labelled-sample quality of bounded vs unbounded search, by kind and overall. */
export function measureQuality(search: FtsSearch, queries: readonly LabelledQuery[], candidateCap?: number): QualityRow[] {
  const v = visibility(OPERATOR);
  const per = queries.map((q) => {
    const parts = parseQuery(q.query);
    const b = search.search(parts, v, { limit: 10, candidateCap }).map((h) => h.fact.id as string);
    const u = search.search(parts, v, { limit: 10, unbounded: true }).map((h) => h.fact.id as string);
    const qb = quality(b, q.relevant);
    const qu = quality(u, q.relevant);
    const overlap = u.length === 0 ? 1 : b.filter((id) => u.includes(id)).length / u.length;
    return { kind: q.kind, qb, qu, overlap };
  });
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const row = (kind: QueryKind | 'all', sel: typeof per): QualityRow => ({
    kind,
    boundedRecall: mean(sel.map((x) => x.qb.recall)),
    unboundedRecall: mean(sel.map((x) => x.qu.recall)),
    boundedNdcg: mean(sel.map((x) => x.qb.ndcg)),
    unboundedNdcg: mean(sel.map((x) => x.qu.ndcg)),
    overlap: mean(sel.map((x) => x.overlap)),
  });
  return [...QUERY_KINDS.map((k) => row(k, per.filter((x) => x.kind === k))), row('all', per)];
}
