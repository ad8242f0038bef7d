/**
 * Facts placed in spaces. A placement holds the fact's lineage id, so an edit (a new version) stays in
 * the space; reads return each lineage's current version, scope-filtered in SQL like every fact read.
 */
import type { Database } from 'better-sqlite3';
import type { SpaceFact } from '../core/collab.js';
import type { FactId, SpaceId } from '../core/ids.js';
import type { Visibility } from '../core/scope.js';
import type { Fact } from '../core/types.js';
import { toSpaceFact, type SpaceFactRow } from './collab-rows.js';
import { prep } from './prepared.js';
import { toFact, type FactRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

export class SpaceFactRepo {
  constructor(private readonly db: Database) {}

  insert(p: SpaceFact): void {
    prep(this.db, 'INSERT INTO collab_space_facts (space_id, lineage_id, added_by, added_at) VALUES (?, ?, ?, ?)').run(p.spaceId, p.lineageId, p.addedBy, p.addedAt);
  }

  get(spaceId: string, lineageId: string): SpaceFact | null {
    const row = prep(this.db, 'SELECT * FROM collab_space_facts WHERE space_id = ? AND lineage_id = ?').get(spaceId, lineageId) as SpaceFactRow | undefined;
    return row ? toSpaceFact(row) : null;
  }

  delete(spaceId: SpaceId, lineageId: FactId): void {
    prep(this.db, 'DELETE FROM collab_space_facts WHERE space_id = ? AND lineage_id = ?').run(spaceId, lineageId);
  }

  /** The placements of a space, oldest first. */
  list(spaceId: string): SpaceFact[] {
    return (prep(this.db, 'SELECT * FROM collab_space_facts WHERE space_id = ? ORDER BY added_at, rowid').all(spaceId) as SpaceFactRow[]).map(toSpaceFact);
  }

  /** The current version of every fact in the space that `v` may see, in placement order. */
  currentFacts(spaceId: string, v: Visibility, limit: number): Fact[] {
    const scope = scopeSql(v, 'f');
    const sql = `SELECT f.* FROM collab_space_facts p JOIN facts f ON f.lineage_id = p.lineage_id AND f.valid_until IS NULL
      WHERE p.space_id = ? AND ${scope.sql} ORDER BY p.added_at, p.rowid LIMIT ?`;
    return (prep(this.db, sql).all(spaceId, ...scope.params, limit) as FactRow[]).map(toFact);
  }
}
