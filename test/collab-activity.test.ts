/**
 * The activity trail: every action writes one record (who, what, target, when) in the same transaction
 * as the change, so a change whose record cannot be written does not happen; getRecentActivities is
 * newest first, bounded, and shows each member only what they may read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CollabService } from '../src/collab/service.js';
import type { ActivityAction, ActivityTarget } from '../src/core/collab.js';
import { openService, tempHome } from './helpers.js';
import { activityCount, ADMIN, checksum, codeOf, EDITOR, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

interface Mutation {
  readonly action: ActivityAction;
  readonly actor: string;
  readonly target: ActivityTarget;
  readonly run: (w: World) => unknown;
}

const MUTATIONS: readonly Mutation[] = [
  { action: 'org.created', actor: VIEWER, target: 'organization', run: (w) => w.collab.createOrganization(VIEWER, { name: 'Side project' }) },
  { action: 'org.updated', actor: ADMIN, target: 'organization', run: (w) => w.collab.updateOrganization(ADMIN, { orgId: w.org.id, name: 'Acme Inc' }) },
  { action: 'org.ownership_transferred', actor: OWNER, target: 'organization', run: (w) => w.collab.transferOwnership(OWNER, { orgId: w.org.id, toUserId: ADMIN }) },
  { action: 'member.added', actor: ADMIN, target: 'member', run: (w) => w.collab.addMember(ADMIN, { orgId: w.org.id, userId: 'nina', role: 'editor' }) },
  { action: 'member.role_changed', actor: ADMIN, target: 'member', run: (w) => w.collab.updateMemberRole(ADMIN, { orgId: w.org.id, userId: VIEWER, role: 'editor' }) },
  { action: 'member.removed', actor: VIEWER, target: 'member', run: (w) => w.collab.removeMember(VIEWER, { orgId: w.org.id, userId: VIEWER }) },
  { action: 'space.created', actor: EDITOR, target: 'space', run: (w) => w.collab.createSpace(EDITOR, { orgId: w.org.id, name: 'Runbooks' }) },
  { action: 'space.updated', actor: OWNER, target: 'space', run: (w) => w.collab.updateSpace(OWNER, { spaceId: w.spaces.org.id, visibility: 'public' }) },
  { action: 'permission.granted', actor: OWNER, target: 'permission', run: (w) => w.collab.grantPermission(OWNER, { spaceId: w.spaces.org.id, userId: VIEWER, permission: 'write' }) },
  { action: 'permission.revoked', actor: OWNER, target: 'permission', run: (w) => w.collab.revokePermission(OWNER, { spaceId: w.spaces.private.id, userId: OWNER, permission: 'write' }) },
  { action: 'fact.added', actor: EDITOR, target: 'fact', run: (w) => w.collab.addFactToSpace(EDITOR, { spaceId: w.spaces.org.id, factId: w.loose.id }) },
  { action: 'fact.removed', actor: EDITOR, target: 'fact', run: (w) => w.collab.removeFactFromSpace(EDITOR, { spaceId: w.spaces.org.id, factId: w.facts.org.id }) },
  { action: 'suggestion.created', actor: VIEWER, target: 'suggestion', run: (w) => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.public.id, factId: w.facts.public.id, newText: 'office opens at 8' }) },
  { action: 'suggestion.updated', actor: VIEWER, target: 'suggestion', run: (w) => w.collab.updateSuggestion(VIEWER, { suggestionId: w.suggestion.id, reason: 'confirmed' }) },
  { action: 'suggestion.accepted', actor: EDITOR, target: 'suggestion', run: (w) => w.collab.acceptSuggestion(EDITOR, w.suggestion.id) },
  { action: 'suggestion.rejected', actor: EDITOR, target: 'suggestion', run: (w) => w.collab.rejectSuggestion(EDITOR, w.suggestion.id) },
  { action: 'suggestion.withdrawn', actor: VIEWER, target: 'suggestion', run: (w) => w.collab.withdrawSuggestion(VIEWER, w.suggestion.id) },
  { action: 'suggestion.deleted', actor: ADMIN, target: 'suggestion', run: (w) => w.collab.deleteSuggestion(ADMIN, w.suggestion.id) },
  { action: 'comment.added', actor: VIEWER, target: 'comment', run: (w) => w.collab.addComment(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, text: 'agreed' }) },
  { action: 'comment.edited', actor: EDITOR, target: 'comment', run: (w) => w.collab.editComment(EDITOR, { commentId: w.comment.id, text: 'still true?' }) },
  { action: 'comment.resolved', actor: EDITOR, target: 'comment', run: (w) => w.collab.resolveComment(EDITOR, w.comment.id) },
  {
    action: 'comment.reopened',
    actor: ADMIN,
    target: 'comment',
    run: (w) => {
      w.svc.db.prepare('UPDATE collab_comments SET resolved = 1, resolved_by = ?, resolved_at = 1 WHERE id = ?').run(EDITOR, w.comment.id);
      return w.collab.reopenComment(ADMIN, w.comment.id);
    },
  },
  { action: 'comment.deleted', actor: EDITOR, target: 'comment', run: (w) => w.collab.deleteComment(EDITOR, w.comment.id) },
  { action: 'space.deleted', actor: ADMIN, target: 'space', run: (w) => w.collab.deleteSpace(ADMIN, w.spaces.public.id) },
  { action: 'org.deleted', actor: OWNER, target: 'organization', run: (w) => w.collab.deleteOrganization(OWNER, w.org.id) },
];

function newest(w: World): { action: string; actor_id: string; target_type: string; at: number } {
  return w.svc.db.prepare('SELECT action, actor_id, target_type, at FROM collab_activities ORDER BY seq DESC LIMIT 1').get() as never;
}

describe('every action writes its activity record in the same transaction', () => {
  let w: World;
  afterEach(() => w.close());

  it('the list covers every action', async () => {
    const { ACTIVITY_ACTIONS } = await import('../src/core/collab.js');
    expect(MUTATIONS.map((m) => m.action).sort()).toEqual([...ACTIVITY_ACTIONS].sort());
    w = makeWorld();
  });

  it.each(MUTATIONS)('$action by $actor', (m) => {
    w = makeWorld();
    // With the trail unwritable the action fails and nothing at all changes...
    w.svc.db.exec(`CREATE TRIGGER fail_trail BEFORE INSERT ON collab_activities BEGIN SELECT RAISE(ABORT, 'trail is down'); END`);
    if (m.action === 'comment.reopened') w.svc.db.prepare('UPDATE collab_comments SET resolved = 1, resolved_by = ?, resolved_at = 1 WHERE id = ?').run(EDITOR, w.comment.id);
    const before = checksum(w.svc.db);
    expect(codeOf(() => m.run(w))).toBe('MEM_ERR_INTERNAL');
    expect(checksum(w.svc.db)).toBe(before);
    w.svc.db.exec('DROP TRIGGER fail_trail');
    // ...and with it, the action writes exactly one record naming it, its actor, target and time.
    const count = activityCount(w.svc.db);
    w.clock.advance(7);
    m.run(w);
    expect(activityCount(w.svc.db)).toBe(count + 1);
    expect(newest(w)).toEqual({ action: m.action, actor_id: m.actor, target_type: m.target, at: w.clock.now });
  });
});

describe('getRecentActivities', () => {
  it('tells the story of an organization newest first, with targets and details', () => {
    const home = tempHome();
    const { svc, clock } = openService(home);
    const collab = new CollabService(svc);
    const tick = () => clock.advance(1);
    try {
      const org = collab.createOrganization(OWNER, { name: 'Acme' });
      tick();
      collab.addMember(OWNER, { orgId: org.id, userId: EDITOR, role: 'editor' });
      tick();
      const space = collab.createSpace(EDITOR, { orgId: org.id, name: 'Team', visibility: 'org' });
      tick();
      const fact = svc.memoryStore({ text: 'standup is at 10' }).fact;
      collab.addFactToSpace(EDITOR, { spaceId: space.id, factId: fact.id });
      tick();
      const s = collab.createSuggestion(OWNER, { spaceId: space.id, factId: fact.id, newText: 'standup is at 9:30' });
      tick();
      const accepted = collab.acceptSuggestion(EDITOR, s.id);
      const trail = collab.getRecentActivities(OWNER, org.id);
      expect(trail.map((a) => [a.action, a.actorId, a.targetType, a.targetId, a.spaceId, a.at - trail[trail.length - 1]!.at])).toEqual([
        ['suggestion.accepted', EDITOR, 'suggestion', s.id, space.id, 5],
        ['suggestion.created', OWNER, 'suggestion', s.id, space.id, 4],
        ['fact.added', EDITOR, 'fact', fact.id, space.id, 3],
        ['space.created', EDITOR, 'space', space.id, space.id, 2],
        ['member.added', OWNER, 'member', EDITOR, null, 1],
        ['org.created', OWNER, 'organization', org.id, null, 0],
      ]);
      expect(trail[0]?.details).toEqual({ suggestionType: 'edit_text', factId: fact.id, appliedFactId: accepted.appliedFactId });
      expect(trail[4]?.details).toEqual({ role: 'editor' });
      expect(trail.every((a) => a.orgId === org.id && /^act_/.test(a.id))).toBe(true);
    } finally {
      void svc.close();
      home.cleanup();
    }
  });
});

describe('getRecentActivities on a world', () => {
  let w: World;
  afterEach(() => w.close());

  it('is bounded by limit (1..500, default 50) and breaks ties in time by order of writing', () => {
    w = makeWorld();
    const { collab, org, spaces } = w;
    for (let i = 0; i < 60; i++) collab.addComment(VIEWER, { spaceId: spaces.org.id, factId: w.facts.org.id, text: `comment ${i}` });
    const all = collab.getRecentActivities(OWNER, org.id, 500);
    expect(all.length).toBe(activityCount(w.svc.db));
    expect(collab.getRecentActivities(OWNER, org.id)).toHaveLength(50);
    const three = collab.getRecentActivities(OWNER, org.id, 3);
    expect(three).toEqual(all.slice(0, 3));
    // All 60 comments share one timestamp: the newest written comes first.
    const texts = three.map((a) => collab.getComment(OWNER, a.targetId).text);
    expect(texts).toEqual(['comment 59', 'comment 58', 'comment 57']);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.at).toBeGreaterThanOrEqual(all[i]!.at);
  });

  it('shows each member only the records of spaces they may read; outsiders nothing', () => {
    w = makeWorld();
    const { collab, org, spaces } = w;
    const spaceOf = (user: string) => new Set(collab.getRecentActivities(user, org.id, 500).map((a) => a.spaceId));
    expect(spaceOf(ADMIN)).toEqual(new Set([null, spaces.private.id, spaces.org.id, spaces.public.id]));
    expect(spaceOf(EDITOR)).toEqual(new Set([null, spaces.org.id, spaces.public.id]));
    collab.grantPermission(OWNER, { spaceId: spaces.private.id, userId: EDITOR, permission: 'read' });
    expect(spaceOf(EDITOR)).toEqual(new Set([null, spaces.private.id, spaces.org.id, spaces.public.id]));
    expect(codeOf(() => collab.getRecentActivities(OUTSIDER, org.id))).toBe('MEM_ERR_PERMISSION_DENIED');
  });

  it('outlives what it records: a deleted organization leaves its trail in the table', () => {
    w = makeWorld();
    const { collab, org, svc } = w;
    const count = activityCount(svc.db);
    collab.deleteOrganization(OWNER, org.id);
    expect(activityCount(svc.db)).toBe(count + 1);
    expect(newest(w)).toMatchObject({ action: 'org.deleted', actor_id: OWNER });
    expect(codeOf(() => collab.getRecentActivities(OWNER, org.id))).toBe('MEM_ERR_ORG_NOT_FOUND');
  });
});
