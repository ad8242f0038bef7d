/**
 * The suggestion lifecycle end to end: pending -> accepted | rejected | withdrawn with who and when;
 * accepting a text edit writes a new version of the fact in the memory store in the same transaction.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { activityCount, ADMIN, checksum, codeOf, EDITOR, expectRefused, makeWorld, OWNER, VIEWER, type World } from './support/collab.js';

describe('suggestions', () => {
  let w: World;
  afterEach(() => w.close());

  it('pending -> accepted: the text becomes a new version of the fact, recorded on the suggestion', () => {
    w = makeWorld();
    const { collab, svc, spaces, facts, clock } = w;
    const s = w.suggestion;
    expect(s).toMatchObject({ status: 'pending', suggestedBy: VIEWER, suggestionType: 'edit_text', factId: facts.org.id, newText: 'deploys happen on Wednesdays', reason: 'moved last month', decidedBy: null, decidedAt: null, appliedFactId: null });
    expect(collab.getPendingSuggestions(VIEWER, spaces.org.id).map((x) => x.id)).toEqual([s.id]);

    clock.advance(5000);
    const accepted = collab.acceptSuggestion(EDITOR, s.id);
    expect(accepted).toMatchObject({ id: s.id, status: 'accepted', decidedBy: EDITOR, decidedAt: clock.now });
    expect(accepted.appliedFactId).toMatch(/^fact_/);
    expect(collab.getSuggestion(VIEWER, s.id)).toEqual(accepted);

    // The memory store: a new current version with the suggested text; the old one superseded by it.
    const next = svc.getFact(accepted.appliedFactId as string);
    expect(next).toMatchObject({ text: 'deploys happen on Wednesdays', version: 2, lineageId: facts.org.lineageId, supersedes: facts.org.id, validUntil: null, source: 'collab', entity: 'Acme' });
    expect(svc.getFact(facts.org.id)).toMatchObject({ supersededBy: next.id, endedReason: 'superseded' });
    expect(svc.history(next.id).map((f) => f.text)).toEqual(['deploys happen on Tuesdays', 'deploys happen on Wednesdays']);
    expect(svc.listFacts({ contains: 'Wednesdays' }).map((f) => f.id)).toEqual([next.id]);

    // The space follows the lineage: it now shows the new version.
    expect(collab.listSpaceFacts(VIEWER, spaces.org.id).map((f) => f.id)).toEqual([next.id]);
    expect(collab.getPendingSuggestions(VIEWER, spaces.org.id)).toEqual([]);
    expect(collab.listSuggestions(VIEWER, spaces.org.id, { status: 'accepted' }).map((x) => x.id)).toEqual([s.id]);

    // Closed for good.
    for (const again of [() => collab.acceptSuggestion(ADMIN, s.id), () => collab.rejectSuggestion(ADMIN, s.id), () => collab.withdrawSuggestion(VIEWER, s.id)]) {
      expectRefused(svc.db, again, 'MEM_ERR_SUGGESTION_CLOSED');
    }
  });

  it('memory subscribers see the accepted edit like any other (fact.stored, fact.superseded)', async () => {
    w = makeWorld();
    const { collab, svc, facts } = w;
    const seen: string[] = [];
    const sub = svc.subscribe({ role: 'operator', agentId: null, sessionId: null }, (e) => seen.push(e.kind));
    try {
      const accepted = collab.acceptSuggestion(EDITOR, w.suggestion.id);
      await expect.poll(() => seen, { timeout: 3000 }).toEqual(expect.arrayContaining(['fact.stored', 'fact.superseded']));
      expect(svc.getFact(facts.org.id).supersededBy).toBe(accepted.appliedFactId);
    } finally {
      sub.unsubscribe();
    }
  });

  it('pending -> rejected: nothing happens to the fact', () => {
    w = makeWorld();
    const { collab, svc, facts, clock } = w;
    const before = svc.listFacts().map((f) => `${f.id}:${f.text}`);
    const rejected = collab.rejectSuggestion(ADMIN, w.suggestion.id);
    expect(rejected).toMatchObject({ status: 'rejected', decidedBy: ADMIN, decidedAt: clock.now, appliedFactId: null });
    expect(svc.listFacts().map((f) => `${f.id}:${f.text}`)).toEqual(before);
    expect(svc.getFact(facts.org.id).validUntil).toBeNull();
    expectRefused(svc.db, () => collab.acceptSuggestion(ADMIN, w.suggestion.id), 'MEM_ERR_SUGGESTION_CLOSED');
  });

  it('pending -> withdrawn: only by the suggester', () => {
    w = makeWorld();
    const { collab, svc, clock } = w;
    for (const other of [OWNER, ADMIN, EDITOR]) expectRefused(svc.db, () => collab.withdrawSuggestion(other, w.suggestion.id), 'MEM_ERR_PERMISSION_DENIED');
    const withdrawn = collab.withdrawSuggestion(VIEWER, w.suggestion.id);
    expect(withdrawn).toMatchObject({ status: 'withdrawn', decidedBy: VIEWER, decidedAt: clock.now, appliedFactId: null });
    expectRefused(svc.db, () => collab.acceptSuggestion(EDITOR, w.suggestion.id), 'MEM_ERR_SUGGESTION_CLOSED');
  });

  it('the suggester may revise a pending suggestion; no one else, and not once decided', () => {
    w = makeWorld();
    const { collab, svc } = w;
    const revised = collab.updateSuggestion(VIEWER, { suggestionId: w.suggestion.id, newText: 'deploys happen on Thursdays', reason: null });
    expect(revised).toMatchObject({ newText: 'deploys happen on Thursdays', reason: null, status: 'pending' });
    expect(collab.getSuggestion(EDITOR, w.suggestion.id)).toEqual(revised);
    const accepted = collab.acceptSuggestion(EDITOR, w.suggestion.id);
    expect(svc.getFact(accepted.appliedFactId as string).text).toBe('deploys happen on Thursdays');
    expectRefused(svc.db, () => collab.updateSuggestion(VIEWER, { suggestionId: w.suggestion.id, reason: 'late' }), 'MEM_ERR_SUGGESTION_CLOSED');
  });

  it('a stale suggestion (the fact was edited since) is refused on accept, stays pending, and changes nothing', () => {
    w = makeWorld();
    const { collab, svc, spaces, facts } = w;
    const second = collab.createSuggestion(EDITOR, { spaceId: spaces.org.id, factId: facts.org.id, newText: 'deploys happen daily' });
    collab.acceptSuggestion(ADMIN, w.suggestion.id);
    const err = expectRefused(svc.db, () => collab.acceptSuggestion(ADMIN, second.id), 'MEM_ERR_FACT_SUPERSEDED');
    expect(err.message).toContain(facts.org.id);
    expect(collab.getSuggestion(ADMIN, second.id).status).toBe('pending');
    expect(collab.rejectSuggestion(ADMIN, second.id).status).toBe('rejected');
    // A new text edit must be proposed against the current version.
    expectRefused(svc.db, () => collab.createSuggestion(EDITOR, { spaceId: spaces.org.id, factId: facts.org.id, newText: 'again' }), 'MEM_ERR_FACT_SUPERSEDED');
  });

  it('accepting remove_from_space takes the fact out of the space; the fact stays in memory', () => {
    w = makeWorld();
    const { collab, svc, spaces, facts } = w;
    const s = collab.createSuggestion(VIEWER, { spaceId: spaces.public.id, factId: facts.public.id, suggestionType: 'remove_from_space', reason: 'outdated' });
    expect(s).toMatchObject({ suggestionType: 'remove_from_space', newText: null, reason: 'outdated' });
    const accepted = collab.acceptSuggestion(EDITOR, s.id);
    expect(accepted).toMatchObject({ status: 'accepted', appliedFactId: null });
    expect(collab.listSpaceFacts(EDITOR, spaces.public.id)).toEqual([]);
    expect(svc.getFact(facts.public.id).validUntil).toBeNull();
  });

  it('a suggestion needs the fact to be in its space, and a decision needs it still there', () => {
    w = makeWorld();
    const { collab, svc, spaces, facts } = w;
    expectRefused(svc.db, () => collab.createSuggestion(VIEWER, { spaceId: spaces.org.id, factId: w.loose.id, newText: 'x' }), 'MEM_ERR_FACT_NOT_IN_SPACE');
    expectRefused(svc.db, () => collab.createSuggestion(VIEWER, { spaceId: spaces.org.id, factId: facts.public.id, newText: 'x' }), 'MEM_ERR_FACT_NOT_IN_SPACE');
    collab.removeFactFromSpace(EDITOR, { spaceId: spaces.org.id, factId: facts.org.id });
    expectRefused(svc.db, () => collab.acceptSuggestion(EDITOR, w.suggestion.id), 'MEM_ERR_FACT_NOT_IN_SPACE');
    expect(collab.rejectSuggestion(EDITOR, w.suggestion.id).status).toBe('rejected');
  });

  it('acceptance is all or nothing with the memory store: a failing activity write rolls back the new fact version', () => {
    w = makeWorld();
    const { collab, svc, facts } = w;
    svc.db.exec(`CREATE TRIGGER fail_trail BEFORE INSERT ON collab_activities BEGIN SELECT RAISE(ABORT, 'trail is down'); END`);
    const before = checksum(svc.db);
    expect(codeOf(() => collab.acceptSuggestion(EDITOR, w.suggestion.id))).toBe('MEM_ERR_INTERNAL');
    expect(checksum(svc.db)).toBe(before);
    expect(svc.history(facts.org.id)).toHaveLength(1);
    expect(svc.getFact(facts.org.id).validUntil).toBeNull();
    svc.db.exec('DROP TRIGGER fail_trail');
    const count = activityCount(svc.db);
    expect(collab.acceptSuggestion(EDITOR, w.suggestion.id).status).toBe('accepted');
    expect(activityCount(svc.db)).toBe(count + 1);
  });

  it('deleting a suggestion needs the delete permission and works in any state', () => {
    w = makeWorld();
    const { collab, svc, spaces } = w;
    collab.rejectSuggestion(EDITOR, w.suggestion.id);
    expectRefused(svc.db, () => collab.deleteSuggestion(VIEWER, w.suggestion.id), 'MEM_ERR_PERMISSION_DENIED');
    collab.deleteSuggestion(ADMIN, w.suggestion.id);
    expect(collab.listSuggestions(ADMIN, spaces.org.id)).toEqual([]);
    expectRefused(svc.db, () => collab.getSuggestion(ADMIN, w.suggestion.id), 'MEM_ERR_SUGGESTION_NOT_FOUND');
  });

  it('pending suggestions are listed oldest first and only the pending ones', () => {
    w = makeWorld();
    const { collab, spaces, facts, clock } = w;
    clock.advance(10);
    const b = collab.createSuggestion(EDITOR, { spaceId: spaces.org.id, factId: facts.org.id, suggestionType: 'remove_from_space' });
    clock.advance(10);
    const c = collab.createSuggestion(ADMIN, { spaceId: spaces.org.id, factId: facts.org.id, newText: 'deploys happen never' });
    collab.withdrawSuggestion(EDITOR, b.id);
    expect(collab.getPendingSuggestions(VIEWER, spaces.org.id).map((s) => s.id)).toEqual([w.suggestion.id, c.id]);
    expect(collab.listSuggestions(VIEWER, spaces.org.id).map((s) => s.status)).toEqual(['pending', 'withdrawn', 'pending']);
  });
});
