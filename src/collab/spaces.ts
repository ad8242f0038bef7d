/**
 * Memory spaces: create (editor and up; the creator is granted every permission on it), read (by
 * visibility), update (manage), delete (delete).
 */
import { PERMISSIONS, type MemorySpace, type SpaceVisibility } from '../core/collab.js';
import { allows } from '../core/collab-rules.js';
import { MemoryError } from '../core/errors.js';
import { newSpaceId, type OrgId, type SpaceId } from '../core/ids.js';
import { accessOf, loadOrg, requireOrg, requireSpace } from './access.js';
import type { CollabCtx } from './context.js';
import { createSpaceSchema, ids, parse, parseActor, updateSpaceSchema } from './inputs.js';

export type CreateSpaceInput = { orgId: string; name: string; visibility?: SpaceVisibility };
export type UpdateSpaceInput = { spaceId: string; name?: string; visibility?: SpaceVisibility };

function checkNameFree(ctx: CollabCtx, orgId: OrgId, name: string, self: SpaceId | null): void {
  const other = ctx.spaces.byName(orgId, name);
  if (other && other.id !== self) {
    throw new MemoryError('MEM_ERR_SPACE_EXISTS', `organization ${orgId} already has a space named ${JSON.stringify(other.name)} (${other.id})`);
  }
}

export function createSpace(ctx: CollabCtx, actor: string, input: CreateSpaceInput): MemorySpace {
  const who = parseActor(actor, 'createSpace');
  const i = parse(createSpaceSchema, input, 'createSpace');
  const now = ctx.now();
  return ctx.tx('createSpace', () => {
    const { org } = requireOrg(ctx, who, i.orgId, 'create_space');
    checkNameFree(ctx, org.id, i.name, null);
    const space: MemorySpace = { id: newSpaceId(now), orgId: org.id, name: i.name, visibility: i.visibility, createdBy: who, createdAt: now };
    ctx.spaces.insert(space);
    // The creator keeps full control of their space whatever happens to their org role later.
    for (const permission of PERMISSIONS) ctx.spaces.grant({ spaceId: space.id, userId: who, permission, grantedBy: who, grantedAt: now });
    ctx.record({
      orgId: org.id, spaceId: space.id, actorId: who, action: 'space.created', targetType: 'space', targetId: space.id,
      details: { name: space.name, visibility: space.visibility, creatorGrants: [...PERMISSIONS] },
    }, now);
    return space;
  });
}

/** Needs read: a private space is seen by its grantees and org owners/admins, an org space by members, a public one by anyone. */
export function getSpace(ctx: CollabCtx, actor: string, spaceId: string): MemorySpace {
  const who = parseActor(actor, 'getSpace');
  const id = parse(ids.space, spaceId, 'getSpace.spaceId');
  return requireSpace(ctx, who, id, { anyOf: ['read'] }).space;
}

/** The org's spaces the actor may read, oldest first (a non-member sees the public ones). */
export function listSpaces(ctx: CollabCtx, actor: string, orgId: string): MemorySpace[] {
  const who = parseActor(actor, 'listSpaces');
  const id = parse(ids.org, orgId, 'listSpaces.orgId');
  const org = loadOrg(ctx, id);
  return ctx.spaces.listForOrg(org.id).filter((s) => allows(accessOf(ctx, s, who), 'read'));
}

export function updateSpace(ctx: CollabCtx, actor: string, input: UpdateSpaceInput): MemorySpace {
  const who = parseActor(actor, 'updateSpace');
  const i = parse(updateSpaceSchema, input, 'updateSpace');
  const now = ctx.now();
  return ctx.tx('updateSpace', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['manage'] });
    const next: MemorySpace = { ...space, name: i.name ?? space.name, visibility: i.visibility ?? space.visibility };
    checkNameFree(ctx, space.orgId, next.name, space.id);
    ctx.spaces.update(space.id, next);
    ctx.record({
      orgId: space.orgId, spaceId: space.id, actorId: who, action: 'space.updated', targetType: 'space', targetId: space.id,
      details: { before: { name: space.name, visibility: space.visibility }, after: { name: next.name, visibility: next.visibility } },
    }, now);
    return next;
  });
}

/** Deletes the space with its grants, fact placements, suggestions and comments (the facts stay in memory). */
export function deleteSpace(ctx: CollabCtx, actor: string, spaceId: string): void {
  const who = parseActor(actor, 'deleteSpace');
  const id = parse(ids.space, spaceId, 'deleteSpace.spaceId');
  const now = ctx.now();
  ctx.tx('deleteSpace', () => {
    const { space } = requireSpace(ctx, who, id, { anyOf: ['delete'] });
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'space.deleted', targetType: 'space', targetId: space.id, details: { name: space.name } }, now);
    ctx.spaces.delete(space.id);
  });
}
