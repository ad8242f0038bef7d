/**
 * Reading the activity trail. Every change records its activity in its own transaction (see
 * CollabCtx.record); the trail is append-only: there is no update or delete.
 */
import type { Activity } from '../core/collab.js';
import { allows, OVERRIDING_ROLES } from '../core/collab-rules.js';
import { accessOf, requireOrg } from './access.js';
import type { CollabCtx } from './context.js';
import { activitiesLimit, ids, parse, parseActor } from './inputs.js';

/**
 * The org's newest activities, newest first, at most `limit` (1-500, default 50). Members only. Owners
 * and admins see everything; other members see org-level records and those of spaces they can read now
 * (so the records of a deleted space are left to owners and admins).
 */
export function getRecentActivities(ctx: CollabCtx, actor: string, orgId: string, limit?: number): Activity[] {
  const who = parseActor(actor, 'getRecentActivities');
  const id = parse(ids.org, orgId, 'getRecentActivities.orgId');
  const n = parse(activitiesLimit, limit, 'getRecentActivities.limit');
  const { member } = requireOrg(ctx, who, id, 'view');
  if (OVERRIDING_ROLES.includes(member.role)) return ctx.activities.recent(id, n, 'all');
  const readable = ctx.spaces.listForOrg(id).filter((s) => allows(accessOf(ctx, s, who), 'read')).map((s) => s.id);
  return ctx.activities.recent(id, n, readable);
}
