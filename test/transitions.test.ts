/** Every transition of the spec's state table, on a real SQLite file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryEvent } from '../src/core/events.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

let home: TestHome;
let svc: MemoryService;
let clock: { now: number; advance(ms: number): void };
const events: MemoryEvent[] = [];

beforeEach(() => {
  home = tempHome();
  ({ svc, clock } = openService(home));
  events.length = 0;
  svc.subscribe({ role: 'operator', agentId: null, sessionId: null }, (e) => events.push(e));
});
afterEach(() => {
  svc.close();
  home.cleanup();
});

const kinds = () => events.map((e) => e.kind);

describe('fact transitions', () => {
  it('edit text: new version current, old superseded, links follow, history kept', () => {
    const a = svc.memoryStore({ text: 'Deploys run from Jenkins', entity: 'ci' }).fact;
    const b = svc.memoryStore({ text: 'Jenkins lives on build01' }).fact;
    svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'DEPENDS_ON' });
    clock.advance(1000);
    const v2 = svc.editFact({ id: a.id, text: 'Deploys run from GitHub Actions' });
    expect(v2.version).toBe(2);
    expect(v2.lineageId).toBe(a.id);
    expect(v2.supersedes).toBe(a.id);
    const old = svc.getFact(a.id);
    expect(old.supersededBy).toBe(v2.id);
    expect(old.endedReason).toBe('superseded');
    expect(old.validUntil).toBe(clock.now);
    expect(svc.listFacts().map((f) => f.id)).not.toContain(a.id);
    expect(svc.listFacts({ includeSuperseded: true }).map((f) => f.id)).toContain(a.id);
    const links = svc.listLinks();
    expect(links.find((l) => l.linkType === 'DEPENDS_ON')).toMatchObject({ sourceId: v2.id, targetId: b.id });
    expect(svc.history(v2.id).map((f) => f.version)).toEqual([1, 2]);
    expect(kinds()).toContain('fact.superseded');
    expect(() => svc.editFact({ id: a.id, text: 'again' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_SUPERSEDED' }));
  });

  it('delete: removed from reads and search, links removed, event emitted, as-of still sees it', async () => {
    const a = svc.memoryStore({ text: 'The staging API key rotates monthly' }).fact;
    const b = svc.memoryStore({ text: 'Staging runs on k8s' }).fact;
    svc.memoryLink({ sourceId: a.id, targetId: b.id });
    const before = clock.now;
    clock.advance(5000);
    svc.deleteFact(a.id);
    expect(svc.listFacts().map((f) => f.id)).toEqual([b.id]);
    expect((await svc.memoryRecall({ query: 'staging API key' })).results.map((r) => r.fact.id)).not.toContain(a.id);
    expect(svc.listLinks()).toHaveLength(0);
    const del = events.find((e) => e.kind === 'fact.deleted');
    expect(del).toMatchObject({ factId: a.id });
    expect(svc.factsAsOf(before).map((f) => f.id)).toContain(a.id);
    expect(svc.factsAsOf(clock.now).map((f) => f.id)).not.toContain(a.id);
    expect(() => svc.deleteFact(a.id)).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_ENDED' }));
  });

  it('pin freezes decay; unpin lets it apply again', () => {
    const f = svc.memoryStore({ text: 'Standup is at 9:30', decayClass: 'volatile', importance: 0.5 }).fact;
    svc.pin(f.id);
    expect(svc.getFact(f.id).pinned).toBe(true);
    clock.advance(60 * 86_400_000);
    expect(svc.runMaintenance().decayed).toBe(0);
    expect(svc.getFact(f.id).validUntil).toBeNull();
    svc.unpin(f.id);
    expect(svc.getFact(f.id).pinned).toBe(false);
    expect(kinds().filter((k) => k === 'fact.updated')).toHaveLength(2);
    clock.advance(60 * 86_400_000);
    expect(svc.runMaintenance().decayed).toBe(1);
    expect(svc.getFact(f.id).endedReason).toBe('decayed');
  });

  it('expiry: a fact past expiresAt ends as expired in the maintenance pass', () => {
    const f = svc.memoryStore({ text: 'Temporary VPN password valid today', expiresAt: clock.now + 3_600_000 }).fact;
    expect(svc.runMaintenance().expired).toBe(0);
    clock.advance(3_600_001);
    expect(svc.runMaintenance().expired).toBe(1);
    expect(svc.getFact(f.id).endedReason).toBe('expired');
    expect(svc.listFacts()).toHaveLength(0);
    expect(events.find((e) => e.kind === 'fact.ended')).toMatchObject({ factId: f.id, reason: 'expired' });
  });

  it('refuses an expiry in the past and writes nothing', () => {
    expect(() => svc.memoryStore({ text: 'x', expiresAt: clock.now - 1 })).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    expect(svc.stats().totalFacts).toBe(0);
  });

  it('storing an identical current fact returns the existing one', () => {
    const a = svc.memoryStore({ text: 'Prefers tabs', category: 'preference' });
    const b = svc.memoryStore({ text: 'Prefers tabs', category: 'preference' });
    expect(b.created).toBe(false);
    expect(b.fact.id).toBe(a.fact.id);
    expect(svc.stats().totalFacts).toBe(1);
  });
});

describe('link transitions', () => {
  it('bond, strengthen on re-link, change type, cut', () => {
    const a = svc.memoryStore({ text: 'Service A' }).fact;
    const b = svc.memoryStore({ text: 'Service B' }).fact;
    const made = svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'DEPENDS_ON' });
    expect(made.created).toBe(true);
    expect(made.link.strength).toBe(0.5);
    const again = svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'DEPENDS_ON' });
    expect(again.created).toBe(false);
    expect(again.link.strength).toBeCloseTo(0.6);
    const changed = svc.changeLinkType({ id: made.link.id, linkType: 'PART_OF' });
    expect(changed).toMatchObject({ id: made.link.id, linkType: 'PART_OF' });
    svc.cutLink(made.link.id);
    expect(svc.listLinks()).toHaveLength(0);
    expect(kinds()).toEqual(expect.arrayContaining(['link.created', 'link.strengthened', 'link.updated', 'link.deleted']));
    expect(() => svc.cutLink(made.link.id)).toThrow(expect.objectContaining({ code: 'MEM_ERR_LINK_NOT_FOUND' }));
  });

  it('refuses self links, unknown endpoints and duplicate types', () => {
    const a = svc.memoryStore({ text: 'A' }).fact;
    const b = svc.memoryStore({ text: 'B' }).fact;
    expect(() => svc.memoryLink({ sourceId: a.id, targetId: a.id })).toThrow(expect.objectContaining({ code: 'MEM_ERR_LINK_SELF' }));
    expect(() => svc.memoryLink({ sourceId: a.id, targetId: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_NOT_FOUND' }));
    expect(() => svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'LIKES' as never })).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    const l1 = svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'RELATED_TO' }).link;
    svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'CAUSED_BY' });
    expect(() => svc.changeLinkType({ id: l1.id, linkType: 'CAUSED_BY' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_LINK_EXISTS' }));
    expect(svc.listLinks()).toHaveLength(2);
  });

  it('a link needs both endpoints in the caller scope', () => {
    const mine = svc.memoryStore({ text: 'mine', scope: 'agent' }, { role: 'specialist', agentId: 'a1', sessionId: null }).fact;
    const theirs = svc.memoryStore({ text: 'theirs', scope: 'agent' }, { role: 'specialist', agentId: 'a2', sessionId: null }).fact;
    expect(() => svc.memoryLink({ sourceId: mine.id, targetId: theirs.id }, { role: 'specialist', agentId: 'a1', sessionId: null })).toThrow(
      expect.objectContaining({ code: 'MEM_ERR_FACT_NOT_FOUND' }),
    );
    expect(svc.listLinks()).toHaveLength(0);
  });

  it('co-recalled facts strengthen the link between them', async () => {
    const a = svc.memoryStore({ text: 'kafka broker address is kafka01' }).fact;
    const b = svc.memoryStore({ text: 'kafka topic for orders is orders-v2' }).fact;
    const { link } = svc.memoryLink({ sourceId: a.id, targetId: b.id });
    await svc.memoryRecall({ query: 'kafka' });
    expect(svc.listLinks()[0]?.strength).toBeGreaterThan(link.strength);
  });
});

describe('conflicts', () => {
  const store = (text: string) => svc.memoryStore({ text, entity: 'prod-db', category: 'technical' });

  it('a contradicting fact on the same entity raises a conflict; keep_new supersedes the old', () => {
    const old = store('The prod-db port is 5432').fact;
    clock.advance(1000);
    const res = store('The prod-db port is 6543');
    expect(res.conflicts).toHaveLength(1);
    const c = res.conflicts[0];
    expect(c).toMatchObject({ newFactId: res.fact.id, oldFactId: old.id, status: 'unresolved' });
    const contradicts = svc.listLinks().find((l) => l.linkType === 'CONTRADICTS');
    expect(contradicts).toBeDefined();
    events.length = 0;
    const closed = svc.resolveConflict({ id: c!.id, resolution: 'keep_new' });
    // The CONTRADICTS link between the two would now join the new fact to itself: it is dropped, and said so.
    expect(events).toContainEqual(expect.objectContaining({ kind: 'link.deleted', linkId: contradicts?.id, sourceId: contradicts?.sourceId, targetId: contradicts?.targetId }));
    expect(svc.listLinks().some((l) => l.id === contradicts?.id)).toBe(false);
    expect(closed).toMatchObject({ status: 'resolved', resolution: 'keep_new' });
    expect(svc.getFact(old.id).supersededBy).toBe(res.fact.id);
    expect(svc.listConflicts()).toHaveLength(0);
    expect(() => svc.resolveConflict({ id: c!.id, resolution: 'keep_old' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CONFLICT_CLOSED' }));
  });

  it('a link the successor already has is dropped on supersede, with a link.deleted event', () => {
    const x = svc.memoryStore({ text: 'The payments service reads prod-db' }).fact;
    const old = store('The prod-db region is eu-west-1').fact;
    clock.advance(1000);
    const res = store('The prod-db region is eu-central-1');
    const a = svc.memoryLink({ sourceId: old.id, targetId: x.id, linkType: 'RELATED_TO' }).link;
    const b = svc.memoryLink({ sourceId: res.fact.id, targetId: x.id, linkType: 'RELATED_TO' }).link;
    events.length = 0;
    svc.resolveConflict({ id: res.conflicts[0]!.id, resolution: 'keep_new' });
    expect(events).toContainEqual(expect.objectContaining({ kind: 'link.deleted', linkId: a.id, sourceId: old.id, targetId: x.id }));
    expect(svc.listLinks({ role: 'operator', agentId: null, sessionId: null }, { factId: x.id }).map((l) => l.id)).toEqual([b.id]);
  });

  it('keep_old supersedes the new fact by the old one', () => {
    const old = store('The prod-db host is db1.internal').fact;
    clock.advance(1000);
    const res = store('The prod-db host is db2.internal');
    svc.resolveConflict({ id: res.conflicts[0]!.id, resolution: 'keep_old' });
    expect(svc.getFact(res.fact.id)).toMatchObject({ endedReason: 'superseded', supersededBy: old.id });
    expect(svc.getFact(old.id).validUntil).toBeNull();
  });

  it('both_fine keeps both and marks the conflict reviewed', () => {
    store('The prod-db backup runs nightly');
    clock.advance(1000);
    const res = store('The prod-db backup does not run nightly');
    expect(res.conflicts).toHaveLength(1);
    const c = svc.resolveConflict({ id: res.conflicts[0]!.id, resolution: 'both_fine' });
    expect(c).toMatchObject({ status: 'reviewed', resolution: 'both_fine' });
    expect(svc.stats().totalFacts).toBe(2);
    expect(svc.listConflicts(undefined, 'reviewed')).toHaveLength(1);
  });

  it('an explicit CONTRADICTS link opens a conflict; unrelated facts raise none', () => {
    const a = svc.memoryStore({ text: 'Releases ship on Fridays' }).fact;
    const b = svc.memoryStore({ text: 'Never deploy on a Friday' }).fact;
    expect(store('The prod-db port is 5432').conflicts).toHaveLength(0);
    expect(store('Prod-db belongs to the payments team').conflicts).toHaveLength(0);
    svc.memoryLink({ sourceId: a.id, targetId: b.id, linkType: 'CONTRADICTS' });
    expect(svc.listConflicts()).toHaveLength(1);
  });

  it('deleting one side settles the conflict', () => {
    store('The prod-db port is 5432');
    clock.advance(1000);
    const res = store('The prod-db port is 6543');
    svc.deleteFact(res.fact.id);
    expect(svc.listConflicts()).toHaveLength(0);
  });
});

describe('as-of reads', () => {
  it('reads back the state at any earlier time', () => {
    const t0 = clock.now;
    const a = svc.memoryStore({ text: 'Office is in Berlin', entity: 'office' }).fact;
    clock.advance(1000);
    const t1 = clock.now;
    const v2 = svc.editFact({ id: a.id, text: 'Office is in Lisbon' });
    clock.advance(1000);
    const t2 = clock.now;
    svc.deleteFact(v2.id);
    expect(svc.factsAsOf(t0 - 1)).toHaveLength(0);
    expect(svc.factsAsOf(t0).map((f) => f.text)).toEqual(['Office is in Berlin']);
    expect(svc.factsAsOf(t1).map((f) => f.text)).toEqual(['Office is in Lisbon']);
    expect(svc.factsAsOf(t2)).toHaveLength(0);
    expect(svc.factsAsOf(t1 - 1, undefined, { entity: 'OFFICE' }).map((f) => f.text)).toEqual(['Office is in Berlin']);
  });
});

describe('episodes and recall history', () => {
  const agent = { role: 'specialist' as const, agentId: 'coder', sessionId: 's1' };

  it('a session opens an episode; an idle gap starts the next', async () => {
    svc.memoryStore({ text: 'Working on the login page' }, agent);
    clock.advance(60_000);
    svc.memoryStore({ text: 'Login uses OAuth' }, agent);
    let eps = svc.listEpisodes(agent);
    expect(eps).toHaveLength(1);
    expect(eps[0]).toMatchObject({ factCount: 2, sessionId: 's1', agentId: 'coder' });
    clock.advance(31 * 60_000);
    await svc.memoryRecall({ query: 'login' }, agent);
    eps = svc.listEpisodes(agent);
    expect(eps).toHaveLength(2);
    expect(eps[0]).toMatchObject({ recallCount: 1, factCount: 0 });
    expect(svc.listEpisodes({ role: 'operator', agentId: null, sessionId: null })).toHaveLength(2);
    expect(svc.listEpisodes({ role: 'specialist', agentId: 'other', sessionId: 's9' })).toHaveLength(0);
  });

  it('recall events keep per-fact scores and are ownership-gated', async () => {
    const f = svc.memoryStore({ text: 'Grafana admin user is ops' }).fact;
    const r = await svc.memoryRecall({ query: 'grafana admin' }, agent);
    expect(r.results[0]?.fact.id).toBe(f.id);
    const hist = svc.recallHistory(agent);
    expect(hist).toHaveLength(1);
    expect(hist[0]).toMatchObject({ id: r.recallId, kind: 'memory_recall', query: 'grafana admin' });
    expect(hist[0]?.scores[0]).toMatchObject({ factId: f.id });
    expect(svc.recallHistory({ role: 'specialist', agentId: 'intruder', sessionId: null })).toHaveLength(0);
    expect(svc.getFact(f.id).recallCount).toBe(1);
    const recallEvent = events.find((e) => e.kind === 'recall');
    expect(recallEvent).toMatchObject({ recallId: r.recallId });
  });
});

describe('batch store', () => {
  it('is all or nothing, and delivers events only after commit', () => {
    const ok = svc.memoryStoreMany([{ text: 'one' }, { text: 'two' }]);
    expect(ok.map((r) => r.created)).toEqual([true, true]);
    const before = events.length;
    expect(() => svc.memoryStoreMany([{ text: 'three' }, { text: '' }])).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    expect(svc.listFacts().map((f) => f.text).sort()).toEqual(['one', 'two']);
    expect(events.length).toBe(before);
  });
});

describe('recall filters', () => {
  it('filters by category inside the search and says why each fact was recalled', async () => {
    svc.memoryStore({ text: 'Deploy tokens rotate monthly', category: 'technical' });
    svc.memoryStore({ text: 'Prefers deploy on Tuesdays', category: 'preference' });
    for (const text of ['Lunch is at noon', 'The office has a piano', 'Coffee beans come from Kenya']) svc.memoryStore({ text });
    const r = await svc.memoryRecall({ query: 'deploy', category: 'preference' });
    expect(r.results.map((x) => x.fact.category)).toEqual(['preference']);
    expect(r).toMatchObject({ mode: 'fulltext', degraded: false });
    expect(r.results[0]?.why).toMatchObject({ ftsRank: 1, vectorRank: null, similarity: null });
    expect(r.results[0]?.why.bm25).toBeGreaterThan(0);
  });
});
