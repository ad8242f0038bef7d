/** Memory spaces and the fine-grained permission grants on them. */
import type { Database } from 'better-sqlite3';
import type { MemorySpace, Permission, SpacePermission, SpaceVisibility } from '../core/collab.js';
import type { SpaceId } from '../core/ids.js';
import { toGrant, toSpace, type GrantRow, type SpaceRow } from './collab-rows.js';
import { prep } from './prepared.js';

export class SpaceRepo {
  constructor(private readonly db: Database) {}

  insert(s: MemorySpace): void {
    prep(this.db, 'INSERT INTO collab_spaces (id, org_id, name, visibility, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.id, s.orgId, s.name, s.visibility, s.createdBy, s.createdAt);
  }

  get(id: string): MemorySpace | null {
    const row = prep(this.db, 'SELECT * FROM collab_spaces WHERE id = ?').get(id) as SpaceRow | undefined;
    return row ? toSpace(row) : null;
  }

  /** The space of the org with that name (ignoring case), if any. */
  byName(orgId: string, name: string): MemorySpace | null {
    const row = prep(this.db, 'SELECT * FROM collab_spaces WHERE org_id = ? AND name = ? COLLATE NOCASE').get(orgId, name) as SpaceRow | undefined;
    return row ? toSpace(row) : null;
  }

  /** The org's spaces, oldest first. */
  listForOrg(orgId: string): MemorySpace[] {
    return (prep(this.db, 'SELECT * FROM collab_spaces WHERE org_id = ? ORDER BY created_at, rowid').all(orgId) as SpaceRow[]).map(toSpace);
  }

  update(id: SpaceId, fields: { name: string; visibility: SpaceVisibility }): void {
    prep(this.db, 'UPDATE collab_spaces SET name = ?, visibility = ? WHERE id = ?').run(fields.name, fields.visibility, id);
  }

  /** Deletes the space with its grants, fact placements, suggestions and comments. */
  delete(id: SpaceId): void {
    prep(this.db, 'DELETE FROM collab_spaces WHERE id = ?').run(id);
  }

  /** Adds a grant; false when the user already held it. */
  grant(g: SpacePermission): boolean {
    return prep(this.db, 'INSERT OR IGNORE INTO collab_space_permissions (space_id, user_id, permission, granted_by, granted_at) VALUES (?, ?, ?, ?, ?)')
      .run(g.spaceId, g.userId, g.permission, g.grantedBy, g.grantedAt).changes === 1;
  }

  /** Removes a grant; false when the user did not hold it. */
  revoke(spaceId: SpaceId, userId: string, permission: Permission): boolean {
    return prep(this.db, 'DELETE FROM collab_space_permissions WHERE space_id = ? AND user_id = ? AND permission = ?').run(spaceId, userId, permission).changes === 1;
  }

  /** The permissions the user was granted on the space. */
  grantsOf(spaceId: string, userId: string): Permission[] {
    return (prep(this.db, 'SELECT * FROM collab_space_permissions WHERE space_id = ? AND user_id = ?').all(spaceId, userId) as GrantRow[]).map((r) => toGrant(r).permission);
  }

  /** Every grant on the space, by user, then in the order read, write, delete, manage. */
  grants(spaceId: string): SpacePermission[] {
    const sql = `SELECT * FROM collab_space_permissions WHERE space_id = ?
      ORDER BY user_id, CASE permission WHEN 'read' THEN 0 WHEN 'write' THEN 1 WHEN 'delete' THEN 2 ELSE 3 END`;
    return (prep(this.db, sql).all(spaceId) as GrantRow[]).map(toGrant);
  }
}
