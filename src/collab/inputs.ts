/**
 * Validation of every collaboration input at the edge. Messages name the field, what was expected and
 * what arrived (MEM_ERR_INVALID_INPUT); nothing is read or written before an input passes.
 */
import { z } from 'zod';
import { ORG_ROLES, PERMISSIONS, SPACE_VISIBILITIES, SUGGESTION_STATUSES, SUGGESTION_TYPES } from '../core/collab.js';
import { isCommentId, isFactId, isOrgId, isSpaceId, isSuggestionId, type CommentId, type FactId, type OrgId, type SpaceId, type SuggestionId } from '../core/ids.js';
import { LIMITS, parse, plain, plainText } from '../memory/inputs.js';

export const COLLAB_LIMITS = Object.freeze({
  userIdMax: 200,
  nameMax: 200,
  planMax: 64,
  suggestionTextMax: LIMITS.textMax,
  reasonMax: 2000,
  commentMax: 5000,
  activitiesMax: 500,
  activitiesDefault: 50,
  listMax: 1000,
});

/** A user id is opaque: 1-200 characters, no surrounding whitespace, no control characters. */
export const userId = z
  .string()
  .min(1)
  .max(COLLAB_LIMITS.userIdMax)
  // eslint-disable-next-line no-control-regex
  .refine((s) => s.trim() === s && !/[\u0000-\u001f\u007f]/.test(s), 'a user id without surrounding whitespace or control characters');

/** Names, comments and suggested text are stored and printed: no control characters (src/core/terminal.ts). */
const text = plainText;
const brandedId = <T extends string>(is: (v: unknown) => boolean, what: string) =>
  z.string().refine(is, what).transform((s) => s as T);

export const ids = {
  org: brandedId<OrgId>(isOrgId, 'an organization id (org_...)'),
  space: brandedId<SpaceId>(isSpaceId, 'a space id (space_...)'),
  suggestion: brandedId<SuggestionId>(isSuggestionId, 'a suggestion id (sug_...)'),
  comment: brandedId<CommentId>(isCommentId, 'a comment id (cmt_...)'),
  fact: brandedId<FactId>(isFactId, 'a fact id (fact_...)'),
} as const;

const role = z.enum(ORG_ROLES);
const permission = z.enum(PERMISSIONS);
const visibility = z.enum(SPACE_VISIBILITIES);
const reason = plain(z.string().trim().max(COLLAB_LIMITS.reasonMax)).nullable().transform((r) => (r === '' ? null : r));
const atLeastOne = (keys: readonly string[]) => (o: object) => keys.some((k) => (o as Record<string, unknown>)[k] !== undefined);

export const createOrgSchema = z.strictObject({ name: text(COLLAB_LIMITS.nameMax), plan: text(COLLAB_LIMITS.planMax).default('free') });
export const updateOrgSchema = z
  .strictObject({ orgId: ids.org, name: text(COLLAB_LIMITS.nameMax).optional(), plan: text(COLLAB_LIMITS.planMax).optional() })
  .refine(atLeastOne(['name', 'plan']), 'at least one of name, plan');

export const memberSchema = z.strictObject({ orgId: ids.org, userId, role });
export const memberRefSchema = z.strictObject({ orgId: ids.org, userId });
export const transferSchema = z.strictObject({ orgId: ids.org, toUserId: userId });

export const createSpaceSchema = z.strictObject({ orgId: ids.org, name: text(COLLAB_LIMITS.nameMax), visibility: visibility.default('org') });
export const updateSpaceSchema = z
  .strictObject({ spaceId: ids.space, name: text(COLLAB_LIMITS.nameMax).optional(), visibility: visibility.optional() })
  .refine(atLeastOne(['name', 'visibility']), 'at least one of name, visibility');

export const grantSchema = z.strictObject({ spaceId: ids.space, userId, permission });
export const spaceFactSchema = z.strictObject({ spaceId: ids.space, factId: ids.fact });

export const createSuggestionSchema = z
  .strictObject({
    spaceId: ids.space,
    factId: ids.fact,
    suggestionType: z.enum(SUGGESTION_TYPES).default('edit_text'),
    newText: text(COLLAB_LIMITS.suggestionTextMax).optional(),
    reason: reason.default(null),
  })
  .superRefine((s, ctx) => {
    if (s.suggestionType === 'edit_text' && s.newText === undefined) {
      ctx.addIssue({ code: 'custom', path: ['newText'], message: 'the proposed text (edit_text suggestions need newText)' });
    }
    if (s.suggestionType !== 'edit_text' && s.newText !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['newText'], message: `no newText (a ${s.suggestionType} suggestion carries no text)` });
    }
  });
export const updateSuggestionSchema = z
  .strictObject({ suggestionId: ids.suggestion, newText: text(COLLAB_LIMITS.suggestionTextMax).optional(), reason: reason.optional() })
  .refine(atLeastOne(['newText', 'reason']), 'at least one of newText, reason');

export const addCommentSchema = z.strictObject({ spaceId: ids.space, factId: ids.fact, text: text(COLLAB_LIMITS.commentMax) });
export const editCommentSchema = z.strictObject({ commentId: ids.comment, text: text(COLLAB_LIMITS.commentMax) });
export const listCommentsSchema = z.strictObject({ spaceId: ids.space, factId: ids.fact, unresolvedOnly: z.boolean().default(false) });

export const suggestionStatus = z.enum(SUGGESTION_STATUSES).optional();
export const activitiesLimit = z.int().min(1).max(COLLAB_LIMITS.activitiesMax).default(COLLAB_LIMITS.activitiesDefault);
export const listLimit = z.int().min(1).max(COLLAB_LIMITS.listMax).default(COLLAB_LIMITS.listMax);
export { role as roleSchema, permission as permissionSchema };

/** The acting user of an operation, validated like any other field. */
export function parseActor(actor: unknown, op: string): string {
  return parse(userId, actor, `${op}.actor`);
}

export { parse };
