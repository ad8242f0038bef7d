/**
 * Members: add, read, change role, remove (or leave). The pure rule `memberChangeRefusal` decides; the
 * last owner can be neither removed nor demoted.
 */
import type { Member, OrgRole } from '../core/collab.js';
import { memberChangeRefusal } from '../core/collab-rules.js';
import { MemoryError } from '../core/errors.js';
import type { OrgId } from '../core/ids.js';
import { denied, loadMember, loadOrg, requireOrg } from './access.js';
import type { CollabCtx } from './context.js';
import { ids, memberRefSchema, memberSchema, parse, parseActor } from './inputs.js';

export type MemberInput = { orgId: string; userId: string; role: OrgRole };
export type MemberRef = { orgId: string; userId: string };

/** Check a membership change for `who` acting on `target`; throws the typed refusal. */
function checkChange(ctx: CollabCtx, who: string, orgId: OrgId, target: { userId: string; role: OrgRole | null }, next: OrgRole | null): void {
  const actor = ctx.orgs.member(orgId, who);
  if (!actor) throw denied(who, 'change the organization\u2019s members', `organization ${orgId}, not a member`);
  const refusal = memberChangeRefusal({ actor, target, next, owners: ctx.orgs.countRole(orgId, 'owner') });
  if (refusal === 'last_owner') {
    throw new MemoryError('MEM_ERR_LAST_OWNER', `user ${JSON.stringify(target.userId)} is the last owner of organization ${orgId}; make another owner first`);
  }
  if (refusal === 'permission') {
    const what = next === null ? 'remove' : target.role === null ? `add as ${next}` : `change to ${next}`;
    throw denied(who, `${what} member ${JSON.stringify(target.userId)}`, `organization ${orgId}, role ${actor.role}${target.role === 'owner' || next === 'owner' ? '; only an owner may add, change or remove owners' : ''}`);
  }
}

export function addMember(ctx: CollabCtx, actor: string, input: MemberInput): Member {
  const who = parseActor(actor, 'addMember');
  const i = parse(memberSchema, input, 'addMember');
  const now = ctx.now();
  return ctx.tx('addMember', () => {
    const org = loadOrg(ctx, i.orgId);
    checkChange(ctx, who, org.id, { userId: i.userId, role: null }, i.role);
    if (ctx.orgs.member(org.id, i.userId)) {
      throw new MemoryError('MEM_ERR_MEMBER_EXISTS', `user ${JSON.stringify(i.userId)} is already a member of organization ${org.id}`);
    }
    const member: Member = { orgId: org.id, userId: i.userId, role: i.role, joinedAt: now };
    ctx.orgs.insertMember(member);
    ctx.record({ orgId: org.id, spaceId: null, actorId: who, action: 'member.added', targetType: 'member', targetId: i.userId, details: { role: i.role } }, now);
    return member;
  });
}

/** Any member may read the members. */
export function getMember(ctx: CollabCtx, actor: string, ref: MemberRef): Member {
  const who = parseActor(actor, 'getMember');
  const r = parse(memberRefSchema, ref, 'getMember');
  requireOrg(ctx, who, r.orgId, 'view');
  return loadMember(ctx, r.orgId, r.userId);
}

export function listMembers(ctx: CollabCtx, actor: string, orgId: string): Member[] {
  const who = parseActor(actor, 'listMembers');
  const id = parse(ids.org, orgId, 'listMembers.orgId');
  requireOrg(ctx, who, id, 'view');
  return ctx.orgs.members(id);
}

/** Change a member's role. Setting the role it already has changes nothing and records nothing. */
export function updateMemberRole(ctx: CollabCtx, actor: string, input: MemberInput): Member {
  const who = parseActor(actor, 'updateMemberRole');
  const i = parse(memberSchema, input, 'updateMemberRole');
  const now = ctx.now();
  return ctx.tx('updateMemberRole', () => {
    const org = loadOrg(ctx, i.orgId);
    if (!ctx.orgs.member(org.id, who)) throw denied(who, 'change the organization\u2019s members', `organization ${org.id}, not a member`);
    const target = loadMember(ctx, org.id, i.userId);
    checkChange(ctx, who, org.id, target, i.role);
    if (target.role === i.role) return target;
    ctx.orgs.setRole(org.id, target.userId, i.role);
    ctx.record({ orgId: org.id, spaceId: null, actorId: who, action: 'member.role_changed', targetType: 'member', targetId: target.userId, details: { from: target.role, to: i.role } }, now);
    return { ...target, role: i.role };
  });
}

/** Remove a member (any member may remove themself: leave). Their grants on the org's spaces go too. */
export function removeMember(ctx: CollabCtx, actor: string, ref: MemberRef): void {
  const who = parseActor(actor, 'removeMember');
  const r = parse(memberRefSchema, ref, 'removeMember');
  const now = ctx.now();
  ctx.tx('removeMember', () => {
    const org = loadOrg(ctx, r.orgId);
    if (!ctx.orgs.member(org.id, who)) throw denied(who, 'change the organization\u2019s members', `organization ${org.id}, not a member`);
    const target = loadMember(ctx, org.id, r.userId);
    checkChange(ctx, who, org.id, target, null);
    ctx.orgs.deleteMember(org.id, target.userId);
    ctx.record({ orgId: org.id, spaceId: null, actorId: who, action: 'member.removed', targetType: 'member', targetId: target.userId, details: { role: target.role, left: who === target.userId } }, now);
  });
}
