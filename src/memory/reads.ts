/** Read operations, each scope-filtered inside its query. */
import type { FactId } from '../core/ids.js';
import { ownsRecall, visibility, type Visibility } from '../core/scope.js';
import type { Caller, Category, Conflict, ConflictStatus, Episode, Fact, Link, RecallEvent } from '../core/types.js';
import type { FactFilter } from '../store/facts.js';
import { visibleFact } from './access.js';
import type { Ctx } from './context.js';
import { idSchemas, parse } from './inputs.js';

export function getFact(ctx: Ctx, id: string, caller: Caller): Fact {
  return visibleFact(ctx, parse(idSchemas.fact, id, 'getFact.id'), caller);
}

/** Every version of the fact's lineage, oldest first (deleted versions only for the operator). */
export function factHistory(ctx: Ctx, id: string, caller: Caller): Fact[] {
  const fact = getFact(ctx, id, caller);
  return ctx.facts.history(fact.lineageId).filter((f) => f.deletedAt === null || caller.role === 'operator');
}

export function listFacts(ctx: Ctx, filter: FactFilter, caller: Caller): Fact[] {
  return ctx.facts.list(visibility(caller), filter);
}

/** The facts that were current at `t` (epoch ms), as the caller may see them. */
export function factsAsOf(ctx: Ctx, t: number, caller: Caller, filter: { category?: Category; entity?: string; limit?: number } = {}): Fact[] {
  return ctx.facts.asOf(t, visibility(caller), filter);
}

export function listLinks(ctx: Ctx, caller: Caller, options: { factId?: FactId; limit?: number } = {}): Link[] {
  return ctx.links.list(visibility(caller), options);
}

export function listConflicts(ctx: Ctx, caller: Caller, status: ConflictStatus = 'unresolved'): Conflict[] {
  return ctx.conflicts.list(visibility(caller), { status });
}

export function listEpisodes(ctx: Ctx, caller: Caller, limit?: number): Episode[] {
  return ctx.episodes.list(caller, limit);
}

/** One recall event the caller owns (or null: missing or someone else's, alike), scores trimmed to what it may see. */
export function recallEvent(ctx: Ctx, caller: Caller, id: string): RecallEvent | null {
  const e = ctx.recalls.get(id);
  if (!e || !ownsRecall(e.owner, caller)) return null;
  const v = visibility(caller);
  if (v.all) return e;
  const visible = new Set(ctx.facts.visibleIds(e.scores.map((s) => s.factId), v));
  return { ...e, scores: e.scores.filter((s) => visible.has(s.factId)) };
}

/** Recall history, ownership-gated; scores of facts the caller may not see are removed. */
export function recallHistory(ctx: Ctx, caller: Caller, options: { limit?: number; since?: number } = {}): RecallEvent[] {
  const v = visibility(caller);
  return ctx.recalls.list(caller, options).map((e) => {
    if (v.all) return e;
    const visible = new Set(ctx.facts.visibleIds(e.scores.map((s) => s.factId), v));
    return { ...e, scores: e.scores.filter((s) => visible.has(s.factId)) };
  });
}

export interface Stats {
  readonly totalFacts: number;
  readonly supersededFacts: number;
  readonly links: number;
  readonly openConflicts: number;
  readonly byCategory: Readonly<Record<string, number>>;
  readonly lastEventSeq: number;
  /** When the earliest visible fact became valid (where time travel starts), or null with no facts. */
  readonly firstFactAt: number | null;
}

/**
 * Stats are counts over the whole visible store (~1 ms at 1k facts, more with size), asked for on every
 * dashboard refresh. Every change that moves a count appends an event, in this process or another, so an
 * answer stays valid while the event log's high-water mark is unchanged; a short TTL covers purges.
 */
const statsMemo = new WeakMap<Ctx, Map<string, { seq: number; at: number; stats: Stats }>>();
const STATS_TTL_MS = 5000;

export function stats(ctx: Ctx, caller: Caller): Stats {
  const v = visibility(caller);
  const seq = ctx.events.lastSeq();
  const key = JSON.stringify(v);
  let memo = statsMemo.get(ctx);
  if (!memo) statsMemo.set(ctx, (memo = new Map()));
  const hit = memo.get(key);
  const now = Date.now();
  if (hit && hit.seq === seq && now - hit.at < STATS_TTL_MS) return hit.stats;
  const fresh = countStats(ctx, v);
  if (memo.size >= 256) memo.clear();
  memo.set(key, { seq, at: now, stats: fresh });
  return fresh;
}

function countStats(ctx: Ctx, v: Visibility): Stats {
  const counts = ctx.facts.counts(v);
  return {
    totalFacts: counts.current,
    supersededFacts: counts.superseded,
    links: ctx.links.count(v),
    openConflicts: ctx.conflicts.list(v, { limit: 1000 }).length,
    byCategory: counts.byCategory,
    lastEventSeq: ctx.events.lastSeq(),
    firstFactAt: ctx.facts.firstValidFrom(v),
  };
}
