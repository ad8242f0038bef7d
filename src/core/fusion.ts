/**
 * Reciprocal rank fusion: each leg contributes 1 / (K + rank) for every item it ranked (rank from 1).
 * Robust to legs whose scores live on different scales (bm25 vs cosine), which is why it is used to fuse
 * full-text and vector results.
 */

/** The usual constant from the RRF paper (Cormack et al., 2009). */
export const RRF_K = 60;

export interface Fused<T> {
  readonly key: string;
  readonly item: T;
  readonly fused: number;
  /** Rank in each leg (1-based), or null when the leg did not return the item. */
  readonly ranks: readonly (number | null)[];
}

/** Fuse ranked lists of items identified by `key`. Ties keep the order of the first list that ranked them. */
export function rrf<T>(legs: readonly (readonly T[])[], key: (item: T) => string, k = RRF_K): Fused<T>[] {
  const byKey = new Map<string, { item: T; fused: number; ranks: (number | null)[]; first: number }>();
  legs.forEach((list, leg) => {
    list.forEach((item, i) => {
      const id = key(item);
      let entry = byKey.get(id);
      if (!entry) {
        entry = { item, fused: 0, ranks: legs.map(() => null), first: leg * 1e6 + i };
        byKey.set(id, entry);
      }
      entry.fused += 1 / (k + i + 1);
      entry.ranks[leg] = i + 1;
    });
  });
  return [...byKey.entries()]
    .sort((a, b) => b[1].fused - a[1].fused || a[1].first - b[1].first)
    .map(([id, e]) => ({ key: id, item: e.item, fused: e.fused, ranks: e.ranks }));
}

/** Vector similarities are min-max normalized over this many nearest neighbours (whatever the limit). */
export const NORM_DEPTH = 50;

/** The weight of the vector leg in score fusion (the full-text leg has 1 - this), tuned on the dev split of eval/recall. */
export const DEFAULT_VECTOR_WEIGHT = 0.35;

/**
 * The vector leg's weight for a dialogue turn (src/core/embed-text.ts): its vector carries the turn it
 * answers, so meaning is a better witness there than on a note; tuned on the chat sets' dev split.
 */
export const DEFAULT_TURN_VECTOR_WEIGHT = 0.45;

export interface LegHit<T> {
  readonly item: T;
  /** The leg's own score: bm25 relevance (higher is better) or cosine similarity. */
  readonly score: number;
}

export interface ScoreFused<T> {
  readonly key: string;
  readonly item: T;
  /** In [0, 1]: (1 - w) x the normalized full-text score + w x the normalized vector score. */
  readonly fused: number;
  /** Rank in each leg (1-based), or null. */
  readonly ranks: readonly [number | null, number | null];
}

/**
 * Weighted score fusion of a full-text leg and a vector leg. Each leg's scores are normalized per query:
 * bm25 by the best bm25 (0 = no match, 1 = the best match), similarity min-max over the vector leg's list
 * (its depth should not vary with the caller's limit). Unlike equal-weight RRF, a leg that is weak on some
 * data cannot push strong matches of the other out of the top: with w = 0.35 a fact only the vector leg
 * found scores at most 0.35, below any full-text match scoring over 0.54 of the best. Ties keep full-text order.
 */
export function fuseScores<T>(
  fts: readonly LegHit<T>[],
  vec: readonly LegHit<T>[],
  key: (item: T) => string,
  /** The vector leg's weight: one for every item, or each item's own. */
  vectorWeight: number | ((item: T) => number) = DEFAULT_VECTOR_WEIGHT,
  /** The similarities the vector leg's scores are normalized over, when `vec` holds only some of its hits. */
  vecScores: readonly number[] = vec.map((h) => h.score),
): ScoreFused<T>[] {
  const w = (item: T): number => (vec.length === 0 ? 0 : fts.length === 0 ? 1 : typeof vectorWeight === 'number' ? vectorWeight : vectorWeight(item));
  const byKey = new Map<string, { item: T; fused: number; ranks: [number | null, number | null]; order: number }>();
  const bestF = fts.reduce((m, h) => Math.max(m, h.score), 0);
  fts.forEach((h, i) => {
    const k = key(h.item);
    if (byKey.has(k)) return;
    byKey.set(k, { item: h.item, fused: (1 - w(h.item)) * (bestF > 0 ? h.score / bestF : 1 / (i + 1)), ranks: [i + 1, null], order: i });
  });
  const top = vecScores.reduce((m, s) => Math.max(m, s), -Infinity);
  const low = vecScores.slice(0, NORM_DEPTH).reduce((m, s) => Math.min(m, s), Infinity);
  vec.forEach((h, i) => {
    const k = key(h.item);
    const norm = top > low ? Math.max(0, (h.score - low) / (top - low)) : 1;
    const e = byKey.get(k) ?? { item: h.item, fused: 0, ranks: [null, null] as [number | null, number | null], order: fts.length + i };
    if (e.ranks[1] !== null) return;
    e.fused += w(h.item) * norm;
    e.ranks[1] = i + 1;
    byKey.set(k, e);
  });
  return [...byKey.entries()].sort((a, b) => b[1].fused - a[1].fused || a[1].order - b[1].order).map(([k, e]) => ({ key: k, item: e.item, fused: e.fused, ranks: e.ranks }));
}
