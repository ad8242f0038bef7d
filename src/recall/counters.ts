/**
 * Recall counters per target per session (spec state table): below the limit a detection with matches
 * injects a hint and counts; at the limit nothing is injected; a limit of 0 means unlimited. Bounded: the
 * oldest sessions are forgotten past MAX_SESSIONS.
 */
const MAX_SESSIONS = 10_000;

export class RecallCounters {
  private readonly sessions = new Map<string, Map<string, number>>();

  allows(session: string, target: string, limit: number): boolean {
    return limit === 0 || (this.sessions.get(session)?.get(target) ?? 0) < limit;
  }

  count(session: string, target: string): number {
    let targets = this.sessions.get(session);
    if (!targets) {
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
      targets = new Map();
      this.sessions.set(session, targets);
    }
    const n = (targets.get(target) ?? 0) + 1;
    targets.set(target, n);
    return n;
  }

  get(session: string, target: string): number {
    return this.sessions.get(session)?.get(target) ?? 0;
  }
}
