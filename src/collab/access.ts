/**
 * Loading collaboration records for an operation, with the permission check every operation makes
 * before it changes or reveals anything. The rules themselves are pure (src/core/collab-rules.ts).
 */
import type { Member, MemorySpace, Organization, OrgRole, Permission } from '../core/collab.js';
import { effectivePermissions, orgAllows, type OrgAction, type SpaceAccess } from '../core/collab-rules.js';
import { MemoryError } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import type { Fact } from '../core/types.js';
import type { CollabCtx } from './context.js';

export function denied(actor: string, needs: string, target: string): MemoryError {
  return new MemoryError('MEM_ERR_PERMISSION_DENIED', `user ${JSON.stringify(actor)} may not ${needs} (${target})`, {
    details: { actor, needs, target },
  });
}

export function loadOrg(ctx: CollabCtx, orgId: string): Organization {
  const org = ctx.orgs.get(orgId);
  if (!org) throw new MemoryError('MEM_ERR_ORG_NOT_FOUND', `no organization ${orgId}`);
  return org;
}

export function loadMember(ctx: CollabCtx, orgId: string, userId: string): Member {
  const m = ctx.orgs.member(orgId, userId);
  if (!m) throw new MemoryError('MEM_ERR_MEMBER_NOT_FOUND', `user ${JSON.stringify(userId)} is not a member of organization ${orgId}`);
  return m;
}

export function loadSpace(ctx: CollabCtx, spaceId: string): MemorySpace {
  const space = ctx.spaces.get(spaceId);
  if (!space) throw new MemoryError('MEM_ERR_SPACE_NOT_FOUND', `no space ${spaceId}`);
  return space;
}

const ORG_ACTION_WORDS: Readonly<Record<OrgAction, string>> = {
  view: 'view the organization',
  create_space: 'create spaces in the organization',
  update: 'update the organization',
  manage_members: 'manage the organization\u2019s members',
  delete: 'delete the organization',
  transfer_ownership: 'transfer ownership of the organization',
};

/** The org, and the actor's membership, when the actor's role allows `action`; otherwise a typed refusal. */
export function requireOrg(ctx: CollabCtx, actor: string, orgId: string, action: OrgAction): { org: Organization; member: Member } {
  const org = loadOrg(ctx, orgId);
  const member = ctx.orgs.member(orgId, actor);
  if (!member || !orgAllows(member.role, action)) {
    throw denied(actor, ORG_ACTION_WORDS[action], `organization ${orgId}, role ${member?.role ?? 'none'}`);
  }
  return { org, member };
}

/** What decides `userId`'s permissions on `space`. */
export function accessOf(ctx: CollabCtx, space: MemorySpace, userId: string): SpaceAccess & { role: OrgRole | null } {
  const role = ctx.orgs.member(space.orgId, userId)?.role ?? null;
  return { role, visibility: space.visibility, grants: role === null ? [] : ctx.spaces.grantsOf(space.id, userId) };
}

export interface SpaceCheck {
  /** Any one of these permissions is enough. */
  readonly anyOf: readonly Permission[];
  /** Only members of the space's org pass (a public space opens reads, not contributions, to outsiders). */
  readonly membersOnly?: boolean;
}

/** The space, when the actor holds one of the permissions on it; otherwise a typed refusal. */
export function requireSpace(ctx: CollabCtx, actor: string, spaceId: string, check: SpaceCheck): { space: MemorySpace; role: OrgRole | null; permissions: Permission[] } {
  const space = loadSpace(ctx, spaceId);
  const access = accessOf(ctx, space, actor);
  const permissions = effectivePermissions(access);
  const ok = check.anyOf.some((p) => permissions.includes(p)) && (!check.membersOnly || access.role !== null);
  if (!ok) {
    const needs = `${check.anyOf.join(' or ')} on space ${space.id}${check.membersOnly ? ' as an organization member' : ''}`;
    throw denied(actor, `act with ${needs}`, `space visibility ${space.visibility}, role ${access.role ?? 'none'}, permissions ${permissions.join(',') || 'none'}`);
  }
  return { space, role: access.role, permissions };
}

/** A fact (any version) the memory caller can see, whose lineage is placed in `space`. */
export function factInSpace(ctx: CollabCtx, space: MemorySpace, factId: FactId): Fact {
  const fact = ctx.memory.getFact(factId, ctx.memoryCaller);
  if (!ctx.spaceFacts.get(space.id, fact.lineageId)) {
    throw new MemoryError('MEM_ERR_FACT_NOT_IN_SPACE', `fact ${factId} is not in space ${space.id}`);
  }
  return fact;
}

/** A fact that is current (not superseded, deleted or ended), else the memory service's typed reason. */
export function currentFact(ctx: CollabCtx, factId: FactId): Fact {
  const fact = ctx.memory.getFact(factId, ctx.memoryCaller);
  if (fact.validUntil === null) return fact;
  if (fact.endedReason === 'superseded') {
    const latest = ctx.memory.history(factId, ctx.memoryCaller).findLast((f) => f.validUntil === null);
    throw new MemoryError('MEM_ERR_FACT_SUPERSEDED', `fact ${factId} is superseded${latest ? `; its current version is ${latest.id}` : ''}`, {
      details: { currentId: latest?.id ?? fact.supersededBy ?? null },
    });
  }
  throw new MemoryError('MEM_ERR_FACT_ENDED', `fact ${factId} is ${fact.endedReason ?? 'ended'}`, { details: { reason: fact.endedReason } });
}
