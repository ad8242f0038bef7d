/**
 * A space's visibility is enforced on every read: private = members holding a grant (and org owners and
 * admins), org = every member, public = anyone. Table-driven over visibility x reader x read operation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CollabService } from '../src/collab/service.js';
import { SPACE_VISIBILITIES, type FactComment, type FactSuggestion, type SpaceVisibility } from '../src/core/collab.js';
import { ADMIN, codeOf, EDITOR, makeWorld, OUTSIDER, OWNER, VIEWER, type World } from './support/collab.js';

const GRANTED = 'gina'; // a viewer holding a read grant on every space
const READERS = { owner: OWNER, admin: ADMIN, editor: EDITOR, viewer: VIEWER, granted: GRANTED, outsider: OUTSIDER } as const;
type Reader = keyof typeof READERS;
const CAN_READ: Record<SpaceVisibility, readonly Reader[]> = {
  private: ['owner', 'admin', 'granted'],
  org: ['owner', 'admin', 'editor', 'viewer', 'granted'],
  public: ['owner', 'admin', 'editor', 'viewer', 'granted', 'outsider'],
};

type ReadOp = (w: World, user: string, v: SpaceVisibility) => unknown;
let threads: Record<SpaceVisibility, { suggestion: FactSuggestion; comment: FactComment }>;
const READ_OPS: Record<string, ReadOp> = {
  getSpace: (w, u, v) => w.collab.getSpace(u, w.spaces[v].id),
  listSpaceFacts: (w, u, v) => w.collab.listSpaceFacts(u, w.spaces[v].id),
  listSuggestions: (w, u, v) => w.collab.listSuggestions(u, w.spaces[v].id),
  getPendingSuggestions: (w, u, v) => w.collab.getPendingSuggestions(u, w.spaces[v].id),
  getSuggestion: (w, u, v) => w.collab.getSuggestion(u, threads[v].suggestion.id),
  listComments: (w, u, v) => w.collab.listComments(u, { spaceId: w.spaces[v].id, factId: w.facts[v].id }),
  getComment: (w, u, v) => w.collab.getComment(u, threads[v].comment.id),
  listSpacePermissions: (w, u, v) => w.collab.listSpacePermissions(u, w.spaces[v].id),
};
const CASES = SPACE_VISIBILITIES.flatMap((v) =>
  (Object.keys(READERS) as Reader[]).flatMap((reader) => Object.keys(READ_OPS).map((op) => ({ v, reader, op, allowed: CAN_READ[v].includes(reader) }))),
);

describe('visibility on reads', () => {
  let w: World;
  beforeAll(() => {
    w = makeWorld();
    w.collab.addMember(OWNER, { orgId: w.org.id, userId: GRANTED, role: 'viewer' });
    for (const v of SPACE_VISIBILITIES) w.collab.grantPermission(OWNER, { spaceId: w.spaces[v].id, userId: GRANTED, permission: 'read' });
    threads = {
      private: { suggestion: w.privateSuggestion, comment: w.privateComment },
      org: { suggestion: w.suggestion, comment: w.comment },
      public: {
        suggestion: w.collab.createSuggestion(VIEWER, { spaceId: w.spaces.public.id, factId: w.facts.public.id, newText: 'office opens at 8' }),
        comment: w.collab.addComment(VIEWER, { spaceId: w.spaces.public.id, factId: w.facts.public.id, text: 'since when?' }),
      },
    };
  });
  afterAll(() => w.close());

  it.each(CASES)('$op on a $v space by $reader: $allowed', ({ v, reader, op, allowed }) => {
    const call = () => READ_OPS[op]?.(w, READERS[reader], v);
    if (allowed) {
      const result = call();
      if (op === 'listSpaceFacts') expect((result as { id: string }[]).map((f) => f.id)).toEqual([w.facts[v].id]);
      if (op === 'getPendingSuggestions') expect((result as { id: string }[]).map((s) => s.id)).toContain(threads[v].suggestion.id);
    } else {
      expect(codeOf(call)).toBe('MEM_ERR_PERMISSION_DENIED');
    }
  });

  it.each(Object.keys(READERS) as Reader[])('listSpaces shows %s exactly the spaces they may read', (reader) => {
    const names = w.collab.listSpaces(READERS[reader], w.org.id).map((s) => s.visibility);
    expect(names).toEqual(SPACE_VISIBILITIES.filter((v) => CAN_READ[v].includes(reader)));
  });
});

describe('visibility changes and the memory scope', () => {
  let w: World;
  afterEach(() => w.close());

  it('a change of visibility applies to the next read', () => {
    w = makeWorld();
    const { collab, spaces } = w;
    collab.updateSpace(ADMIN, { spaceId: spaces.org.id, visibility: 'private' });
    expect(codeOf(() => collab.listSpaceFacts(VIEWER, spaces.org.id))).toBe('MEM_ERR_PERMISSION_DENIED');
    collab.updateSpace(ADMIN, { spaceId: spaces.org.id, visibility: 'public' });
    expect(collab.listSpaceFacts(OUTSIDER, spaces.org.id).map((f) => f.id)).toEqual([w.facts.org.id]);
  });

  it('space reads show only facts the memory caller may see, and only current versions', () => {
    w = makeWorld();
    const { svc, collab, spaces } = w;
    const theirs = svc.memoryStore({ text: 'agent a2 keeps its notes in /srv/a2', scope: 'agent', scopeAgentId: 'a2' }).fact;
    collab.addFactToSpace(OWNER, { spaceId: spaces.org.id, factId: theirs.id });
    const specialist = new CollabService(svc, { memoryCaller: { role: 'specialist', agentId: 'a1', sessionId: null } });
    expect(collab.listSpaceFacts(VIEWER, spaces.org.id).map((f) => f.id)).toEqual([w.facts.org.id, theirs.id]);
    expect(specialist.listSpaceFacts(VIEWER, spaces.org.id).map((f) => f.id)).toEqual([w.facts.org.id]);
    expect(codeOf(() => specialist.addFactToSpace(OWNER, { spaceId: spaces.public.id, factId: theirs.id }))).toBe('MEM_ERR_FACT_NOT_FOUND');
    // A fact deleted in memory drops out of the space's listing.
    svc.deleteFact(theirs.id);
    expect(collab.listSpaceFacts(VIEWER, spaces.org.id).map((f) => f.id)).toEqual([w.facts.org.id]);
  });
});
