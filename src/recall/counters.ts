/**
 * Recall counters per target for callers without a session id (spec state table: below the limit a
 * detection with matches injects a hint and counts; at the limit nothing is injected; 0 = unlimited).
 * A caller with a session id is counted in recall_events instead (src/memory/credentials.ts), so every
 * process sharing the database agrees; a caller without one is one session per process. Bounded: the
 * oldest targets are forgotten past MAX_TARGETS.
 */
const MAX_TARGETS = 10_000;

export class RecallCounters {
  private readonly targets = new Map<string, number>();

  allows(target: string, limit: number): boolean {
    return limit === 0 || (this.targets.get(target) ?? 0) < limit;
  }

  count(target: string): number {
    if (!this.targets.has(target) && this.targets.size >= MAX_TARGETS) this.targets.delete(this.targets.keys().next().value as string);
    const n = (this.targets.get(target) ?? 0) + 1;
    this.targets.set(target, n);
    return n;
  }
}
