/**
 * Every operation that takes an acting user refuses one without the permission it needs with
 * MEM_ERR_PERMISSION_DENIED and changes nothing; the same call by a permitted user then succeeds (so a
 * missing check would fail the row). One fresh world per row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, checksum, EDITOR, expectRefused, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

interface Row {
  readonly op: string;
  /** Set-up run before both attempts (optional). */
  readonly setup?: (w: World) => void;
  readonly denied: string;
  readonly allowed: string;
  readonly run: (w: World, actor: string) => unknown;
}

const ROWS: readonly Row[] = [
  { op: 'getOrganization', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.getOrganization(a, w.org.id) },
  { op: 'updateOrganization', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.updateOrganization(a, { orgId: w.org.id, plan: 'enterprise' }) },
  { op: 'deleteOrganization', denied: ADMIN, allowed: OWNER, run: (w, a) => w.collab.deleteOrganization(a, w.org.id) },
  { op: 'transferOwnership', denied: ADMIN, allowed: OWNER, run: (w, a) => w.collab.transferOwnership(a, { orgId: w.org.id, toUserId: EDITOR }) },
  { op: 'addMember', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.addMember(a, { orgId: w.org.id, userId: 'nina', role: 'viewer' }) },
  { op: 'addMember (as owner)', denied: ADMIN, allowed: OWNER, run: (w, a) => w.collab.addMember(a, { orgId: w.org.id, userId: 'nina', role: 'owner' }) },
  { op: 'getMember', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.getMember(a, { orgId: w.org.id, userId: EDITOR }) },
  { op: 'listMembers', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.listMembers(a, w.org.id) },
  { op: 'updateMemberRole', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.updateMemberRole(a, { orgId: w.org.id, userId: VIEWER, role: 'editor' }) },
  { op: 'updateMemberRole (an owner)', denied: ADMIN, allowed: OWNER, run: (w, a) => w.collab.updateMemberRole(a, { orgId: w.org.id, userId: ADMIN, role: 'owner' }) },
  { op: 'removeMember', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.removeMember(a, { orgId: w.org.id, userId: VIEWER }) },
  { op: 'createSpace', denied: VIEWER, allowed: EDITOR, run: (w, a) => w.collab.createSpace(a, { orgId: w.org.id, name: 'New' }) },
  { op: 'getSpace (private)', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.getSpace(a, w.spaces.private.id) },
  { op: 'getSpace (org)', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.getSpace(a, w.spaces.org.id) },
  { op: 'updateSpace', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.updateSpace(a, { spaceId: w.spaces.org.id, visibility: 'private' }) },
  { op: 'deleteSpace', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.deleteSpace(a, w.spaces.org.id) },
  { op: 'grantPermission', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.grantPermission(a, { spaceId: w.spaces.org.id, userId: VIEWER, permission: 'write' }) },
  {
    op: 'revokePermission',
    setup: (w) => w.collab.grantPermission(OWNER, { spaceId: w.spaces.org.id, userId: VIEWER, permission: 'write' }),
    denied: EDITOR,
    allowed: ADMIN,
    run: (w, a) => w.collab.revokePermission(a, { spaceId: w.spaces.org.id, userId: VIEWER, permission: 'write' }),
  },
  { op: 'listSpacePermissions', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.listSpacePermissions(a, w.spaces.private.id) },
  { op: 'addFactToSpace', denied: VIEWER, allowed: EDITOR, run: (w, a) => w.collab.addFactToSpace(a, { spaceId: w.spaces.org.id, factId: w.loose.id }) },
  { op: 'removeFactFromSpace', denied: VIEWER, allowed: EDITOR, run: (w, a) => w.collab.removeFactFromSpace(a, { spaceId: w.spaces.org.id, factId: w.facts.org.id }) },
  { op: 'listSpaceFacts', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.listSpaceFacts(a, w.spaces.private.id) },
  { op: 'createSuggestion (private)', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.createSuggestion(a, { spaceId: w.spaces.private.id, factId: w.facts.private.id, newText: 'x' }) },
  { op: 'createSuggestion (public, non-member)', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.createSuggestion(a, { spaceId: w.spaces.public.id, factId: w.facts.public.id, newText: 'x' }) },
  { op: 'getSuggestion', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.getSuggestion(a, w.privateSuggestion.id) },
  { op: 'listSuggestions', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.listSuggestions(a, w.spaces.private.id) },
  { op: 'getPendingSuggestions', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.getPendingSuggestions(a, w.spaces.org.id) },
  { op: 'updateSuggestion (not the suggester)', denied: EDITOR, allowed: VIEWER, run: (w, a) => w.collab.updateSuggestion(a, { suggestionId: w.suggestion.id, reason: 'changed' }) },
  { op: 'acceptSuggestion', denied: VIEWER, allowed: EDITOR, run: (w, a) => w.collab.acceptSuggestion(a, w.suggestion.id) },
  { op: 'rejectSuggestion', denied: VIEWER, allowed: EDITOR, run: (w, a) => w.collab.rejectSuggestion(a, w.suggestion.id) },
  { op: 'withdrawSuggestion (not the suggester)', denied: OWNER, allowed: VIEWER, run: (w, a) => w.collab.withdrawSuggestion(a, w.suggestion.id) },
  { op: 'deleteSuggestion', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.deleteSuggestion(a, w.suggestion.id) },
  { op: 'addComment (private)', denied: VIEWER, allowed: ADMIN, run: (w, a) => w.collab.addComment(a, { spaceId: w.spaces.private.id, factId: w.facts.private.id, text: 'x' }) },
  { op: 'addComment (public, non-member)', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.addComment(a, { spaceId: w.spaces.public.id, factId: w.facts.public.id, text: 'x' }) },
  { op: 'getComment', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.getComment(a, w.privateComment.id) },
  { op: 'listComments', denied: EDITOR, allowed: ADMIN, run: (w, a) => w.collab.listComments(a, { spaceId: w.spaces.private.id, factId: w.facts.private.id }) },
  { op: 'editComment (not the author)', denied: ADMIN, allowed: EDITOR, run: (w, a) => w.collab.editComment(a, { commentId: w.comment.id, text: 'edited' }) },
  { op: 'resolveComment', denied: VIEWER, allowed: ADMIN, run: (w, a) => w.collab.resolveComment(a, w.comment.id) },
  {
    op: 'reopenComment',
    setup: (w) => w.collab.resolveComment(EDITOR, w.comment.id),
    denied: VIEWER,
    allowed: ADMIN,
    run: (w, a) => w.collab.reopenComment(a, w.comment.id),
  },
  { op: 'deleteComment', denied: VIEWER, allowed: ADMIN, run: (w, a) => w.collab.deleteComment(a, w.comment.id) },
  { op: 'getRecentActivities', denied: OUTSIDER, allowed: VIEWER, run: (w, a) => w.collab.getRecentActivities(a, w.org.id, 10) },
];

describe('every operation refuses a user without the permission, and changes nothing', () => {
  let w: World;
  afterEach(() => w.close());

  it.each(ROWS)('$op: refused for $denied, allowed for $allowed', (row) => {
    w = makeWorld();
    row.setup?.(w);
    const err = expectRefused(w.svc.db, () => row.run(w, row.denied), 'MEM_ERR_PERMISSION_DENIED');
    expect(err.message).toContain(row.denied);
    expect(err.details).toMatchObject({ actor: row.denied });
    const before = checksum(w.svc.db);
    expect(() => row.run(w, row.allowed)).not.toThrow();
    // A permitted write changes something; a permitted read does not.
    if (!/^(get|list)/.test(row.op)) expect(checksum(w.svc.db)).not.toBe(before);
  });

  it('acceptSuggestionWithHooks (async): refused for a viewer with nothing changed, allowed for an editor', async () => {
    w = makeWorld();
    const before = checksum(w.svc.db);
    await expect(w.collab.acceptSuggestionWithHooks(VIEWER, w.suggestion.id)).rejects.toMatchObject({ code: 'MEM_ERR_PERMISSION_DENIED', details: { actor: VIEWER } });
    expect(checksum(w.svc.db)).toBe(before);
    await expect(w.collab.acceptSuggestionWithHooks(EDITOR, w.suggestion.id)).resolves.toMatchObject({ status: 'accepted', decidedBy: EDITOR });
    expect(checksum(w.svc.db)).not.toBe(before);
  });

  it('covers every acting operation of the service', () => {
    w = makeWorld();
    const ops = Object.getOwnPropertyNames(Object.getPrototypeOf(w.collab) as object).filter((n) => n !== 'constructor');
    // createOrganization and listOrganizations are open to anyone; hasPermission and permissionsOf take no actor.
    const open = new Set(['createOrganization', 'listOrganizations', 'hasPermission', 'permissionsOf', 'listSpaces']);
    const covered = new Set([...ROWS.map((r) => r.op.split(' ')[0]), 'acceptSuggestionWithHooks']);
    expect(ops.length).toBeGreaterThan(40);
    expect(ops.filter((o) => !open.has(o) && !covered.has(o))).toEqual([]);
  });
});
