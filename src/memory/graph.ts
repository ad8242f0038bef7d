/**
 * The memory graph as the dashboard reads it: visible facts as nodes (with their strength now and a
 * cluster id), and the links among them as edges; a node's neighbourhood; and the gap queries (orphans,
 * weak links, stale facts). Every read is scope-filtered inside its query (src/core/scope.ts).
 */
import { z } from 'zod';
import type { FactId } from '../core/ids.js';
import { isStale, isWeakLink, LINK_RULES, STALE_AFTER_MS, STALE_STRENGTH_BELOW } from '../core/rules.js';
import { visibility } from '../core/scope.js';
import { strength } from '../core/strength.js';
import { CATEGORIES, type Caller, type Fact, type Link } from '../core/types.js';
import { visibleFact } from './access.js';
import type { Ctx } from './context.js';
import { idSchemas, LIMITS, parse } from './inputs.js';

/** The most nodes one graph read returns; past it the answer says `truncated`. */
export const MAX_GRAPH_NODES = 20_000;

export const graphFilterSchema = z.strictObject({
  categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length).optional(),
  minStrength: z.number().min(0).max(1).optional(),
  includeSuperseded: z.boolean().default(false),
  /** Case-insensitive substring of the text or the entity. */
  search: z.string().trim().max(LIMITS.queryMax).optional(),
  entity: z.string().trim().min(1).max(LIMITS.entityMax).optional(),
  limit: z.int().min(1).max(MAX_GRAPH_NODES).default(2000),
  /**
   * Time travel: the memory as it was at this time (epoch ms): the versions valid then (the store's as-of
   * read, so `includeSuperseded` does not apply), the links that existed then, strengths as of then.
   */
  asOf: z.number().min(0).max(8.64e15).optional(),
});
export type GraphFilter = z.input<typeof graphFilterSchema>;

export interface GraphNode {
  readonly fact: Fact;
  /** Strength now (importance x recency x confidence + boosts), in [0, 1]. */
  readonly strength: number;
  /** Connected component within this answer (0 = the largest); isolated facts get their own. */
  readonly cluster: number;
}

export interface MemoryGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly Link[];
  /** True when more facts matched than `limit`. */
  readonly truncated: boolean;
}

/** With `withEdges` false only the nodes are read (a fact list with strengths; clusters are all singletons). */
export function readGraph(ctx: Ctx, input: GraphFilter, caller: Caller, withEdges = true): MemoryGraph {
  const f = parse(graphFilterSchema, input, 'graph.filter');
  const now = f.asOf ?? ctx.now();
  const v = visibility(caller);
  const which = { categories: f.categories, entity: f.entity, contains: f.search || undefined, limit: f.limit + 1 };
  const facts =
    f.asOf === undefined
      ? ctx.facts.list(v, { ...which, includeSuperseded: f.includeSuperseded, minStrength: f.minStrength }, MAX_GRAPH_NODES + 1)
      : ctx.facts.asOf(f.asOf, v, which, MAX_GRAPH_NODES + 1);
  const truncated = facts.length > f.limit;
  const kept = facts.slice(0, f.limit).map((fact) => ({ fact, strength: strength(fact, now) }));
  // The stored strength is refreshed by maintenance; the threshold applies to the strength now.
  const nodes = f.minStrength === undefined ? kept : kept.filter((n) => n.strength >= (f.minStrength ?? 0));
  const edges = !withEdges ? [] : f.asOf === undefined ? ctx.links.among(nodes.map((n) => n.fact.id)) : linksAsOf(ctx, nodes, f.asOf);
  return { nodes: withClusters(nodes, edges), edges, truncated };
}

/**
 * The links among a past view's facts: those made by then, each drawn between the versions valid then
 * (an edit moves a fact's links to its new version). Links cut since, or that went with a deleted fact,
 * are not kept by the store, so the past shows only the links that still exist.
 */
function linksAsOf(ctx: Ctx, nodes: readonly { fact: Fact }[], t: number): Link[] {
  const byLineage = new Map(nodes.map((n) => [n.fact.lineageId as string, n.fact.id]));
  const out: Link[] = [];
  for (const { link, sourceLineage, targetLineage } of ctx.links.amongLineages([...byLineage.keys()], t)) {
    const sourceId = byLineage.get(sourceLineage);
    const targetId = byLineage.get(targetLineage);
    if (sourceId && targetId && sourceId !== targetId) out.push({ ...link, sourceId, targetId });
  }
  return out;
}

/** A fact, its visible neighbours and the links joining them: to expand a node without a full reload. */
export function readNeighbors(ctx: Ctx, id: string, caller: Caller, limit = 200): MemoryGraph {
  const center = visibleFact(ctx, parse(idSchemas.fact, id, 'neighbors.id'), caller);
  const now = ctx.now();
  const all = ctx.links.list(visibility(caller), { factId: center.id, limit: limit + 1 });
  const edges = all.slice(0, limit);
  const others = new Set<string>(edges.map((l) => (l.sourceId === center.id ? l.targetId : l.sourceId)));
  const facts = [center, ...[...others].map((o) => ctx.facts.get(o)).filter((x): x is Fact => x !== null)];
  const nodes = facts.map((fact) => ({ fact, strength: strength(fact, now) }));
  return { nodes: withClusters(nodes, edges), edges, truncated: all.length > limit };
}

/** Connected components (union-find), numbered by size, largest first. */
function withClusters(nodes: readonly { fact: Fact; strength: number }[], edges: readonly Link[]): GraphNode[] {
  const index = new Map<FactId, number>(nodes.map((n, k) => [n.fact.id, k]));
  const parent = nodes.map((_, k) => k);
  const root = (k: number): number => {
    let r = k;
    while (parent[r] !== r) r = parent[r] ?? r;
    for (let c = k; parent[c] !== r; ) [c, parent[c]] = [parent[c] ?? r, r];
    return r;
  };
  for (const e of edges) {
    const a = index.get(e.sourceId);
    const b = index.get(e.targetId);
    if (a !== undefined && b !== undefined) parent[root(a)] = root(b);
  }
  const size = new Map<number, number>();
  for (let k = 0; k < nodes.length; k++) size.set(root(k), (size.get(root(k)) ?? 0) + 1);
  const order = [...size.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([r]) => r);
  const clusterOf = new Map(order.map((r, c) => [r, c]));
  return nodes.map((n, k) => ({ ...n, cluster: clusterOf.get(root(k)) ?? 0 }));
}

const gapLimit = z.int().min(1).max(1000).default(100);

/** Facts with no link to another fact the caller can see, newest first. */
export function orphans(ctx: Ctx, caller: Caller, limit?: number): Fact[] {
  return ctx.facts.orphans(visibility(caller), parse(gapLimit, limit, 'orphans.limit'));
}

/** Links below LINK_RULES.weakBelow not created or strengthened for LINK_RULES.weakAfterMs. */
export function weakLinks(ctx: Ctx, caller: Caller, limit?: number): Link[] {
  const n = parse(gapLimit, limit, 'weakLinks.limit');
  const now = ctx.now();
  return ctx.links
    .list(visibility(caller), { limit: n, weak: { below: LINK_RULES.weakBelow, idleBefore: now - LINK_RULES.weakAfterMs } })
    .filter((l) => isWeakLink(l, now));
}

/** Facts idle past their decay class's window, or too weak (src/core/rules.ts isStale); least recently active first. */
export function staleFacts(ctx: Ctx, caller: Caller, limit?: number): Fact[] {
  const n = parse(gapLimit, limit, 'staleFacts.limit');
  const now = ctx.now();
  const idleBefore = { stable: now - STALE_AFTER_MS.stable, episodic: now - STALE_AFTER_MS.episodic, volatile: now - STALE_AFTER_MS.volatile };
  // Stored strength lags (refreshed by maintenance), so ask with some slack and decide with the strength now.
  return ctx.facts
    .staleCandidates(visibility(caller), idleBefore, STALE_STRENGTH_BELOW * 2, n * 2)
    .filter((f) => isStale(f, strength(f, now), now))
    .slice(0, n);
}
