/** Conflict rows: raised by a CONTRADICTS link or a contradicting new fact; resolved by curation. */
import { prep } from './prepared.js';
import type { Database } from 'better-sqlite3';
import type { ConflictId, FactId } from '../core/ids.js';
import type { Visibility } from '../core/scope.js';
import type { Conflict, ConflictResolution, ConflictStatus } from '../core/types.js';
import { toConflict, type ConflictRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

export class ConflictRepo {
  constructor(private readonly db: Database) {}

  insert(c: Conflict): void {
    prep(this.db, 'INSERT INTO conflicts (id, new_fact_id, old_fact_id, status, resolution, reason, created_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(c.id, c.newFactId, c.oldFactId, c.status, c.resolution, c.reason, c.createdAt, c.resolvedAt);
  }

  get(id: string): Conflict | null {
    const row = prep(this.db, 'SELECT * FROM conflicts WHERE id = ?').get(id) as ConflictRow | undefined;
    return row ? toConflict(row) : null;
  }

  openBetween(a: FactId, b: FactId): Conflict | null {
    // Matches the conflicts_pair expression index exactly.
    const row = prep(this.db, `SELECT * FROM conflicts WHERE min(new_fact_id, old_fact_id) = ? AND max(new_fact_id, old_fact_id) = ? AND status = 'unresolved'`)
      .get(a < b ? a : b, a < b ? b : a) as ConflictRow | undefined;
    return row ? toConflict(row) : null;
  }

  close(id: ConflictId, status: Exclude<ConflictStatus, 'unresolved'>, resolution: ConflictResolution, at: number): void {
    prep(this.db, 'UPDATE conflicts SET status = ?, resolution = ?, resolved_at = ? WHERE id = ?').run(status, resolution, at, id);
  }

  /** Conflicts whose both facts the caller may see, newest first. Default: unresolved only. */
  list(v: Visibility, options: { status?: ConflictStatus; limit?: number } = {}): Conflict[] {
    const a = scopeSql(v, 'a');
    const b = scopeSql(v, 'b');
    const limit = Math.min(Math.max(1, options.limit ?? 100), 1000);
    const sql = `SELECT c.* FROM conflicts c JOIN facts a ON a.id = c.new_fact_id JOIN facts b ON b.id = c.old_fact_id
      WHERE c.status = ? AND ${a.sql} AND ${b.sql} ORDER BY c.created_at DESC LIMIT ${limit}`;
    return (prep(this.db, sql).all(options.status ?? 'unresolved', ...a.params, ...b.params) as ConflictRow[]).map(toConflict);
  }

  /**
   * A fact version was superseded by `toId`: its open conflicts follow the successor. A conflict whose two
   * sides become one fact is settled (resolved, keeping the survivor); one that would duplicate an open
   * conflict of the successor is closed the same way.
   */
  repoint(fromId: FactId, toId: FactId, at: number): void {
    prep(this.db, `UPDATE conflicts SET status = 'resolved', resolution = CASE WHEN new_fact_id = ? THEN 'keep_new' ELSE 'keep_old' END, resolved_at = ?
        WHERE status = 'unresolved' AND ((new_fact_id = ? AND old_fact_id = ?) OR (old_fact_id = ? AND new_fact_id = ?))`)
      .run(toId, at, fromId, toId, fromId, toId);
    prep(this.db, `UPDATE OR IGNORE conflicts SET new_fact_id = ? WHERE status = 'unresolved' AND new_fact_id = ?`).run(toId, fromId);
    prep(this.db, `UPDATE OR IGNORE conflicts SET old_fact_id = ? WHERE status = 'unresolved' AND old_fact_id = ?`).run(toId, fromId);
    this.closeInvolving(fromId, at);
  }

  /** A fact stopped being current (deleted, expired, decayed): its open conflicts are settled for the other side. */
  closeInvolving(id: FactId, at: number): void {
    prep(this.db, `UPDATE conflicts SET status = 'resolved', resolution = CASE WHEN new_fact_id = ? THEN 'keep_old' ELSE 'keep_new' END, resolved_at = ?
        WHERE status = 'unresolved' AND (new_fact_id = ? OR old_fact_id = ?)`)
      .run(id, at, id, id);
  }
}
