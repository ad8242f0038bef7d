/** Organizations and members: creation by anyone, roles, the last-owner rule, ownership transfer, deletion. */
import { afterEach, describe, expect, it } from 'vitest';
import { CollabService } from '../src/collab/service.js';
import { openService, tempHome } from './helpers.js';
import { activityCount, ADMIN, EDITOR, expectRefused, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

describe('organizations', () => {
  it('anyone may create one and becomes its owner; plan defaults to free', () => {
    const home = tempHome();
    const { svc, clock } = openService(home);
    try {
      const collab = new CollabService(svc);
      const org = collab.createOrganization('zoe', { name: '  Zoe Labs ' });
      expect(org).toEqual({ id: expect.stringMatching(/^org_/), name: 'Zoe Labs', plan: 'free', createdAt: clock.now });
      expect(collab.getOrganization('zoe', org.id)).toEqual(org);
      expect(collab.listMembers('zoe', org.id)).toEqual([{ userId: 'zoe', orgId: org.id, role: 'owner', joinedAt: clock.now }]);
      const second = collab.createOrganization('zoe', { name: 'Second', plan: 'team' });
      expect(collab.listOrganizations('zoe').map((o) => o.id)).toEqual([org.id, second.id]);
      expect(collab.listOrganizations('nobody')).toEqual([]);
    } finally {
      void svc.close();
      home.cleanup();
    }
  });
});

describe('members and owners', () => {
  let w: World;
  afterEach(() => w.close());

  it('members are listed in join order and readable by any member', () => {
    w = makeWorld();
    expect(w.collab.listMembers(VIEWER, w.org.id).map((m) => `${m.userId}:${m.role}`)).toEqual(['olivia:owner', 'adam:admin', 'erin:editor', 'victor:viewer']);
    expect(w.collab.getMember(EDITOR, { orgId: w.org.id, userId: ADMIN }).role).toBe('admin');
    expectRefused(w.svc.db, () => w.collab.getMember(EDITOR, { orgId: w.org.id, userId: OUTSIDER }), 'MEM_ERR_MEMBER_NOT_FOUND');
  });

  it('the last owner can be neither removed nor demoted; with a second owner, either can go', () => {
    w = makeWorld();
    const { collab, org, svc } = w;
    expectRefused(svc.db, () => collab.removeMember(OWNER, { orgId: org.id, userId: OWNER }), 'MEM_ERR_LAST_OWNER');
    expectRefused(svc.db, () => collab.updateMemberRole(OWNER, { orgId: org.id, userId: OWNER, role: 'admin' }), 'MEM_ERR_LAST_OWNER');
    // An admin may not touch an owner at all.
    expectRefused(svc.db, () => collab.removeMember(ADMIN, { orgId: org.id, userId: OWNER }), 'MEM_ERR_PERMISSION_DENIED');
    expectRefused(svc.db, () => collab.updateMemberRole(ADMIN, { orgId: org.id, userId: ADMIN, role: 'owner' }), 'MEM_ERR_PERMISSION_DENIED');

    collab.updateMemberRole(OWNER, { orgId: org.id, userId: ADMIN, role: 'owner' });
    collab.updateMemberRole(ADMIN, { orgId: org.id, userId: OWNER, role: 'viewer' });
    expect(collab.getMember(OWNER, { orgId: org.id, userId: OWNER }).role).toBe('viewer');
    expectRefused(svc.db, () => collab.removeMember(ADMIN, { orgId: org.id, userId: ADMIN }), 'MEM_ERR_LAST_OWNER');
  });

  it('any member may leave; admins manage non-owners; setting the same role records nothing', () => {
    w = makeWorld();
    const { collab, org, svc } = w;
    collab.removeMember(VIEWER, { orgId: org.id, userId: VIEWER });
    expectRefused(svc.db, () => collab.getOrganization(VIEWER, org.id), 'MEM_ERR_PERMISSION_DENIED');
    expect(collab.updateMemberRole(ADMIN, { orgId: org.id, userId: EDITOR, role: 'admin' }).role).toBe('admin');
    const count = activityCount(svc.db);
    expect(collab.updateMemberRole(ADMIN, { orgId: org.id, userId: EDITOR, role: 'admin' }).role).toBe('admin');
    expect(activityCount(svc.db)).toBe(count);
    expectRefused(svc.db, () => collab.addMember(ADMIN, { orgId: org.id, userId: EDITOR, role: 'viewer' }), 'MEM_ERR_MEMBER_EXISTS');
  });

  it('transferring ownership makes the other member owner and the old owner admin', () => {
    w = makeWorld();
    const { collab, org, svc } = w;
    expectRefused(svc.db, () => collab.transferOwnership(OWNER, { orgId: org.id, toUserId: OUTSIDER }), 'MEM_ERR_MEMBER_NOT_FOUND');
    expectRefused(svc.db, () => collab.transferOwnership(OWNER, { orgId: org.id, toUserId: OWNER }), 'MEM_ERR_INVALID_INPUT');
    collab.transferOwnership(OWNER, { orgId: org.id, toUserId: VIEWER });
    expect(collab.listMembers(OWNER, org.id).map((m) => `${m.userId}:${m.role}`)).toEqual(['olivia:admin', 'adam:admin', 'erin:editor', 'victor:owner']);
    expectRefused(svc.db, () => collab.deleteOrganization(OWNER, org.id), 'MEM_ERR_PERMISSION_DENIED');
    expect(collab.getRecentActivities(VIEWER, org.id, 1)[0]?.details).toEqual({ from: OWNER, to: VIEWER, previousRole: 'viewer' });
  });

  it('deleting an organization removes its members, spaces and everything in them, never the facts', () => {
    w = makeWorld();
    const { collab, org, svc } = w;
    const factCount = svc.listFacts().length;
    collab.deleteOrganization(OWNER, org.id);
    for (const t of ['collab_orgs', 'collab_members', 'collab_spaces', 'collab_space_permissions', 'collab_space_facts', 'collab_suggestions', 'collab_comments']) {
      expect(svc.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(), t).toBe(0);
    }
    expect(svc.listFacts()).toHaveLength(factCount);
    expectRefused(svc.db, () => collab.getOrganization(OWNER, org.id), 'MEM_ERR_ORG_NOT_FOUND');
    expectRefused(svc.db, () => collab.getSpace(OWNER, w.spaces.public.id), 'MEM_ERR_SPACE_NOT_FOUND');
    expect(collab.listOrganizations(OWNER)).toEqual([]);
  });

  it('deleting a space removes its grants, placements, suggestions and comments', () => {
    w = makeWorld();
    const { collab, svc, spaces } = w;
    collab.deleteSpace(ADMIN, spaces.org.id);
    for (const t of ['collab_space_permissions', 'collab_space_facts', 'collab_suggestions', 'collab_comments']) {
      expect(svc.db.prepare(`SELECT count(*) FROM ${t} WHERE space_id = ?`).pluck().get(spaces.org.id), t).toBe(0);
    }
    expect(collab.listSpaces(OWNER, w.org.id).map((s) => s.name)).toEqual(['Secrets', 'Handbook']);
    expectRefused(svc.db, () => collab.getSuggestion(OWNER, w.suggestion.id), 'MEM_ERR_SUGGESTION_NOT_FOUND');
  });
});
