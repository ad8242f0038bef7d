/**
 * Collaboration rows as SQLite returns them, and their mapping to domain records. Rows read back from
 * disk are an edge: values outside the known sets are refused as corruption rather than passed on.
 */
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_TARGETS,
  ORG_ROLES,
  PERMISSIONS,
  SPACE_VISIBILITIES,
  SUGGESTION_STATUSES,
  SUGGESTION_TYPES,
  type Activity,
  type FactComment,
  type FactSuggestion,
  type Json,
  type Member,
  type MemorySpace,
  type Organization,
  type SpaceFact,
  type SpacePermission,
} from '../core/collab.js';
import { MemoryError } from '../core/errors.js';
import type { ActivityId, CommentId, FactId, OrgId, SpaceId, SuggestionId } from '../core/ids.js';

function oneOf<T extends string>(set: readonly T[], value: string, field: string): T {
  if ((set as readonly string[]).includes(value)) return value as T;
  throw new MemoryError('MEM_ERR_DB_CORRUPT', `stored ${field} has an unknown value ${JSON.stringify(value)}`);
}

export interface OrgRow {
  id: string;
  name: string;
  plan: string;
  created_at: number;
}
export const toOrg = (r: OrgRow): Organization => ({ id: r.id as OrgId, name: r.name, plan: r.plan, createdAt: r.created_at });

export interface MemberRow {
  org_id: string;
  user_id: string;
  role: string;
  joined_at: number;
}
export const toMember = (r: MemberRow): Member => ({
  userId: r.user_id,
  orgId: r.org_id as OrgId,
  role: oneOf(ORG_ROLES, r.role, 'member role'),
  joinedAt: r.joined_at,
});

export interface SpaceRow {
  id: string;
  org_id: string;
  name: string;
  visibility: string;
  created_by: string;
  created_at: number;
}
export const toSpace = (r: SpaceRow): MemorySpace => ({
  id: r.id as SpaceId,
  orgId: r.org_id as OrgId,
  name: r.name,
  visibility: oneOf(SPACE_VISIBILITIES, r.visibility, 'space visibility'),
  createdBy: r.created_by,
  createdAt: r.created_at,
});

export interface GrantRow {
  space_id: string;
  user_id: string;
  permission: string;
  granted_by: string;
  granted_at: number;
}
export const toGrant = (r: GrantRow): SpacePermission => ({
  spaceId: r.space_id as SpaceId,
  userId: r.user_id,
  permission: oneOf(PERMISSIONS, r.permission, 'permission'),
  grantedBy: r.granted_by,
  grantedAt: r.granted_at,
});

export interface SpaceFactRow {
  space_id: string;
  lineage_id: string;
  added_by: string;
  added_at: number;
}
export const toSpaceFact = (r: SpaceFactRow): SpaceFact => ({
  spaceId: r.space_id as SpaceId,
  lineageId: r.lineage_id as FactId,
  addedBy: r.added_by,
  addedAt: r.added_at,
});

export interface SuggestionRow {
  id: string;
  space_id: string;
  suggested_by: string;
  suggestion_type: string;
  fact_id: string;
  lineage_id: string;
  new_text: string | null;
  reason: string | null;
  status: string;
  created_at: number;
  decided_by: string | null;
  decided_at: number | null;
  applied_fact_id: string | null;
}
export const toSuggestion = (r: SuggestionRow): FactSuggestion => ({
  id: r.id as SuggestionId,
  spaceId: r.space_id as SpaceId,
  suggestedBy: r.suggested_by,
  suggestionType: oneOf(SUGGESTION_TYPES, r.suggestion_type, 'suggestion type'),
  factId: r.fact_id as FactId,
  newText: r.new_text,
  reason: r.reason,
  status: oneOf(SUGGESTION_STATUSES, r.status, 'suggestion status'),
  createdAt: r.created_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  appliedFactId: r.applied_fact_id as FactId | null,
});

export interface CommentRow {
  id: string;
  space_id: string;
  fact_id: string;
  lineage_id: string;
  author_id: string;
  text: string;
  created_at: number;
  updated_at: number;
  resolved: number;
  resolved_by: string | null;
  resolved_at: number | null;
}
export const toComment = (r: CommentRow): FactComment => ({
  id: r.id as CommentId,
  spaceId: r.space_id as SpaceId,
  factId: r.fact_id as FactId,
  authorId: r.author_id,
  text: r.text,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  resolved: r.resolved === 1,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at,
});

export interface ActivityRow {
  id: string;
  org_id: string;
  space_id: string | null;
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  details: string;
  at: number;
}
export function toActivity(r: ActivityRow): Activity {
  let details: unknown;
  try {
    details = JSON.parse(r.details);
  } catch (cause) {
    throw new MemoryError('MEM_ERR_DB_CORRUPT', `stored activity ${r.id} has details that are not JSON`, { cause });
  }
  if (details === null || typeof details !== 'object' || Array.isArray(details)) {
    throw new MemoryError('MEM_ERR_DB_CORRUPT', `stored activity ${r.id} has details that are not a JSON object`);
  }
  return {
    id: r.id as ActivityId,
    orgId: r.org_id as OrgId,
    spaceId: r.space_id as SpaceId | null,
    actorId: r.actor_id,
    action: oneOf(ACTIVITY_ACTIONS, r.action, 'activity action'),
    targetType: oneOf(ACTIVITY_TARGETS, r.target_type, 'activity target type'),
    targetId: r.target_id,
    details: details as { readonly [key: string]: Json },
    at: r.at,
  };
}
