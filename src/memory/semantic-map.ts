/**
 * The semantic map (issue 21): the graph's facts placed by meaning, a 2-D projection of their stored
 * embeddings (src/core/projection.ts), so related memory sits together even without links. It reads what
 * the graph reads (same filter and scope, `asOf` included) plus the vectors of the model that embedded them;
 * a heavy read, so the dashboard runs it on the read worker.
 */
import type { Caller } from '../core/types.js';
import { project2d } from '../core/projection.js';
import { VectorRepo } from '../store/vectors.js';
import type { Ctx } from './context.js';
import { readGraph, type GraphFilter } from './graph.js';

export interface MapPoint {
  readonly id: string;
  /** In [-1, 1]: the first principal component of the placed facts' embeddings. */
  readonly x: number;
  /** In [-1, 1]: the second. */
  readonly y: number;
}

export interface SemanticMap {
  readonly points: readonly MapPoint[];
  /** Facts the filter selects that have no vector (yet) from the current model: not placed. */
  readonly unplaced: number;
  /** The embedding model the vectors come from, or null when nothing was ever embedded. */
  readonly model: string | null;
  readonly truncated: boolean;
}

export function semanticMap(ctx: Ctx, filter: GraphFilter, caller: Caller): SemanticMap {
  const graph = readGraph(ctx, filter, caller, false);
  const vectors = new VectorRepo(ctx.db);
  const model = vectors.getMeta('embedding.modelId');
  const ids = graph.nodes.map((n) => n.fact.id);
  const found = model ? vectors.byFactIds(ids, model) : new Map<string, Float32Array>();
  const dim = found.values().next().value?.length ?? 0;
  const placed = ids.filter((id) => found.get(id)?.length === dim);
  const rows = new Float32Array(placed.length * dim);
  placed.forEach((id, r) => rows.set(found.get(id) as Float32Array, r * dim));
  const xy = project2d(rows, placed.length, dim);
  const round = (v: number): number => Math.round(v * 1e4) / 1e4;
  return {
    points: placed.map((id, r) => ({ id, x: round(xy[r * 2] as number), y: round(xy[r * 2 + 1] as number) })),
    unplaced: ids.length - placed.length,
    model,
    truncated: graph.truncated,
  };
}
