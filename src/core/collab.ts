/**
 * The collaboration vocabulary (spec: "Collaboration entities"): fixed sets as `as const` arrays with
 * derived unions, and the record shapes. Timestamps are epoch milliseconds. The rules that decide who
 * may do what are in ./collab-rules.ts.
 */
import type { ActivityId, CommentId, FactId, OrgId, SpaceId, SuggestionId } from './ids.js';

/** Organization roles, strongest first. */
export const ORG_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Permissions on a memory space. */
export const PERMISSIONS = ['read', 'write', 'delete', 'manage'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Who may read a space: `private` = org members holding a grant on it (and org owners/admins),
 * `org` = every member of the organization, `public` = anyone, members or not.
 */
export const SPACE_VISIBILITIES = ['private', 'org', 'public'] as const;
export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];

/** `edit_text`: replace the fact's text (accepting writes a new version); `remove_from_space`: take it out of the space. */
export const SUGGESTION_TYPES = ['edit_text', 'remove_from_space'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected', 'withdrawn'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export const ACTIVITY_TARGETS = ['organization', 'member', 'space', 'permission', 'fact', 'suggestion', 'comment'] as const;
export type ActivityTarget = (typeof ACTIVITY_TARGETS)[number];

/** Every action that writes an activity record. Reads write none. */
export const ACTIVITY_ACTIONS = [
  'org.created',
  'org.updated',
  'org.deleted',
  'org.ownership_transferred',
  'member.added',
  'member.role_changed',
  'member.removed',
  'space.created',
  'space.updated',
  'space.deleted',
  'permission.granted',
  'permission.revoked',
  'fact.added',
  'fact.removed',
  'suggestion.created',
  'suggestion.updated',
  'suggestion.accepted',
  'suggestion.rejected',
  'suggestion.withdrawn',
  'suggestion.deleted',
  'comment.added',
  'comment.edited',
  'comment.resolved',
  'comment.reopened',
  'comment.deleted',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** A plain JSON value, as activity details are stored. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export interface Organization {
  readonly id: OrgId;
  readonly name: string;
  readonly plan: string;
  readonly createdAt: number;
}

export interface Member {
  readonly userId: string;
  readonly orgId: OrgId;
  readonly role: OrgRole;
  readonly joinedAt: number;
}

export interface MemorySpace {
  readonly id: SpaceId;
  readonly orgId: OrgId;
  readonly name: string;
  readonly visibility: SpaceVisibility;
  readonly createdBy: string;
  readonly createdAt: number;
}

/** A fine-grained grant: `userId` holds `permission` on one space, in addition to what the org role gives. */
export interface SpacePermission {
  readonly spaceId: SpaceId;
  readonly userId: string;
  readonly permission: Permission;
  readonly grantedBy: string;
  readonly grantedAt: number;
}

/** A fact placed in a space. The placement follows the fact's lineage, so it survives edits (new versions). */
export interface SpaceFact {
  readonly spaceId: SpaceId;
  /** The fact's lineage id (the id of its first version). */
  readonly lineageId: FactId;
  readonly addedBy: string;
  readonly addedAt: number;
}

export interface FactSuggestion {
  readonly id: SuggestionId;
  readonly spaceId: SpaceId;
  readonly suggestedBy: string;
  readonly suggestionType: SuggestionType;
  /** The fact version the suggestion was made against. */
  readonly factId: FactId;
  /** The proposed text (edit_text), or null. */
  readonly newText: string | null;
  readonly reason: string | null;
  readonly status: SuggestionStatus;
  readonly createdAt: number;
  /** Who accepted, rejected or withdrew it, and when (null while pending). */
  readonly decidedBy: string | null;
  readonly decidedAt: number | null;
  /** The new fact version an accepted edit_text suggestion created. */
  readonly appliedFactId: FactId | null;
}

export interface FactComment {
  readonly id: CommentId;
  /** The space the comment was made in (the permission context). */
  readonly spaceId: SpaceId;
  /** The fact version commented on. */
  readonly factId: FactId;
  readonly authorId: string;
  readonly text: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly resolved: boolean;
  readonly resolvedBy: string | null;
  readonly resolvedAt: number | null;
}

/** An audit-trail record: who did what to which target, when. Outlives its target (no cascade). */
export interface Activity {
  readonly id: ActivityId;
  readonly orgId: OrgId;
  /** The space the action happened in, for space-level actions. */
  readonly spaceId: SpaceId | null;
  readonly actorId: string;
  readonly action: ActivityAction;
  readonly targetType: ActivityTarget;
  readonly targetId: string;
  readonly details: { readonly [key: string]: Json };
  readonly at: number;
}
