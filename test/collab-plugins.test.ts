/**
 * Accepting a suggestion goes through the plugins' store hooks like every other fact write
 * (acceptSuggestionWithHooks): the secret guard vetoes a suggested text holding a secret (the suggestion
 * stays pending, nothing is written), a plugin's change to the new version is what gets written, and
 * afterFactStore hears of it. Real plugin workers, real SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CollabService } from '../src/collab/service.js';
import { checksum } from './support/collab.js';
import { SECRET_GUARD, cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';

const OWNER = 'olivia';
const VIEWER = 'victor';
let p: PluggedService | null = null;

afterEach(async () => {
  await p?.close();
  p = null;
  cleanupFixtures();
});

function world(svc: PluggedService['svc']) {
  const collab = new CollabService(svc);
  const org = collab.createOrganization(OWNER, { name: 'Acme' });
  collab.addMember(OWNER, { orgId: org.id, userId: VIEWER, role: 'viewer' });
  const space = collab.createSpace(OWNER, { orgId: org.id, name: 'Team', visibility: 'org' });
  const fact = svc.memoryStore({ text: 'the staging database is db-stage.internal', entity: 'db-stage' }).fact;
  collab.addFactToSpace(OWNER, { spaceId: space.id, factId: fact.id });
  return { collab, space, fact };
}

describe('accepting a suggestion through the plugin hooks', () => {
  it('the secret guard vetoes a suggested secret: the suggestion stays pending and nothing is written', async () => {
    p = await pluggedService([{ dir: SECRET_GUARD }]);
    const { collab, space, fact } = world(p.svc);
    const s = collab.createSuggestion(VIEWER, { spaceId: space.id, factId: fact.id, newText: 'the staging database password: hunter2-Xy7!secret' });
    const db = p.svc.db;
    const lastEvent = (): number => db.prepare('SELECT coalesce(max(seq), 0) FROM events').pluck().get() as number;
    const [before, seq] = [checksum(db, ['events']), lastEvent()];
    await expect(collab.acceptSuggestionWithHooks(OWNER, s.id)).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO' });
    expect(checksum(db, ['events'])).toBe(before);
    // The one thing that happened is the guard's own event saying it refused a secret (no secret in it).
    const events = db.prepare('SELECT kind, payload FROM events WHERE seq > ?').all(seq) as { kind: string; payload: string }[];
    expect(events.map((e) => e.kind)).toEqual(['plugin']);
    expect(events[0]?.payload).toContain('secret-refused');
    expect(events[0]?.payload).not.toContain('hunter2');
    expect(collab.getSuggestion(OWNER, s.id)).toMatchObject({ status: 'pending', appliedFactId: null });
    expect(p.svc.getFact(fact.id).supersededBy).toBeNull();

    // A clean text passes the guard and is written as the next version.
    const clean = collab.createSuggestion(VIEWER, { spaceId: space.id, factId: fact.id, newText: 'the staging database is db-stage-2.internal' });
    collab.rejectSuggestion(OWNER, s.id);
    const accepted = await collab.acceptSuggestionWithHooks(OWNER, clean.id);
    expect(accepted).toMatchObject({ status: 'accepted', decidedBy: OWNER });
    expect(p.svc.getFact(accepted.appliedFactId as string)).toMatchObject({ text: 'the staging database is db-stage-2.internal', source: 'collab', supersedes: fact.id });
  });

  it('writes the version as the plugin left it, and afterFactStore hears of it', async () => {
    p = await pluggedService([{ dir: fixture('recorder'), config: { tag: 'seen-by-recorder' } }]);
    const { collab, space, fact } = world(p.svc);
    const s = collab.createSuggestion(VIEWER, { spaceId: space.id, factId: fact.id, newText: 'the staging database moved to db-stage-3.internal' });
    // Permission is checked before any plugin sees the suggested text.
    await expect(collab.acceptSuggestionWithHooks(VIEWER, s.id)).rejects.toMatchObject({ code: 'MEM_ERR_PERMISSION_DENIED' });
    expect((await p.host.command('recorder', 'calls', [])).json).toMatchObject({ calls: 0 });
    const accepted = await collab.acceptSuggestionWithHooks(OWNER, s.id);
    const written = p.svc.getFact(accepted.appliedFactId as string);
    expect(written).toMatchObject({ text: 'the staging database moved to db-stage-3.internal', tags: ['seen-by-recorder'], source: 'collab' });
    // beforeFactStore and afterFactStore, once each (the world's own facts were stored without hooks).
    const calls = await p.host.command('recorder', 'calls', []);
    expect(calls.json).toMatchObject({ calls: 2 });
    const activity = collab.getRecentActivities(OWNER, space.orgId).map((a) => a.action);
    expect(activity).toContain('suggestion.accepted');
  });

  it('without store hooks it is the plain accept; a remove_from_space suggestion needs no hook', async () => {
    p = await pluggedService([]);
    const { collab, space, fact } = world(p.svc);
    const s = collab.createSuggestion(VIEWER, { spaceId: space.id, factId: fact.id, suggestionType: 'remove_from_space' });
    expect(await collab.acceptSuggestionWithHooks(OWNER, s.id)).toMatchObject({ status: 'accepted', appliedFactId: null });
  });
});
