/** Comments on facts in spaces: add, list across versions, edit, resolve and reopen with who and when, delete. */
import { afterEach, describe, expect, it } from 'vitest';
import { activityCount, ADMIN, EDITOR, expectRefused, makeWorld, OWNER, VIEWER, type World } from './support/collab.js';

describe('comments', () => {
  let w: World;
  afterEach(() => w.close());

  it('are added by members who can read the space, on facts in it, and listed oldest first', () => {
    w = makeWorld();
    const { collab, spaces, facts, clock } = w;
    expect(w.comment).toMatchObject({ spaceId: spaces.org.id, factId: facts.org.id, authorId: EDITOR, text: 'is this still true?', resolved: false, resolvedBy: null, resolvedAt: null });
    const c = collab.addComment(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, text: '  yes, checked today  ' });
    expect(c).toMatchObject({ authorId: VIEWER, text: 'yes, checked today', createdAt: clock.now, updatedAt: clock.now });
    expect(collab.listComments(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id }).map((x) => x.id)).toEqual([w.comment.id, c.id]);
    expect(collab.getComment(VIEWER, c.id)).toEqual(c);
    expectRefused(w.svc.db, () => collab.addComment(VIEWER, { spaceId: spaces.org.id, factId: w.loose.id, text: 'x' }), 'MEM_ERR_FACT_NOT_IN_SPACE');
  });

  it('follow the fact to its new versions', () => {
    w = makeWorld();
    const { collab, spaces, facts } = w;
    const accepted = collab.acceptSuggestion(EDITOR, w.suggestion.id);
    const next = accepted.appliedFactId as string;
    const onNew = collab.addComment(ADMIN, { spaceId: spaces.org.id, factId: next, text: 'thanks' });
    const all = [w.comment.id, onNew.id];
    expect(collab.listComments(VIEWER, { spaceId: spaces.org.id, factId: next }).map((x) => x.id)).toEqual(all);
    expect(collab.listComments(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id }).map((x) => x.id)).toEqual(all);
  });

  it('resolve and reopen record who and when; the author or a writer may; repeating changes nothing', () => {
    w = makeWorld();
    const { collab, spaces, facts, clock, svc } = w;
    clock.advance(100);
    const resolved = collab.resolveComment(ADMIN, w.comment.id);
    expect(resolved).toMatchObject({ resolved: true, resolvedBy: ADMIN, resolvedAt: clock.now });
    expect(collab.getComment(VIEWER, w.comment.id)).toEqual(resolved);
    const count = activityCount(svc.db);
    expect(collab.resolveComment(EDITOR, w.comment.id)).toEqual(resolved);
    expect(activityCount(svc.db)).toBe(count);
    expect(collab.listComments(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, unresolvedOnly: true })).toEqual([]);

    clock.advance(100);
    const reopened = collab.reopenComment(EDITOR, w.comment.id); // the author
    expect(reopened).toMatchObject({ resolved: false, resolvedBy: null, resolvedAt: null });
    expect(collab.listComments(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, unresolvedOnly: true }).map((x) => x.id)).toEqual([w.comment.id]);

    // A viewer may resolve their own comment, not someone else's.
    const mine = collab.addComment(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, text: 'typo in the fact' });
    expect(collab.resolveComment(VIEWER, mine.id).resolvedBy).toBe(VIEWER);
    expectRefused(svc.db, () => collab.resolveComment(VIEWER, w.comment.id), 'MEM_ERR_PERMISSION_DENIED');
  });

  it('only the author edits; the author or a deleter deletes', () => {
    w = makeWorld();
    const { collab, spaces, facts, clock, svc } = w;
    clock.advance(50);
    const edited = collab.editComment(EDITOR, { commentId: w.comment.id, text: 'is this still true in 2026?' });
    expect(edited).toMatchObject({ text: 'is this still true in 2026?', createdAt: w.comment.createdAt, updatedAt: clock.now });
    expectRefused(svc.db, () => collab.editComment(OWNER, { commentId: w.comment.id, text: 'owner rewrites' }), 'MEM_ERR_PERMISSION_DENIED');

    const viewers = collab.addComment(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, text: 'mine' });
    expectRefused(svc.db, () => collab.deleteComment(EDITOR, viewers.id), 'MEM_ERR_PERMISSION_DENIED');
    collab.deleteComment(VIEWER, viewers.id);
    collab.deleteComment(ADMIN, w.comment.id);
    expect(collab.listComments(OWNER, { spaceId: spaces.org.id, factId: facts.org.id })).toEqual([]);
    expectRefused(svc.db, () => collab.getComment(OWNER, w.comment.id), 'MEM_ERR_COMMENT_NOT_FOUND');
  });
});
