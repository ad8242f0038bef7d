/**
 * The collaboration access rules, pure (spec: Authentication 8 and 9; the role table is ours, the spec
 * leaves it open). Every CollabService operation asks these functions before it changes or reveals
 * anything; docs/collaboration.md documents the same tables.
 *
 * Role -> permission on the spaces of the organization:
 *
 * | role   | read | write | delete | manage | organization-level extras                       |
 * |--------|------|-------|--------|--------|-------------------------------------------------|
 * | owner  | yes  | yes   | yes    | yes    | delete the org, transfer ownership, add/change/remove owners |
 * | admin  | yes  | yes   | yes    | yes    | update the org, add/change/remove non-owner members |
 * | editor | yes  | yes   | -      | -      | create spaces                                   |
 * | viewer | yes  | -     | -      | -      | -                                               |
 *
 * Override: an org owner or admin has every permission on every space of the org, whatever the space's
 * visibility or grants say (nothing at space level can take it away). For editors and viewers the role
 * is a floor on `org` and `public` spaces, and grants add to it (a viewer granted `write` on one space
 * writes there); a `private` space gives them nothing from the role: only their grants count there.
 * Any grant also gives `read` (a permission on a space one cannot see is meaningless). Non-members get
 * `read` on `public` spaces and nothing else.
 */
import { PERMISSIONS, type OrgRole, type Permission, type SpaceVisibility } from './collab.js';

export const ROLE_PERMISSIONS: Readonly<Record<OrgRole, readonly Permission[]>> = Object.freeze({
  owner: ['read', 'write', 'delete', 'manage'],
  admin: ['read', 'write', 'delete', 'manage'],
  editor: ['read', 'write'],
  viewer: ['read'],
});

/** Org roles whose permissions override every space-level setting. */
export const OVERRIDING_ROLES: readonly OrgRole[] = ['owner', 'admin'];

/** Organization-level actions (not tied to one space) and the roles that may perform them. */
export const ORG_ACTIONS = ['view', 'create_space', 'update', 'manage_members', 'delete', 'transfer_ownership'] as const;
export type OrgAction = (typeof ORG_ACTIONS)[number];

export const ORG_ACTION_ROLES: Readonly<Record<OrgAction, readonly OrgRole[]>> = Object.freeze({
  /** Read the org, its members and its activity trail. */
  view: ['owner', 'admin', 'editor', 'viewer'],
  create_space: ['owner', 'admin', 'editor'],
  update: ['owner', 'admin'],
  manage_members: ['owner', 'admin'],
  delete: ['owner'],
  transfer_ownership: ['owner'],
});

export function orgAllows(role: OrgRole | null, action: OrgAction): boolean {
  return role !== null && ORG_ACTION_ROLES[action].includes(role);
}

/** What decides a user's permissions on one space. */
export interface SpaceAccess {
  /** The user's role in the space's organization, or null for a non-member. */
  readonly role: OrgRole | null;
  readonly visibility: SpaceVisibility;
  /** The user's grants on this space (only members hold grants). */
  readonly grants: readonly Permission[];
}

/** The user's effective permissions on a space, in PERMISSIONS order. */
export function effectivePermissions(a: SpaceAccess): Permission[] {
  if (a.role !== null && OVERRIDING_ROLES.includes(a.role)) return [...PERMISSIONS];
  const has = new Set<Permission>();
  if (a.role !== null) {
    if (a.visibility !== 'private') for (const p of ROLE_PERMISSIONS[a.role]) has.add(p);
    for (const p of a.grants) has.add(p);
    if (a.grants.length > 0) has.add('read');
  }
  if (a.visibility === 'public') has.add('read');
  return PERMISSIONS.filter((p) => has.has(p));
}

export function allows(a: SpaceAccess, permission: Permission): boolean {
  return effectivePermissions(a).includes(permission);
}

/** A membership change: the acting member, the member changed (current role, or null when added), the role after (null when removed). */
export interface MemberChange {
  readonly actor: { readonly userId: string; readonly role: OrgRole };
  readonly target: { readonly userId: string; readonly role: OrgRole | null };
  readonly next: OrgRole | null;
  /** Owners in the org before the change. */
  readonly owners: number;
}

/**
 * Why a membership change is refused, or null when it is allowed:
 * - adding, changing or removing members needs `manage_members` (owner, admin), except that any member
 *   may leave (remove themself);
 * - only an owner may make someone an owner or change or remove an owner;
 * - the last owner can be neither removed nor demoted ('last_owner').
 */
export function memberChangeRefusal(c: MemberChange): 'permission' | 'last_owner' | null {
  const leaving = c.next === null && c.actor.userId === c.target.userId;
  if (!leaving && !orgAllows(c.actor.role, 'manage_members')) return 'permission';
  const touchesOwner = c.target.role === 'owner' || c.next === 'owner';
  if (touchesOwner && c.actor.role !== 'owner') return 'permission';
  if (c.target.role === 'owner' && c.next !== 'owner' && c.owners <= 1) return 'last_owner';
  return null;
}
