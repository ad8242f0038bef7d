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
