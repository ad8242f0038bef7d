/** The collaboration activity trail: append-only, read newest first. */
import type { Database } from 'better-sqlite3';
import type { Activity } from '../core/collab.js';
import { toActivity, type ActivityRow } from './collab-rows.js';
import { prep } from './prepared.js';

export class ActivityRepo {
  constructor(private readonly db: Database) {}

  append(a: Activity): void {
    prep(this.db, `INSERT INTO collab_activities (id, org_id, space_id, actor_id, action, target_type, target_id, details, at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(a.id, a.orgId, a.spaceId, a.actorId, a.action, a.targetType, a.targetId, JSON.stringify(a.details), a.at);
  }

  /**
   * The org's newest activities, newest first (ties in time broken by insertion order). With
   * `spaceIds`, space-level records are limited to those spaces (org-level records are always included).
   */
  recent(orgId: string, limit: number, spaceIds: readonly string[] | 'all'): Activity[] {
    if (spaceIds === 'all') {
      const rows = prep(this.db, 'SELECT * FROM collab_activities WHERE org_id = ? ORDER BY at DESC, seq DESC LIMIT ?').all(orgId, limit);
      return (rows as ActivityRow[]).map(toActivity);
    }
    // A JSON array keeps the statement text fixed however many spaces the reader may see.
    const sql = `SELECT * FROM collab_activities WHERE org_id = ? AND (space_id IS NULL OR space_id IN (SELECT value FROM json_each(?)))
      ORDER BY at DESC, seq DESC LIMIT ?`;
    return (prep(this.db, sql).all(orgId, JSON.stringify(spaceIds), limit) as ActivityRow[]).map(toActivity);
  }
}
