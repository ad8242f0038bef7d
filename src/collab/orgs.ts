/** Organizations: create (anyone; the creator becomes its owner), read, update, delete, transfer ownership. */
import type { Organization } from '../core/collab.js';
import { invalidInput } from '../core/errors.js';
import { newOrgId } from '../core/ids.js';
import { loadMember, requireOrg } from './access.js';
import type { CollabCtx } from './context.js';
import { createOrgSchema, ids, parse, parseActor, transferSchema, updateOrgSchema } from './inputs.js';

export type CreateOrgInput = { name: string; plan?: string };
export type UpdateOrgInput = { orgId: string; name?: string; plan?: string };

export function createOrganization(ctx: CollabCtx, actor: string, input: CreateOrgInput): Organization {
  const who = parseActor(actor, 'createOrganization');
  const i = parse(createOrgSchema, input, 'createOrganization');
  const now = ctx.now();
  const org: Organization = { id: newOrgId(now), name: i.name, plan: i.plan, createdAt: now };
  return ctx.tx('createOrganization', () => {
    ctx.orgs.insert(org);
    ctx.orgs.insertMember({ orgId: org.id, userId: who, role: 'owner', joinedAt: now });
    ctx.record({ orgId: org.id, spaceId: null, actorId: who, action: 'org.created', targetType: 'organization', targetId: org.id, details: { name: org.name, plan: org.plan, owner: who } }, now);
    return org;
  });
}

/** Any member may read the organization. */
export function getOrganization(ctx: CollabCtx, actor: string, orgId: string): Organization {
  const who = parseActor(actor, 'getOrganization');
  const id = parse(ids.org, orgId, 'getOrganization.orgId');
  return requireOrg(ctx, who, id, 'view').org;
}

/** The organizations the actor belongs to, oldest first. */
export function listOrganizations(ctx: CollabCtx, actor: string): Organization[] {
  return ctx.orgs.listForUser(parseActor(actor, 'listOrganizations'));
}

export function updateOrganization(ctx: CollabCtx, actor: string, input: UpdateOrgInput): Organization {
  const who = parseActor(actor, 'updateOrganization');
  const i = parse(updateOrgSchema, input, 'updateOrganization');
  const now = ctx.now();
  return ctx.tx('updateOrganization', () => {
    const { org } = requireOrg(ctx, who, i.orgId, 'update');
    const next: Organization = { ...org, name: i.name ?? org.name, plan: i.plan ?? org.plan };
    ctx.orgs.update(org.id, next);
    ctx.record({
      orgId: org.id, spaceId: null, actorId: who, action: 'org.updated', targetType: 'organization', targetId: org.id,
      details: { before: { name: org.name, plan: org.plan }, after: { name: next.name, plan: next.plan } },
    }, now);
    return next;
  });
}

/** Owner only. Members, spaces and everything in them go with it; the activity trail stays. */
export function deleteOrganization(ctx: CollabCtx, actor: string, orgId: string): void {
  const who = parseActor(actor, 'deleteOrganization');
  const id = parse(ids.org, orgId, 'deleteOrganization.orgId');
  const now = ctx.now();
  ctx.tx('deleteOrganization', () => {
    const { org } = requireOrg(ctx, who, id, 'delete');
    ctx.record({ orgId: org.id, spaceId: null, actorId: who, action: 'org.deleted', targetType: 'organization', targetId: org.id, details: { name: org.name } }, now);
    ctx.orgs.delete(org.id);
  });
}

/** Owner only: another member becomes owner and the actor steps down to admin. */
export function transferOwnership(ctx: CollabCtx, actor: string, input: { orgId: string; toUserId: string }): void {
  const who = parseActor(actor, 'transferOwnership');
  const i = parse(transferSchema, input, 'transferOwnership');
  if (i.toUserId === who) throw invalidInput('transferOwnership.toUserId', 'another member than the acting owner', i.toUserId);
  const now = ctx.now();
  ctx.tx('transferOwnership', () => {
    const { org } = requireOrg(ctx, who, i.orgId, 'transfer_ownership');
    const to = loadMember(ctx, org.id, i.toUserId);
    ctx.orgs.setRole(org.id, to.userId, 'owner');
    ctx.orgs.setRole(org.id, who, 'admin');
    ctx.record({
      orgId: org.id, spaceId: null, actorId: who, action: 'org.ownership_transferred', targetType: 'organization', targetId: org.id,
      details: { from: who, to: to.userId, previousRole: to.role },
    }, now);
  });
}
