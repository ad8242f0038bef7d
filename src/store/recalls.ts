/**
 * recall_events: every recall with its per-fact scores and its owner. Reading is ownership-gated by the
 * rule `ownsRecall` in src/core/scope.ts, mirrored here in SQL.
 */
import { prep } from './prepared.js';
import type { Database } from 'better-sqlite3';
import type { Caller, RecallEvent } from '../core/types.js';
import { toRecall, type RecallRow } from './rows.js';

export class RecallRepo {
  constructor(private readonly db: Database) {}

  insert(e: RecallEvent): void {
    prep(this.db, 'INSERT INTO recall_events (id, kind, query, target, owner_role, owner_agent, owner_session, scores, created_at, excerpt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.id, e.kind, e.query, e.target, e.owner.role, e.owner.agentId, e.owner.sessionId, JSON.stringify(e.scores), e.createdAt, e.excerpt);
  }

  list(caller: Caller, options: { limit?: number; since?: number } = {}): RecallEvent[] {
    const limit = Math.min(Math.max(1, options.limit ?? 50), 1000);
    const since = options.since ?? 0;
    let rows: RecallRow[];
    if (caller.role === 'operator') {
      rows = prep(this.db, `SELECT * FROM recall_events WHERE created_at >= ? ORDER BY created_at DESC LIMIT ${limit}`).all(since) as RecallRow[];
    } else if (caller.agentId) {
      rows = prep(this.db, `SELECT * FROM recall_events WHERE owner_agent = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ${limit}`)
        .all(caller.agentId, since) as RecallRow[];
    } else if (caller.sessionId) {
      rows = prep(this.db, `SELECT * FROM recall_events WHERE owner_agent IS NULL AND owner_session = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ${limit}`)
        .all(caller.sessionId, since) as RecallRow[];
    } else {
      rows = [];
    }
    return rows.map(toRecall);
  }

  get(id: string): RecallEvent | null {
    const row = prep(this.db, 'SELECT * FROM recall_events WHERE id = ?').get(id) as RecallRow | undefined;
    return row ? toRecall(row) : null;
  }

  /** How many auth-failure hints this session was given for this target (any process, any agent). */
  authHints(sessionId: string, target: string): number {
    const row = prep(this.db, "SELECT count(*) AS n FROM recall_events WHERE owner_session = ? AND target = ? AND kind = 'auth_failure'").get(sessionId, target) as { n: number };
    return row.n;
  }

  /** The facts injected into a session's turns so far (recall events of kind 'relevant'). */
  relevantFactIds(sessionId: string): Set<string> {
    const rows = prep(this.db, "SELECT scores FROM recall_events WHERE owner_session = ? AND kind = 'relevant'").pluck().all(sessionId) as string[];
    const ids = new Set<string>();
    for (const json of rows) for (const s of JSON.parse(json) as { factId: string }[]) ids.add(s.factId);
    return ids;
  }

  /** Trim by age (maintenance). */
  trim(before: number): number {
    return prep(this.db, 'DELETE FROM recall_events WHERE created_at < ?').run(before).changes;
  }
}
