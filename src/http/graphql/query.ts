/** Query resolvers: thin calls into MemoryService with the request's caller (scope is applied there). */
import type { FactId } from '../../core/ids.js';
import type { ConflictStatus, Category } from '../../core/types.js';
import type { GraphFilter } from '../../memory/graph.js';
import type { GqlContext } from './context.js';
import { nodeView, type FieldMap } from './views.js';
import { withoutNulls as clean } from './args.js';

interface Args {
  readonly filter?: GraphFilter | null;
  readonly id?: string;
  readonly limit?: number;
  readonly factId?: string | null;
  readonly query?: string;
  readonly category?: Category | null;
  readonly includeSuperseded?: boolean;
  readonly since?: number | null;
  readonly threshold?: number;
  readonly status?: ConflictStatus;
}

type Q = FieldMap<unknown>;
const a = (args: Record<string, unknown>): Args => args as Args;

function graphView(g: ReturnType<GqlContext['svc']['graph']>) {
  return { nodes: g.nodes.map(nodeView), edges: g.edges, truncated: g.truncated };
}

const statsViews = new WeakMap<object, { searchMode: string }>();

export const queryFields: Q = {
  graph: (_p, args, ctx) => graphView(ctx.svc.graph(clean(a(args).filter), ctx.caller)),
  semanticMap: (_p, args, ctx) => ctx.svc.semanticMap(clean(a(args).filter), ctx.caller),
  neighbors: (_p, args, ctx) => graphView(ctx.svc.neighbors(a(args).id ?? '', ctx.caller, a(args).limit)),
  stats: (_p, _args, ctx) => {
    const s = ctx.svc.stats(ctx.caller);
    const searchMode = ctx.searchMode ?? (ctx.svc.semanticLayer ? 'hybrid' : 'fulltext');
    // The service hands back the same Stats object while nothing changed: so can this view of it.
    const hit = statsViews.get(s);
    if (hit?.searchMode === searchMode) return hit;
    const view = { ...s, byCategory: Object.entries(s.byCategory).map(([category, count]) => ({ category, count })), searchMode };
    statsViews.set(s, view);
    return view;
  },
  fact: (_p, args, ctx) => ctx.svc.getFact(a(args).id ?? '', ctx.caller),
  facts: (_p, args, ctx) => ctx.svc.graphNodes(clean(a(args).filter), ctx.caller).map(nodeView),
  episodes: (_p, args, ctx) => ctx.svc.listEpisodes(ctx.caller, a(args).limit),
  links: (_p, args, ctx) => {
    const { factId, limit } = a(args);
    return ctx.svc.listLinks(ctx.caller, clean({ factId: factId as FactId | null | undefined, limit }));
  },
  search: async (_p, args, ctx) => {
    const { query = '', limit, category, includeSuperseded } = a(args);
    const r = await ctx.svc.search(clean({ query, limit, category, includeSuperseded }), ctx.caller);
    return {
      hits: r.results.map((h) => ({ fact: h.fact, score: h.score, why: { factId: h.fact.id, score: h.score, ...h.why } })),
      mode: r.mode,
      degraded: r.degraded,
      reason: r.reason,
    };
  },
  activity: (_p, args, ctx) => ctx.svc.recentActivity(ctx.caller, a(args).limit),
  recall: (_p, args, ctx) => ctx.svc.recallEvent(a(args).id ?? '', ctx.caller),
  recallHistory: (_p, args, ctx) => ctx.svc.recallHistory(ctx.caller, clean({ limit: a(args).limit, since: a(args).since })),
  orphans: (_p, args, ctx) => ctx.svc.orphans(ctx.caller, a(args).limit),
  suggestedLinks: (_p, args, ctx) => ctx.svc.suggestLinks(ctx.caller, clean({ threshold: a(args).threshold, limit: a(args).limit })),
  conflicts: (_p, args, ctx) => ctx.svc.listConflicts(ctx.caller, a(args).status),
  weakLinks: (_p, args, ctx) => ctx.svc.weakLinks(ctx.caller, a(args).limit),
  staleFacts: (_p, args, ctx) => ctx.svc.staleFacts(ctx.caller, a(args).limit),
};
