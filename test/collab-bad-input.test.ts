/**
 * Bad input to every collaboration operation: a clear typed error naming the problem, and every table
 * of the database unchanged (checksummed before and after).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, GHOST, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

let w: World;
beforeAll(() => {
  w = makeWorld();
});
afterAll(() => w.close());

type Case = readonly [name: string, code: string, call: () => unknown, mentions?: string];
const cases = (): Case[] => {
  const long = (n: number) => 'x'.repeat(n);
  return [
    // The acting user
    ['actor: empty', 'MEM_ERR_INVALID_INPUT', () => w.collab.createOrganization('', { name: 'A' }), 'createOrganization.actor'],
    ['actor: surrounding whitespace', 'MEM_ERR_INVALID_INPUT', () => w.collab.getOrganization(' olivia', w.org.id), 'getOrganization.actor'],
    ['actor: control character', 'MEM_ERR_INVALID_INPUT', () => w.collab.listOrganizations('oli\nvia'), 'listOrganizations.actor'],
    ['actor: too long', 'MEM_ERR_INVALID_INPUT', () => w.collab.addComment(long(201), { spaceId: w.spaces.org.id, factId: w.facts.org.id, text: 'x' }), 'addComment.actor'],
    ['actor: not a string', 'MEM_ERR_INVALID_INPUT', () => w.collab.getSpace(42 as never, w.spaces.org.id), 'getSpace.actor'],
    // Organizations
    ['org: empty name', 'MEM_ERR_INVALID_INPUT', () => w.collab.createOrganization(OWNER, { name: '   ' }), 'createOrganization.name'],
    ['org: name too long', 'MEM_ERR_INVALID_INPUT', () => w.collab.createOrganization(OWNER, { name: long(201) }), 'createOrganization.name'],
    ['org: empty plan', 'MEM_ERR_INVALID_INPUT', () => w.collab.createOrganization(OWNER, { name: 'A', plan: '' }), 'createOrganization.plan'],
    ['org: unknown field', 'MEM_ERR_INVALID_INPUT', () => w.collab.createOrganization(OWNER, { name: 'A', id: GHOST.org } as never), 'createOrganization'],
    ['org: malformed id', 'MEM_ERR_INVALID_INPUT', () => w.collab.getOrganization(OWNER, 'acme'), 'getOrganization.orgId'],
    ['org: unknown id', 'MEM_ERR_ORG_NOT_FOUND', () => w.collab.getOrganization(OWNER, GHOST.org)],
    ['org: update with nothing to change', 'MEM_ERR_INVALID_INPUT', () => w.collab.updateOrganization(OWNER, { orgId: w.org.id }), 'updateOrganization'],
    ['org: delete unknown', 'MEM_ERR_ORG_NOT_FOUND', () => w.collab.deleteOrganization(OWNER, GHOST.org)],
    // Members
    ['member: duplicate', 'MEM_ERR_MEMBER_EXISTS', () => w.collab.addMember(OWNER, { orgId: w.org.id, userId: VIEWER, role: 'editor' }), VIEWER],
    ['member: role not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.addMember(OWNER, { orgId: w.org.id, userId: 'nina', role: 'superuser' as never }), '"owner", "admin", "editor", "viewer"'],
    ['member: unknown org', 'MEM_ERR_ORG_NOT_FOUND', () => w.collab.addMember(OWNER, { orgId: GHOST.org, userId: 'nina', role: 'viewer' })],
    ['member: change role of a non-member', 'MEM_ERR_MEMBER_NOT_FOUND', () => w.collab.updateMemberRole(OWNER, { orgId: w.org.id, userId: OUTSIDER, role: 'viewer' })],
    ['member: remove a non-member', 'MEM_ERR_MEMBER_NOT_FOUND', () => w.collab.removeMember(OWNER, { orgId: w.org.id, userId: OUTSIDER })],
    ['member: last owner leaves', 'MEM_ERR_LAST_OWNER', () => w.collab.removeMember(OWNER, { orgId: w.org.id, userId: OWNER })],
    ['member: last owner demoted', 'MEM_ERR_LAST_OWNER', () => w.collab.updateMemberRole(OWNER, { orgId: w.org.id, userId: OWNER, role: 'editor' })],
    // Spaces
    ['space: empty name', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSpace(OWNER, { orgId: w.org.id, name: '' }), 'createSpace.name'],
    ['space: duplicate name, other case', 'MEM_ERR_SPACE_EXISTS', () => w.collab.createSpace(OWNER, { orgId: w.org.id, name: 'team' }), 'Team'],
    ['space: rename onto another', 'MEM_ERR_SPACE_EXISTS', () => w.collab.updateSpace(OWNER, { spaceId: w.spaces.org.id, name: 'HANDBOOK' })],
    ['space: visibility not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSpace(OWNER, { orgId: w.org.id, name: 'X', visibility: 'secret' as never }), '"private", "org", "public"'],
    ['space: malformed id', 'MEM_ERR_INVALID_INPUT', () => w.collab.getSpace(OWNER, 'team'), 'getSpace.spaceId'],
    ['space: unknown id', 'MEM_ERR_SPACE_NOT_FOUND', () => w.collab.listSpaceFacts(OWNER, GHOST.space)],
    ['space: unknown org for create', 'MEM_ERR_ORG_NOT_FOUND', () => w.collab.createSpace(OWNER, { orgId: GHOST.org, name: 'X' })],
    // Permissions
    ['grant: permission not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.grantPermission(OWNER, { spaceId: w.spaces.org.id, userId: VIEWER, permission: 'admin' as never }), '"read", "write", "delete", "manage"'],
    ['grant: to a non-member', 'MEM_ERR_MEMBER_NOT_FOUND', () => w.collab.grantPermission(OWNER, { spaceId: w.spaces.org.id, userId: OUTSIDER, permission: 'read' })],
    ['grant: unknown space', 'MEM_ERR_SPACE_NOT_FOUND', () => w.collab.grantPermission(OWNER, { spaceId: GHOST.space, userId: VIEWER, permission: 'read' })],
    ['hasPermission: permission not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.hasPermission(VIEWER, w.spaces.org.id, 'fly' as never), 'hasPermission.permission'],
    ['hasPermission: unknown space', 'MEM_ERR_SPACE_NOT_FOUND', () => w.collab.hasPermission(VIEWER, GHOST.space, 'read')],
    // Facts in spaces
    ['space fact: unknown fact', 'MEM_ERR_FACT_NOT_FOUND', () => w.collab.addFactToSpace(OWNER, { spaceId: w.spaces.org.id, factId: GHOST.fact })],
    ['space fact: malformed fact id', 'MEM_ERR_INVALID_INPUT', () => w.collab.addFactToSpace(OWNER, { spaceId: w.spaces.org.id, factId: 'deploys' }), 'addFactToSpace.factId'],
    ['space fact: already there', 'MEM_ERR_FACT_IN_SPACE', () => w.collab.addFactToSpace(OWNER, { spaceId: w.spaces.org.id, factId: w.facts.org.id })],
    ['space fact: remove one not there', 'MEM_ERR_FACT_NOT_IN_SPACE', () => w.collab.removeFactFromSpace(OWNER, { spaceId: w.spaces.org.id, factId: w.loose.id })],
    ['space fact: list limit 0', 'MEM_ERR_INVALID_INPUT', () => w.collab.listSpaceFacts(OWNER, w.spaces.org.id, { limit: 0 }), 'listSpaceFacts.limit'],
    // Suggestions
    ['suggestion: edit_text without text', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id }), 'createSuggestion.newText'],
    ['suggestion: removal with text', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, suggestionType: 'remove_from_space', newText: 'x' }), 'createSuggestion.newText'],
    ['suggestion: type not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, suggestionType: 'rewrite' as never, newText: 'x' }), 'createSuggestion.suggestionType'],
    ['suggestion: empty text', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, newText: '  ' }), 'createSuggestion.newText'],
    ['suggestion: text too long', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, newText: long(10_001) }), 'at most 10000'],
    ['suggestion: reason too long', 'MEM_ERR_INVALID_INPUT', () => w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, newText: 'x', reason: long(2001) }), 'createSuggestion.reason'],
    ['suggestion: unknown id', 'MEM_ERR_SUGGESTION_NOT_FOUND', () => w.collab.acceptSuggestion(OWNER, GHOST.suggestion)],
    ['suggestion: malformed id', 'MEM_ERR_INVALID_INPUT', () => w.collab.rejectSuggestion(OWNER, 'sug_1'), 'rejectSuggestion.suggestionId'],
    ['suggestion: text on a removal', 'MEM_ERR_INVALID_INPUT', () => {
      const s = w.collab.listSuggestions(VIEWER, w.spaces.public.id).find((x) => x.suggestionType === 'remove_from_space');
      return w.collab.updateSuggestion(VIEWER, { suggestionId: s?.id ?? GHOST.suggestion, newText: 'x' });
    }, 'updateSuggestion.newText'],
    ['suggestion: list with a status not in the set', 'MEM_ERR_INVALID_INPUT', () => w.collab.listSuggestions(VIEWER, w.spaces.org.id, { status: 'open' as never }), 'listSuggestions.status'],
    // Comments
    ['comment: empty text', 'MEM_ERR_INVALID_INPUT', () => w.collab.addComment(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, text: '' }), 'addComment.text'],
    ['comment: text too long', 'MEM_ERR_INVALID_INPUT', () => w.collab.addComment(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.org.id, text: long(5001) }), 'at most 5000'],
    ['comment: unknown id', 'MEM_ERR_COMMENT_NOT_FOUND', () => w.collab.resolveComment(OWNER, GHOST.comment)],
    ['comment: edit to empty', 'MEM_ERR_INVALID_INPUT', () => w.collab.editComment(OWNER, { commentId: w.privateComment.id, text: ' ' }), 'editComment.text'],
    ['comment: on a fact in another space', 'MEM_ERR_FACT_NOT_IN_SPACE', () => w.collab.addComment(VIEWER, { spaceId: w.spaces.org.id, factId: w.facts.public.id, text: 'x' })],
    // Activities
    ['activities: limit 0', 'MEM_ERR_INVALID_INPUT', () => w.collab.getRecentActivities(OWNER, w.org.id, 0), 'getRecentActivities.limit'],
    ['activities: limit 501', 'MEM_ERR_INVALID_INPUT', () => w.collab.getRecentActivities(OWNER, w.org.id, 501), '<= 500'],
    ['activities: fractional limit', 'MEM_ERR_INVALID_INPUT', () => w.collab.getRecentActivities(OWNER, w.org.id, 2.5), 'getRecentActivities.limit'],
    ['activities: unknown org', 'MEM_ERR_ORG_NOT_FOUND', () => w.collab.getRecentActivities(OWNER, GHOST.org, 5)],
  ];
};

describe('bad input changes nothing', () => {
  beforeAll(() => {
    // A pending removal suggestion for the "text on a removal" case.
    w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.public.id, factId: w.facts.public.id, suggestionType: 'remove_from_space' });
  });

  it('has a case for each typed error the service raises on input', () => {
    const codes = new Set(cases().map((c) => c[1]));
    for (const code of ['MEM_ERR_INVALID_INPUT', 'MEM_ERR_ORG_NOT_FOUND', 'MEM_ERR_SPACE_NOT_FOUND', 'MEM_ERR_MEMBER_NOT_FOUND', 'MEM_ERR_MEMBER_EXISTS', 'MEM_ERR_LAST_OWNER', 'MEM_ERR_SPACE_EXISTS', 'MEM_ERR_FACT_NOT_IN_SPACE', 'MEM_ERR_FACT_IN_SPACE', 'MEM_ERR_SUGGESTION_NOT_FOUND', 'MEM_ERR_COMMENT_NOT_FOUND', 'MEM_ERR_FACT_NOT_FOUND']) {
      expect(codes, code).toContain(code);
    }
  });

  it.each(cases().map((c) => [c[0], c] as const))('%s', (_name, [, code, call, mentions]) => {
    const err = expectRefused(w.svc.db, call, code);
    if (mentions) expect(err.message).toContain(mentions);
    if (code === 'MEM_ERR_INVALID_INPUT') expect(err.details).toMatchObject({ path: expect.any(String), expected: expect.any(String), received: expect.any(String) });
  });
});
