/** Latency statistics shared by the benches that time calls one by one. */

/** Linear-interpolated quantile of an ascending-sorted list. */
export const quantile = (sorted: readonly number[], q: number): number => {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
};

/** The figures every latency table prints, in milliseconds. */
export interface LatencyStats {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}
