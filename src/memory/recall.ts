/**
 * memory_recall: full-text search (bm25, bounded; the vector leg joins with the actors), scored,
 * logged as a recall event with per-fact scores, and fed back into the store: recall counts and times,
 * co-recalled links strengthened, the session's episode touched.
 *
 * score = relevance / best relevance x (0.85 + 0.15 x strength): text relevance decides the order,
 * strength breaks near-ties, and the best match scores close to 1.
 */
import { MemoryError } from '../core/errors.js';
import { newRecallEventId, type RecallEventId } from '../core/ids.js';
import { visibility } from '../core/scope.js';
import { strength } from '../core/strength.js';
import { parseQuery } from '../core/text.js';
import type { Caller, Fact, RecallKind } from '../core/types.js';
import type { Ctx } from './context.js';
import { parse, recallSchema, type RecallInput } from './inputs.js';
import { strengthenCoRecalled } from './links.js';

export interface RecallHit {
  readonly fact: Fact;
  readonly score: number;
}

export interface RecallResult {
  readonly results: readonly RecallHit[];
  readonly recallId: RecallEventId | null;
}

export function memoryRecall(ctx: Ctx, input: RecallInput, caller: Caller): RecallResult {
  const i = parse(recallSchema, input, 'memory_recall');
  const parts = parseQuery(i.query);
  if (parts.length === 0) throw new MemoryError('MEM_ERR_QUERY_EMPTY', `memory_recall.query: expected searchable words, received ${JSON.stringify(i.query.slice(0, 60))}`);
  const now = ctx.now();
  const hits = ctx.fts.search(parts, visibility(caller), { limit: i.limit * 2, includeSuperseded: i.includeSuperseded });
  const filtered = i.category ? hits.filter((h) => h.fact.category === i.category) : hits;
  const best = filtered.reduce((m, h) => Math.max(m, h.relevance), 0) || 1;
  const results = filtered
    .map((h) => ({ fact: h.fact, score: round((h.relevance / best) * (0.85 + 0.15 * strength(h.fact, now))) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, i.limit);
  if (results.length === 0) return { results, recallId: null };
  const recallId = recordRecall(ctx, caller, 'memory_recall', i.query, null, results, now);
  return { results, recallId };
}

/** Log a recall (recall_events + event log) and feed it back into the store, in one transaction. */
export function recordRecall(ctx: Ctx, caller: Caller, kind: RecallKind, query: string, target: string | null, results: readonly RecallHit[], now: number): RecallEventId {
  const id = newRecallEventId(now);
  const ids = results.map((r) => r.fact.id);
  ctx.tx('recall', () => {
    ctx.recalls.insert({ id, kind, query, target, owner: caller, scores: results.map((r) => ({ factId: r.fact.id, score: r.score })), createdAt: now });
    ctx.facts.markRecalled(ids, now);
    for (const r of results) {
      const f = ctx.facts.get(r.fact.id);
      if (f) ctx.facts.setStrength(f.id, strength(f, now));
    }
    strengthenCoRecalled(ctx, ids, now);
    ctx.episodes.touch(caller, 'recall', query, now);
    ctx.emit({
      kind: 'recall',
      recallId: id,
      recallKind: kind,
      query,
      target,
      owner: caller,
      scores: results.map((r) => ({ factId: r.fact.id, score: r.score, scope: r.fact.scope })),
      scopes: results.map((r) => r.fact.scope),
    });
  });
  return id;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;
