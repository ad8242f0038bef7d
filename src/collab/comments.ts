/**
 * Comments on facts in spaces.
 * - add: read on the space and org membership; the fact must be in the space;
 * - edit: the author only;
 * - resolve and reopen: the author, or anyone with write on the space; repeating either changes nothing
 *   and records nothing;
 * - delete: the author, or anyone with the delete permission on the space.
 * Comments follow the fact's lineage: those on an old version are listed with the new one.
 */
import type { FactComment } from '../core/collab.js';
import { MemoryError } from '../core/errors.js';
import { newCommentId } from '../core/ids.js';
import { denied, factInSpace, requireSpace } from './access.js';
import type { CollabCtx } from './context.js';
import { addCommentSchema, editCommentSchema, ids, listCommentsSchema, listLimit, parse, parseActor } from './inputs.js';

export type AddCommentInput = { spaceId: string; factId: string; text: string };

function loadComment(ctx: CollabCtx, id: string): FactComment {
  const c = ctx.comments.get(id);
  if (!c) throw new MemoryError('MEM_ERR_COMMENT_NOT_FOUND', `no comment ${id}`);
  return c;
}

export function addComment(ctx: CollabCtx, actor: string, input: AddCommentInput): FactComment {
  const who = parseActor(actor, 'addComment');
  const i = parse(addCommentSchema, input, 'addComment');
  const now = ctx.now();
  return ctx.tx('addComment', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['read'], membersOnly: true });
    const fact = factInSpace(ctx, space, i.factId);
    const c: FactComment = {
      id: newCommentId(now), spaceId: space.id, factId: fact.id, authorId: who, text: i.text,
      createdAt: now, updatedAt: now, resolved: false, resolvedBy: null, resolvedAt: null,
    };
    ctx.comments.insert(c, fact.lineageId);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'comment.added', targetType: 'comment', targetId: c.id, details: { factId: fact.id } }, now);
    return c;
  });
}

export function getComment(ctx: CollabCtx, actor: string, commentId: string): FactComment {
  const who = parseActor(actor, 'getComment');
  const c = loadComment(ctx, parse(ids.comment, commentId, 'getComment.commentId'));
  requireSpace(ctx, who, c.spaceId, { anyOf: ['read'] });
  return c;
}

/** Comments in the space on the fact (any of its versions), oldest first (needs read). */
export function listComments(ctx: CollabCtx, actor: string, input: { spaceId: string; factId: string; unresolvedOnly?: boolean; limit?: number }): FactComment[] {
  const who = parseActor(actor, 'listComments');
  const { limit: rawLimit, ...rest } = input;
  const i = parse(listCommentsSchema, rest, 'listComments');
  const limit = parse(listLimit, rawLimit, 'listComments.limit');
  const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['read'] });
  const fact = factInSpace(ctx, space, i.factId);
  return ctx.comments.listForFact(space.id, fact.lineageId, { unresolvedOnly: i.unresolvedOnly, limit });
}

export function editComment(ctx: CollabCtx, actor: string, input: { commentId: string; text: string }): FactComment {
  const who = parseActor(actor, 'editComment');
  const i = parse(editCommentSchema, input, 'editComment');
  const now = ctx.now();
  return ctx.tx('editComment', () => {
    const c = loadComment(ctx, i.commentId);
    const { space } = requireSpace(ctx, who, c.spaceId, { anyOf: ['read'], membersOnly: true });
    if (c.authorId !== who) throw denied(who, `edit comment ${c.id}`, `only its author ${JSON.stringify(c.authorId)} may`);
    ctx.comments.setText(c.id, i.text, now);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'comment.edited', targetType: 'comment', targetId: c.id, details: { factId: c.factId } }, now);
    return { ...c, text: i.text, updatedAt: now };
  });
}

function setResolved(ctx: CollabCtx, op: 'resolveComment' | 'reopenComment', actor: string, commentId: string): FactComment {
  const who = parseActor(actor, op);
  const id = parse(ids.comment, commentId, `${op}.commentId`);
  const resolve = op === 'resolveComment';
  const now = ctx.now();
  return ctx.tx(op, () => {
    const c = loadComment(ctx, id);
    const author = c.authorId === who;
    const { space } = requireSpace(ctx, who, c.spaceId, author ? { anyOf: ['read'], membersOnly: true } : { anyOf: ['write'] });
    if (c.resolved === resolve) return c;
    const next: FactComment = resolve ? { ...c, resolved: true, resolvedBy: who, resolvedAt: now } : { ...c, resolved: false, resolvedBy: null, resolvedAt: null };
    ctx.comments.setResolved(c.id, resolve ? { by: who, at: now } : null);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: resolve ? 'comment.resolved' : 'comment.reopened', targetType: 'comment', targetId: c.id, details: { factId: c.factId } }, now);
    return next;
  });
}

export const resolveComment = (ctx: CollabCtx, actor: string, id: string) => setResolved(ctx, 'resolveComment', actor, id);
export const reopenComment = (ctx: CollabCtx, actor: string, id: string) => setResolved(ctx, 'reopenComment', actor, id);

export function deleteComment(ctx: CollabCtx, actor: string, commentId: string): void {
  const who = parseActor(actor, 'deleteComment');
  const id = parse(ids.comment, commentId, 'deleteComment.commentId');
  const now = ctx.now();
  ctx.tx('deleteComment', () => {
    const c = loadComment(ctx, id);
    const author = c.authorId === who;
    const { space } = requireSpace(ctx, who, c.spaceId, author ? { anyOf: ['read'], membersOnly: true } : { anyOf: ['delete'] });
    ctx.comments.delete(c.id);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'comment.deleted', targetType: 'comment', targetId: c.id, details: { factId: c.factId, authorId: c.authorId } }, now);
  });
}
