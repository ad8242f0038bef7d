/**
 * The role -> permission matrix (every role, every permission, every visibility), fine-grained grants,
 * and the org-level override, on real SQLite: asked through hasPermission and held to through the
 * operations each permission gates.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORG_ROLES, PERMISSIONS, SPACE_VISIBILITIES, type Permission, type SpaceVisibility } from '../src/core/collab.js';
import { effectivePermissions, memberChangeRefusal, ROLE_PERMISSIONS } from '../src/core/collab-rules.js';
import { activityCount, ADMIN, codeOf, EDITOR, expectRefused, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

type Who = 'owner' | 'admin' | 'editor' | 'viewer' | 'outsider';
const USER: Record<Who, string> = { owner: OWNER, admin: ADMIN, editor: EDITOR, viewer: VIEWER, outsider: OUTSIDER };

/** The documented table, written out independently of the code (R W D M). */
const EXPECTED: Record<SpaceVisibility, Record<Who, string>> = {
  private: { owner: 'RWDM', admin: 'RWDM', editor: '', viewer: '', outsider: '' },
  org: { owner: 'RWDM', admin: 'RWDM', editor: 'RW', viewer: 'R', outsider: '' },
  public: { owner: 'RWDM', admin: 'RWDM', editor: 'RW', viewer: 'R', outsider: 'R' },
};
const LETTER: Record<Permission, string> = { read: 'R', write: 'W', delete: 'D', manage: 'M' };
const MATRIX = SPACE_VISIBILITIES.flatMap((v) =>
  (Object.keys(USER) as Who[]).flatMap((who) => PERMISSIONS.map((p) => ({ v, who, p, allowed: EXPECTED[v][who].includes(LETTER[p]) }))),
);

describe('the role table (pure)', () => {
  it('is the documented one: owner and admin everything, editor read+write, viewer read', () => {
    expect(ROLE_PERMISSIONS).toEqual({
      owner: ['read', 'write', 'delete', 'manage'],
      admin: ['read', 'write', 'delete', 'manage'],
      editor: ['read', 'write'],
      viewer: ['read'],
    });
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual([...ORG_ROLES].sort());
  });

  it('grants add to the role on shared spaces, are the only source on private ones, and imply read', () => {
    expect(effectivePermissions({ role: 'viewer', visibility: 'org', grants: ['write'] })).toEqual(['read', 'write']);
    expect(effectivePermissions({ role: 'editor', visibility: 'private', grants: ['manage'] })).toEqual(['read', 'manage']);
    expect(effectivePermissions({ role: 'editor', visibility: 'private', grants: [] })).toEqual([]);
    expect(effectivePermissions({ role: null, visibility: 'public', grants: ['write'] })).toEqual(['read']);
    expect(effectivePermissions({ role: 'admin', visibility: 'private', grants: [] })).toEqual([...PERMISSIONS]);
  });

  it.each([
    ['admin adds an editor', { actor: { userId: 'a', role: 'admin' }, target: { userId: 'x', role: null }, next: 'editor', owners: 1 }, null],
    ['editor adds a viewer', { actor: { userId: 'e', role: 'editor' }, target: { userId: 'x', role: null }, next: 'viewer', owners: 1 }, 'permission'],
    ['admin makes an owner', { actor: { userId: 'a', role: 'admin' }, target: { userId: 'x', role: 'editor' }, next: 'owner', owners: 1 }, 'permission'],
    ['admin removes an owner', { actor: { userId: 'a', role: 'admin' }, target: { userId: 'o', role: 'owner' }, next: null, owners: 2 }, 'permission'],
    ['viewer leaves', { actor: { userId: 'v', role: 'viewer' }, target: { userId: 'v', role: 'viewer' }, next: null, owners: 1 }, null],
    ['last owner leaves', { actor: { userId: 'o', role: 'owner' }, target: { userId: 'o', role: 'owner' }, next: null, owners: 1 }, 'last_owner'],
    ['last owner demoted', { actor: { userId: 'o', role: 'owner' }, target: { userId: 'o', role: 'owner' }, next: 'admin', owners: 1 }, 'last_owner'],
    ['one of two owners demoted', { actor: { userId: 'o', role: 'owner' }, target: { userId: 'p', role: 'owner' }, next: 'admin', owners: 2 }, null],
  ] as const)('member change: %s', (_name, change, refusal) => {
    expect(memberChangeRefusal(change)).toBe(refusal);
  });
});

describe('the matrix through hasPermission (every role x permission x visibility)', () => {
  let w: World;
  beforeAll(() => {
    w = makeWorld();
  });
  afterAll(() => w.close());

  it.each(MATRIX)('$who $p on a $v space: $allowed', ({ v, who, p, allowed }) => {
    expect(w.collab.hasPermission(USER[who], w.spaces[v].id, p)).toBe(allowed);
  });

  it('permissionsOf lists the same row', () => {
    for (const v of SPACE_VISIBILITIES) {
      for (const who of Object.keys(USER) as Who[]) {
        expect(w.collab.permissionsOf(USER[who], w.spaces[v].id).map((p) => LETTER[p]).join('')).toBe(EXPECTED[v][who]);
      }
    }
  });
});

/** One operation per permission, each run on a fresh world: allowed ones succeed, the rest are refused and change nothing. */
const GATED: Record<Permission, (w: World, user: string, v: SpaceVisibility) => unknown> = {
  read: (w, user, v) => w.collab.listSpaceFacts(user, w.spaces[v].id),
  write: (w, user, v) => w.collab.addFactToSpace(user, { spaceId: w.spaces[v].id, factId: w.loose.id }),
  delete: (w, user, v) => w.collab.deleteSpace(user, w.spaces[v].id),
  manage: (w, user, v) => w.collab.updateSpace(user, { spaceId: w.spaces[v].id, name: 'Renamed' }),
};

describe('the matrix holds through the operations each permission gates', () => {
  let w: World;
  afterEach(() => w.close());

  it.each(MATRIX)('$who $p on a $v space: $allowed', ({ v, who, p, allowed }) => {
    w = makeWorld();
    if (allowed) {
      const before = activityCount(w.svc.db);
      GATED[p](w, USER[who], v);
      expect(activityCount(w.svc.db)).toBe(p === 'read' ? before : before + 1);
    } else {
      expectRefused(w.svc.db, () => GATED[p](w, USER[who], v), 'MEM_ERR_PERMISSION_DENIED');
    }
  });
});

describe('grants and the org override', () => {
  let w: World;
  afterEach(() => w.close());

  it('a grant lifts a viewer to write on one space only, and the write works there', () => {
    w = makeWorld();
    const { collab, spaces, org } = w;
    expect(collab.grantPermission(ADMIN, { spaceId: spaces.org.id, userId: VIEWER, permission: 'write' })).toBe(true);
    expect(collab.permissionsOf(VIEWER, spaces.org.id)).toEqual(['read', 'write']);
    expect(collab.permissionsOf(VIEWER, spaces.public.id)).toEqual(['read']);
    expect(collab.addFactToSpace(VIEWER, { spaceId: spaces.org.id, factId: w.loose.id }).id).toBe(w.loose.id);
    expectRefused(w.svc.db, () => collab.addFactToSpace(VIEWER, { spaceId: spaces.public.id, factId: w.loose.id }), 'MEM_ERR_PERMISSION_DENIED');
    // Grants are listed with who granted them and when.
    expect(collab.listSpacePermissions(VIEWER, spaces.org.id)).toContainEqual({ spaceId: spaces.org.id, userId: VIEWER, permission: 'write', grantedBy: ADMIN, grantedAt: w.clock.now });
    // Revoked, the viewer is back to the role's read.
    expect(collab.revokePermission(OWNER, { spaceId: spaces.org.id, userId: VIEWER, permission: 'write' })).toBe(true);
    expect(collab.permissionsOf(VIEWER, spaces.org.id)).toEqual(['read']);
    expect(collab.getOrganization(VIEWER, org.id).id).toBe(org.id);
  });

  it('a private space gives editors and viewers only what they were granted (any grant includes read)', () => {
    w = makeWorld();
    const { collab, spaces } = w;
    const priv = spaces.private.id;
    expect(codeOf(() => collab.getSpace(EDITOR, priv))).toBe('MEM_ERR_PERMISSION_DENIED');
    collab.grantPermission(OWNER, { spaceId: priv, userId: EDITOR, permission: 'read' });
    expect(collab.permissionsOf(EDITOR, priv)).toEqual(['read']); // the editor role's write does not reach in
    expect(collab.getSpace(EDITOR, priv).name).toBe('Secrets');
    expect(codeOf(() => collab.addFactToSpace(EDITOR, { spaceId: priv, factId: w.loose.id }))).toBe('MEM_ERR_PERMISSION_DENIED');
    collab.grantPermission(OWNER, { spaceId: priv, userId: VIEWER, permission: 'manage' });
    expect(collab.permissionsOf(VIEWER, priv)).toEqual(['read', 'manage']);
    expect(collab.updateSpace(VIEWER, { spaceId: priv, name: 'Vault' }).name).toBe('Vault');
  });

  it('org owners and admins hold every permission on every space, whatever its grants and visibility', () => {
    w = makeWorld();
    const { collab, org } = w;
    // A private space made by the editor: only the editor holds grants on it.
    const mine = collab.createSpace(EDITOR, { orgId: org.id, name: 'Erin notes', visibility: 'private' });
    expect(collab.listSpacePermissions(EDITOR, mine.id).map((g) => `${g.userId}:${g.permission}`)).toEqual(PERMISSIONS.map((p) => `${EDITOR}:${p}`));
    for (const boss of [OWNER, ADMIN]) expect(collab.permissionsOf(boss, mine.id)).toEqual([...PERMISSIONS]);
    expect(collab.listSpaces(ADMIN, org.id).map((s) => s.name)).toContain('Erin notes');
    expect(collab.listSpaces(VIEWER, org.id).map((s) => s.name)).not.toContain('Erin notes');
    // The creator's own grants cannot be used to shut the admin out: revoking them changes nothing for the admin.
    for (const p of PERMISSIONS) collab.revokePermission(ADMIN, { spaceId: mine.id, userId: EDITOR, permission: p });
    expect(collab.permissionsOf(EDITOR, mine.id)).toEqual([]);
    expect(collab.permissionsOf(ADMIN, mine.id)).toEqual([...PERMISSIONS]);
    // The override is the role's: an admin demoted to viewer loses it.
    collab.updateMemberRole(OWNER, { orgId: org.id, userId: ADMIN, role: 'viewer' });
    expect(collab.permissionsOf(ADMIN, mine.id)).toEqual([]);
    expect(collab.permissionsOf(ADMIN, w.spaces.org.id)).toEqual(['read']);
  });

  it('the creator of a space keeps full control of it after being demoted (the grants are theirs)', () => {
    w = makeWorld();
    const { collab, org } = w;
    const mine = collab.createSpace(EDITOR, { orgId: org.id, name: 'Runbooks', visibility: 'org' });
    expect(collab.permissionsOf(EDITOR, mine.id)).toEqual([...PERMISSIONS]);
    expect(collab.permissionsOf(EDITOR, w.spaces.org.id)).toEqual(['read', 'write']);
    collab.updateMemberRole(OWNER, { orgId: org.id, userId: EDITOR, role: 'viewer' });
    expect(collab.permissionsOf(EDITOR, mine.id)).toEqual([...PERMISSIONS]);
    expect(collab.permissionsOf(EDITOR, w.spaces.org.id)).toEqual(['read']);
  });

  it('repeating a grant or revoking a missing one changes nothing and records nothing', () => {
    w = makeWorld();
    const { collab, spaces } = w;
    const g = { spaceId: spaces.org.id, userId: VIEWER, permission: 'delete' as const };
    expect(collab.grantPermission(OWNER, g)).toBe(true);
    const count = activityCount(w.svc.db);
    expect(collab.grantPermission(OWNER, g)).toBe(false);
    expect(collab.revokePermission(OWNER, { ...g, permission: 'manage' })).toBe(false);
    expect(activityCount(w.svc.db)).toBe(count);
  });

  it('grants go only to members, and leave with them', () => {
    w = makeWorld();
    const { collab, spaces, org } = w;
    expectRefused(w.svc.db, () => collab.grantPermission(OWNER, { spaceId: spaces.org.id, userId: OUTSIDER, permission: 'read' }), 'MEM_ERR_MEMBER_NOT_FOUND');
    collab.grantPermission(OWNER, { spaceId: spaces.private.id, userId: VIEWER, permission: 'write' });
    collab.removeMember(ADMIN, { orgId: org.id, userId: VIEWER });
    expect(collab.listSpacePermissions(OWNER, spaces.private.id).map((g) => g.userId)).not.toContain(VIEWER);
    collab.addMember(ADMIN, { orgId: org.id, userId: VIEWER, role: 'viewer' });
    expect(collab.permissionsOf(VIEWER, spaces.private.id)).toEqual([]);
  });

  it('non-members read public spaces but take no part: suggesting and commenting need membership', () => {
    w = makeWorld();
    const { collab, spaces, facts } = w;
    expect(collab.listSpaceFacts(OUTSIDER, spaces.public.id).map((f) => f.id)).toEqual([facts.public.id]);
    expectRefused(w.svc.db, () => collab.createSuggestion(OUTSIDER, { spaceId: spaces.public.id, factId: facts.public.id, newText: 'office opens at 8' }), 'MEM_ERR_PERMISSION_DENIED');
    expectRefused(w.svc.db, () => collab.addComment(OUTSIDER, { spaceId: spaces.public.id, factId: facts.public.id, text: 'hi' }), 'MEM_ERR_PERMISSION_DENIED');
    expect(collab.createSuggestion(VIEWER, { spaceId: spaces.public.id, factId: facts.public.id, newText: 'office opens at 8' }).status).toBe('pending');
  });
});
