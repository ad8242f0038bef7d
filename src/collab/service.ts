/**
 * CollabService: organizations, shared memory spaces, members, grants, suggestions, comments and the
 * activity trail (spec part C), in process. It works on the MemoryService's own SQLite connection, so
 * collaboration rows and the facts they point at commit together, and closing the memory service closes
 * it too.
 *
 * Every method takes the acting user id first and checks that user's permission before it reads or
 * changes anything (MEM_ERR_PERMISSION_DENIED otherwise); every change writes an activity record in the
 * same transaction; bad input gets a typed error and changes nothing. `hasPermission` and
 * `permissionsOf` are the exceptions that take no actor: they answer a question about their own subject.
 * User ids are opaque strings (1-200 characters): authenticating them is the embedding application's job.
 */
import type { Permission, SuggestionStatus } from '../core/collab.js';
import { OPERATOR, type Caller } from '../core/types.js';
import { parseCaller } from '../memory/inputs.js';
import type { MemoryService } from '../memory/service.js';
import { getRecentActivities } from './activities.js';
import { addComment, deleteComment, editComment, getComment, listComments, reopenComment, resolveComment, type AddCommentInput } from './comments.js';
import { createCollabCtx, type CollabCtx } from './context.js';
import { addMember, getMember, listMembers, removeMember, updateMemberRole, type MemberInput, type MemberRef } from './members.js';
import { createOrganization, deleteOrganization, getOrganization, listOrganizations, transferOwnership, updateOrganization, type CreateOrgInput, type UpdateOrgInput } from './orgs.js';
import { grantPermission, hasPermission, listSpacePermissions, permissionsOf, revokePermission, type GrantInput } from './permissions.js';
import { addFactToSpace, listSpaceFacts, removeFactFromSpace, type SpaceFactInput } from './space-facts.js';
import { createSpace, deleteSpace, getSpace, listSpaces, updateSpace, type CreateSpaceInput, type UpdateSpaceInput } from './spaces.js';
import {
  acceptSuggestion,
  acceptSuggestionWithHooks,
  createSuggestion,
  deleteSuggestion,
  getPendingSuggestions,
  getSuggestion,
  listSuggestions,
  rejectSuggestion,
  updateSuggestion,
  withdrawSuggestion,
  type CreateSuggestionInput,
  type UpdateSuggestionInput,
} from './suggestions.js';

export interface CollabServiceOptions {
  /**
   * The memory-scope caller collaboration acts as on facts: which facts can be placed in spaces and
   * listed, and who edits a fact when a suggestion is accepted. Default: the local operator (every fact).
   */
  readonly memoryCaller?: Caller;
}

export type { AddCommentInput, CreateOrgInput, CreateSpaceInput, CreateSuggestionInput, GrantInput, MemberInput, MemberRef, SpaceFactInput, UpdateOrgInput, UpdateSpaceInput, UpdateSuggestionInput };

export class CollabService {
  private readonly ctx: CollabCtx;

  /** Collaboration over `memory`'s database (schema v3 is applied when the memory service opens it). */
  constructor(memory: MemoryService, options: CollabServiceOptions = {}) {
    this.ctx = createCollabCtx(memory, parseCaller(options.memoryCaller ?? OPERATOR));
  }

  // Organizations
  /** Anyone may create an organization; the creator becomes its owner. */
  createOrganization(actor: string, input: CreateOrgInput) {
    return createOrganization(this.ctx, actor, input);
  }
  getOrganization(actor: string, orgId: string) {
    return getOrganization(this.ctx, actor, orgId);
  }
  listOrganizations(actor: string) {
    return listOrganizations(this.ctx, actor);
  }
  updateOrganization(actor: string, input: UpdateOrgInput) {
    return updateOrganization(this.ctx, actor, input);
  }
  deleteOrganization(actor: string, orgId: string) {
    return deleteOrganization(this.ctx, actor, orgId);
  }
  transferOwnership(actor: string, input: { orgId: string; toUserId: string }) {
    return transferOwnership(this.ctx, actor, input);
  }

  // Members
  addMember(actor: string, input: MemberInput) {
    return addMember(this.ctx, actor, input);
  }
  getMember(actor: string, ref: MemberRef) {
    return getMember(this.ctx, actor, ref);
  }
  listMembers(actor: string, orgId: string) {
    return listMembers(this.ctx, actor, orgId);
  }
  updateMemberRole(actor: string, input: MemberInput) {
    return updateMemberRole(this.ctx, actor, input);
  }
  removeMember(actor: string, ref: MemberRef) {
    return removeMember(this.ctx, actor, ref);
  }

  // Spaces
  createSpace(actor: string, input: CreateSpaceInput) {
    return createSpace(this.ctx, actor, input);
  }
  getSpace(actor: string, spaceId: string) {
    return getSpace(this.ctx, actor, spaceId);
  }
  listSpaces(actor: string, orgId: string) {
    return listSpaces(this.ctx, actor, orgId);
  }
  updateSpace(actor: string, input: UpdateSpaceInput) {
    return updateSpace(this.ctx, actor, input);
  }
  deleteSpace(actor: string, spaceId: string) {
    return deleteSpace(this.ctx, actor, spaceId);
  }

  // Permissions
  grantPermission(actor: string, input: GrantInput) {
    return grantPermission(this.ctx, actor, input);
  }
  revokePermission(actor: string, input: GrantInput) {
    return revokePermission(this.ctx, actor, input);
  }
  listSpacePermissions(actor: string, spaceId: string) {
    return listSpacePermissions(this.ctx, actor, spaceId);
  }
  /** Does `userId` hold `permission` on the space (role, override, visibility and grants together)? */
  hasPermission(userId: string, spaceId: string, permission: Permission) {
    return hasPermission(this.ctx, userId, spaceId, permission);
  }
  permissionsOf(userId: string, spaceId: string) {
    return permissionsOf(this.ctx, userId, spaceId);
  }

  // Facts in spaces
  addFactToSpace(actor: string, input: SpaceFactInput) {
    return addFactToSpace(this.ctx, actor, input);
  }
  removeFactFromSpace(actor: string, input: SpaceFactInput) {
    return removeFactFromSpace(this.ctx, actor, input);
  }
  listSpaceFacts(actor: string, spaceId: string, options: { limit?: number } = {}) {
    return listSpaceFacts(this.ctx, actor, spaceId, options);
  }

  // Suggestions
  createSuggestion(actor: string, input: CreateSuggestionInput) {
    return createSuggestion(this.ctx, actor, input);
  }
  getSuggestion(actor: string, suggestionId: string) {
    return getSuggestion(this.ctx, actor, suggestionId);
  }
  listSuggestions(actor: string, spaceId: string, options: { status?: SuggestionStatus; limit?: number } = {}) {
    return listSuggestions(this.ctx, actor, spaceId, options);
  }
  getPendingSuggestions(actor: string, spaceId: string) {
    return getPendingSuggestions(this.ctx, actor, spaceId);
  }
  updateSuggestion(actor: string, input: UpdateSuggestionInput) {
    return updateSuggestion(this.ctx, actor, input);
  }
  /** Accept without the plugins' store hooks; acceptSuggestionWithHooks runs them (what a server should call). */
  acceptSuggestion(actor: string, suggestionId: string) {
    return acceptSuggestion(this.ctx, actor, suggestionId);
  }
  /** Accept through the plugins' store hooks (a vetoed edit leaves the suggestion pending, nothing written). */
  acceptSuggestionWithHooks(actor: string, suggestionId: string) {
    return acceptSuggestionWithHooks(this.ctx, actor, suggestionId);
  }
  rejectSuggestion(actor: string, suggestionId: string) {
    return rejectSuggestion(this.ctx, actor, suggestionId);
  }
  withdrawSuggestion(actor: string, suggestionId: string) {
    return withdrawSuggestion(this.ctx, actor, suggestionId);
  }
  deleteSuggestion(actor: string, suggestionId: string) {
    return deleteSuggestion(this.ctx, actor, suggestionId);
  }

  // Comments
  addComment(actor: string, input: AddCommentInput) {
    return addComment(this.ctx, actor, input);
  }
  getComment(actor: string, commentId: string) {
    return getComment(this.ctx, actor, commentId);
  }
  listComments(actor: string, input: { spaceId: string; factId: string; unresolvedOnly?: boolean; limit?: number }) {
    return listComments(this.ctx, actor, input);
  }
  editComment(actor: string, input: { commentId: string; text: string }) {
    return editComment(this.ctx, actor, input);
  }
  resolveComment(actor: string, commentId: string) {
    return resolveComment(this.ctx, actor, commentId);
  }
  reopenComment(actor: string, commentId: string) {
    return reopenComment(this.ctx, actor, commentId);
  }
  deleteComment(actor: string, commentId: string) {
    return deleteComment(this.ctx, actor, commentId);
  }

  // Activity trail
  /** Newest first, at most `limit` (1-500, default 50). */
  getRecentActivities(actor: string, orgId: string, limit?: number) {
    return getRecentActivities(this.ctx, actor, orgId, limit);
  }
}
