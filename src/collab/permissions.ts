/**
 * Fine-grained grants on spaces (manage), and the permission questions: hasPermission (the spec's
 * operation) and permissionsOf. Granting what a user already holds, or revoking what they do not,
 * changes nothing and records nothing.
 */
import type { Permission, SpacePermission } from '../core/collab.js';
import { effectivePermissions } from '../core/collab-rules.js';
import { accessOf, loadMember, loadSpace, requireSpace } from './access.js';
import type { CollabCtx } from './context.js';
import { grantSchema, ids, parse, parseActor, permissionSchema, userId } from './inputs.js';

export type GrantInput = { spaceId: string; userId: string; permission: Permission };

/** Grant a permission on a space to a member of its org. Returns whether anything changed. */
export function grantPermission(ctx: CollabCtx, actor: string, input: GrantInput): boolean {
  const who = parseActor(actor, 'grantPermission');
  const i = parse(grantSchema, input, 'grantPermission');
  const now = ctx.now();
  return ctx.tx('grantPermission', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['manage'] });
    loadMember(ctx, space.orgId, i.userId);
    const grant: SpacePermission = { spaceId: space.id, userId: i.userId, permission: i.permission, grantedBy: who, grantedAt: now };
    if (!ctx.spaces.grant(grant)) return false;
    ctx.record({
      orgId: space.orgId, spaceId: space.id, actorId: who, action: 'permission.granted', targetType: 'permission', targetId: `${space.id}/${i.userId}/${i.permission}`,
      details: { userId: i.userId, permission: i.permission },
    }, now);
    return true;
  });
}

/** Revoke a grant. Returns whether anything changed. The org role's permissions are not grants and stay. */
export function revokePermission(ctx: CollabCtx, actor: string, input: GrantInput): boolean {
  const who = parseActor(actor, 'revokePermission');
  const i = parse(grantSchema, input, 'revokePermission');
  const now = ctx.now();
  return ctx.tx('revokePermission', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['manage'] });
    loadMember(ctx, space.orgId, i.userId);
    if (!ctx.spaces.revoke(space.id, i.userId, i.permission)) return false;
    ctx.record({
      orgId: space.orgId, spaceId: space.id, actorId: who, action: 'permission.revoked', targetType: 'permission', targetId: `${space.id}/${i.userId}/${i.permission}`,
      details: { userId: i.userId, permission: i.permission },
    }, now);
    return true;
  });
}

/** The grants on a space (needs read on it). */
export function listSpacePermissions(ctx: CollabCtx, actor: string, spaceId: string): SpacePermission[] {
  const who = parseActor(actor, 'listSpacePermissions');
  const id = parse(ids.space, spaceId, 'listSpacePermissions.spaceId');
  const { space } = requireSpace(ctx, who, id, { anyOf: ['read'] });
  return ctx.spaces.grants(space.id);
}

/**
 * The spec's check: does `user` hold `permission` on the space (org role, override, visibility and
 * grants together)? It answers a question about its own subject and changes nothing, so it takes no
 * separate acting user.
 */
export function hasPermission(ctx: CollabCtx, user: string, spaceId: string, permission: Permission): boolean {
  return permissionsOf(ctx, user, spaceId).includes(parse(permissionSchema, permission, 'hasPermission.permission'));
}

/** Every permission `user` holds on the space, in the order read, write, delete, manage. */
export function permissionsOf(ctx: CollabCtx, user: string, spaceId: string): Permission[] {
  const u = parse(userId, user, 'hasPermission.userId');
  const space = loadSpace(ctx, parse(ids.space, spaceId, 'hasPermission.spaceId'));
  return effectivePermissions(accessOf(ctx, space, u));
}
