/** Organizations and their members. */
import type { Database } from 'better-sqlite3';
import type { Member, Organization, OrgRole } from '../core/collab.js';
import type { OrgId } from '../core/ids.js';
import { toMember, toOrg, type MemberRow, type OrgRow } from './collab-rows.js';
import { prep } from './prepared.js';

export class OrgRepo {
  constructor(private readonly db: Database) {}

  insert(o: Organization): void {
    prep(this.db, 'INSERT INTO collab_orgs (id, name, plan, created_at) VALUES (?, ?, ?, ?)').run(o.id, o.name, o.plan, o.createdAt);
  }

  get(id: string): Organization | null {
    const row = prep(this.db, 'SELECT * FROM collab_orgs WHERE id = ?').get(id) as OrgRow | undefined;
    return row ? toOrg(row) : null;
  }

  update(id: OrgId, fields: { name: string; plan: string }): void {
    prep(this.db, 'UPDATE collab_orgs SET name = ?, plan = ? WHERE id = ?').run(fields.name, fields.plan, id);
  }

  /** Deletes the org; its members and spaces (and everything in them) go with it. */
  delete(id: OrgId): void {
    prep(this.db, 'DELETE FROM collab_orgs WHERE id = ?').run(id);
  }

  /** Organizations the user is a member of, oldest first. */
  listForUser(userId: string): Organization[] {
    const rows = prep(this.db, `SELECT o.* FROM collab_orgs o JOIN collab_members m ON m.org_id = o.id WHERE m.user_id = ? ORDER BY o.created_at, o.rowid`)
      .all(userId) as OrgRow[];
    return rows.map(toOrg);
  }

  insertMember(m: Member): void {
    prep(this.db, 'INSERT INTO collab_members (org_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)').run(m.orgId, m.userId, m.role, m.joinedAt);
  }

  member(orgId: string, userId: string): Member | null {
    const row = prep(this.db, 'SELECT * FROM collab_members WHERE org_id = ? AND user_id = ?').get(orgId, userId) as MemberRow | undefined;
    return row ? toMember(row) : null;
  }

  /** Members in join order. */
  members(orgId: string): Member[] {
    return (prep(this.db, 'SELECT * FROM collab_members WHERE org_id = ? ORDER BY joined_at, rowid').all(orgId) as MemberRow[]).map(toMember);
  }

  countRole(orgId: string, role: OrgRole): number {
    return prep(this.db, 'SELECT count(*) FROM collab_members WHERE org_id = ? AND role = ?').pluck().get(orgId, role) as number;
  }

  setRole(orgId: OrgId, userId: string, role: OrgRole): void {
    prep(this.db, 'UPDATE collab_members SET role = ? WHERE org_id = ? AND user_id = ?').run(role, orgId, userId);
  }

  /** Removes the member and every grant they hold on the org's spaces. */
  deleteMember(orgId: OrgId, userId: string): void {
    prep(this.db, 'DELETE FROM collab_space_permissions WHERE user_id = ? AND space_id IN (SELECT id FROM collab_spaces WHERE org_id = ?)').run(userId, orgId);
    prep(this.db, 'DELETE FROM collab_members WHERE org_id = ? AND user_id = ?').run(orgId, userId);
  }
}
