/**
 * The dashboard's GraphQL API over HTTP, on both adapters: every query answers correctly for a small
 * seeded store, every mutation reaches the database (checked through the service), bad input gets a typed
 * error and changes nothing. Real SQLite in a temp dir, a real server on port 0, fetch as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Fact } from '../src/core/types.js';
import { ADAPTERS } from './support/dashboard.js';
import { checksum, dataOf, errorCode, startClockedDashboard, type ClockedDashboard } from './support/dashboard-clients.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1, 12);
const SESSION_CALLER: Caller = { role: 'specialist', agentId: 'a1', sessionId: 's1' };

const FACT_FIELDS = `id label text category entity tags importance confidence strength cluster decayClass
  decay { class halfLifeDays recency frozen } expiresAt pinned superseded supersededBy supersedes lineageId version
  scope { kind agentId sessionId } createdAt updatedAt lastRecalledAt recallCount`;
const EDGE_FIELDS = 'id source target linkType strength createdAt updatedAt lastStrengthenedAt reinforcements weak';

interface GFact {
  id: string;
  label: string;
  text: string;
  category: string;
  entity: string | null;
  tags: string[];
  importance: number;
  confidence: number;
  strength: number;
  cluster: number | null;
  decayClass: string;
  decay: { class: string; halfLifeDays: number | null; recency: number; frozen: boolean };
  expiresAt: number | null;
  pinned: boolean;
  superseded: boolean;
  supersededBy: string | null;
  supersedes: string | null;
  lineageId: string;
  version: number;
  scope: { kind: string; agentId: string | null; sessionId: string | null };
  createdAt: number;
  updatedAt: number;
  lastRecalledAt: number | null;
  recallCount: number;
}
interface GEdge {
  id: string;
  source: string;
  target: string;
  linkType: string;
  strength: number;
  createdAt: number;
  updatedAt: number;
  lastStrengthenedAt: number | null;
  reinforcements: number;
  weak: boolean;
}
interface GGraph {
  nodes: GFact[];
  edges: GEdge[];
  truncated: boolean;
}

const ids = (xs: readonly { id: string }[]): string[] => xs.map((x) => x.id).sort();
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe.each(ADAPTERS)('dashboard API over %s', (adapter) => {
  describe('queries over a seeded store', () => {
    let d: ClockedDashboard;
    const f: Record<string, Fact> = {};
    const l: Record<string, string> = {};
    let conflictId = '';

    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
      const svc = d.svc;
      f.pg = svc.memoryStore({ text: 'Postgres runs on db01 port 5432', category: 'technical', entity: 'db01', importance: 0.9, confidence: 1, tags: ['DB', 'prod'] }).fact;
      f.cache = svc.memoryStore({ text: 'Redis cache runs on cache01', category: 'technical', entity: 'cache01' }).fact;
      f.deploy = svc.memoryStore({ text: 'Deploys happen on Fridays', category: 'decision' }).fact;
      f.pref = svc.memoryStore({ text: 'The user prefers dark mode', category: 'preference', pinned: true }).fact;
      f.perm = svc.memoryStore({ text: 'The company was founded in 2001', decayClass: 'permanent', importance: 0.3, confidence: 1 }).fact;
      f.exp = svc.memoryStore({ text: 'The maintenance window is open', decayClass: 'volatile', expiresAt: T0 + DAY }).fact;
      f.gw1 = svc.memoryStore({ text: 'The API gateway listens on 8080', category: 'technical', entity: 'gateway' }).fact;
      f.gw2 = svc.editFact({ id: f.gw1.id, text: 'The API gateway listens on 8443' });
      f.st1 = svc.memoryStore({ text: 'the staging db port is 5432', category: 'technical', entity: 'staging-db' }).fact;
      const st2 = svc.memoryStore({ text: 'the staging db port is not 5432', category: 'technical', entity: 'staging-db' });
      f.st2 = st2.fact;
      conflictId = st2.conflicts[0]?.id ?? '';
      f.note = svc.memoryStore({ text: 'Session note about the zebra migration' }, SESSION_CALLER).fact;
      l.dep = svc.memoryLink({ sourceId: f.pg.id, targetId: f.cache.id, linkType: 'DEPENDS_ON', strength: 0.8 }).link.id;
      l.rel = svc.memoryLink({ sourceId: f.cache.id, targetId: f.deploy.id }).link.id;
      l.contra = svc.listLinks(undefined, { factId: f.st1.id })[0]?.id ?? '';
      await svc.memoryRecall({ query: 'Postgres' });
      await svc.memoryRecall({ query: 'zebra' }, SESSION_CALLER);
      expect(conflictId).toMatch(/^cf_/);
      expect(l.contra).toMatch(/^link_/);
    });
    afterAll(() => d.close());

    const current = (): string[] => sorted(['pg', 'cache', 'deploy', 'pref', 'perm', 'exp', 'gw2', 'st1', 'st2', 'note'].map((k) => f[k]?.id ?? k));

    it('graph: every current fact as a node with strength, cluster, decay and expiry; the links among them as edges', async () => {
      const g = dataOf(await d.gql<{ graph: GGraph }>(`{ graph { nodes { ${FACT_FIELDS} } edges { ${EDGE_FIELDS} } truncated } }`)).graph;
      expect(ids(g.nodes)).toEqual(current());
      expect(g.truncated).toBe(false);
      const node = (k: string): GFact => g.nodes.find((n) => n.id === f[k]?.id) as GFact;
      // strength = importance x recency x confidence (+ 0.3 when pinned, + 0.04 x log2(1 + recalls)); the clock
      // has not moved, so recency is 1. pg was recalled once.
      expect(node('pg').strength).toBeCloseTo(0.9 + 0.04, 6);
      expect(node('pg').recallCount).toBe(1);
      expect(node('cache').strength).toBeCloseTo(0.4, 6);
      expect(node('pref').strength).toBeCloseTo(0.7, 6);
      expect(node('perm').strength).toBeCloseTo(0.3, 6);
      expect(node('pg')).toMatchObject({
        label: 'Postgres runs on db01 port 5432',
        text: 'Postgres runs on db01 port 5432',
        category: 'technical',
        entity: 'db01',
        tags: ['db', 'prod'],
        importance: 0.9,
        confidence: 1,
        decayClass: 'stable',
        decay: { class: 'stable', halfLifeDays: 180, recency: 1, frozen: false },
        expiresAt: null,
        pinned: false,
        superseded: false,
        supersededBy: null,
        version: 1,
        lineageId: f.pg?.id,
        scope: { kind: 'global', agentId: null, sessionId: null },
        createdAt: T0,
        updatedAt: T0,
      });
      expect(node('perm').decay).toEqual({ class: 'permanent', halfLifeDays: null, recency: 1, frozen: true });
      expect(node('pref').decay).toMatchObject({ class: 'stable', frozen: true });
      expect(node('pref').pinned).toBe(true);
      expect(node('exp')).toMatchObject({ expiresAt: T0 + DAY, decayClass: 'volatile', decay: { class: 'volatile', halfLifeDays: 3 } });
      expect(node('gw2')).toMatchObject({ version: 2, supersedes: f.gw1?.id, lineageId: f.gw1?.id, text: 'The API gateway listens on 8443' });
      expect(node('note').scope).toEqual({ kind: 'global', agentId: null, sessionId: null });
      // Clusters: connected components numbered by size, largest first.
      expect([node('pg').cluster, node('cache').cluster, node('deploy').cluster]).toEqual([0, 0, 0]);
      expect([node('st1').cluster, node('st2').cluster]).toEqual([1, 1]);
      const singles = ['pref', 'perm', 'exp', 'gw2', 'note'].map((k) => node(k).cluster);
      expect(new Set(singles).size).toBe(5);
      for (const c of singles) expect(c).toBeGreaterThanOrEqual(2);
      // Edges: the links among the nodes, with their endpoints and strength.
      expect(ids(g.edges)).toEqual(sorted([l.dep, l.rel, l.contra].map(String)));
      const dep = g.edges.find((e) => e.id === l.dep);
      expect(dep).toMatchObject({ source: f.pg?.id, target: f.cache?.id, linkType: 'DEPENDS_ON', strength: 0.8, reinforcements: 0, weak: false, createdAt: T0 });
      expect(g.edges.find((e) => e.id === l.contra)).toMatchObject({ source: f.st2?.id, target: f.st1?.id, linkType: 'CONTRADICTS' });
    });

    it('graph filters: categories, minStrength, includeSuperseded, search, entity, limit', async () => {
      const graph = async (filter: Record<string, unknown>): Promise<GGraph> =>
        dataOf(await d.gql<{ graph: GGraph }>('query($f: GraphFilter) { graph(filter: $f) { nodes { id strength superseded } edges { id } truncated } }', { f: filter })).graph;
      const tech = await graph({ categories: ['technical'] });
      expect(ids(tech.nodes)).toEqual(sorted(['pg', 'cache', 'gw2', 'st1', 'st2'].map((k) => f[k]?.id ?? k)));
      expect(ids(tech.edges)).toEqual(sorted([l.dep, l.contra].map(String)));
      expect(ids((await graph({ categories: ['decision', 'preference'] })).nodes)).toEqual(sorted([f.deploy?.id, f.pref?.id].map(String)));
      const strong = await graph({ minStrength: 0.6 });
      expect(ids(strong.nodes)).toEqual(sorted([f.pg?.id, f.pref?.id].map(String)));
      expect(strong.edges).toEqual([]); // pg's only link goes to cache, which is below the threshold
      expect((await graph({})).nodes.map((n) => n.id)).not.toContain(f.gw1?.id);
      const all = await graph({ includeSuperseded: true });
      expect(all.nodes.find((n) => n.id === f.gw1?.id)).toMatchObject({ superseded: true });
      expect(all.nodes).toHaveLength(current().length + 1);
      expect(ids((await graph({ search: 'STAGING db' })).nodes)).toEqual(sorted([f.st1?.id, f.st2?.id].map(String)));
      expect(ids((await graph({ search: 'cache01' })).nodes)).toEqual([f.cache?.id]); // entity matches too
      expect(ids((await graph({ entity: 'db01' })).nodes)).toEqual([f.pg?.id]);
      const two = await graph({ limit: 2 });
      expect(two.nodes).toHaveLength(2);
      expect(two.truncated).toBe(true);
      // facts(filter) is the same list of nodes.
      const facts = dataOf(await d.gql<{ facts: GFact[] }>('{ facts(filter: { categories: [technical], minStrength: 0.5 }) { id strength cluster } }')).facts;
      expect(ids(facts)).toEqual([f.pg?.id]);
      expect(facts[0]?.strength).toBeCloseTo(0.94, 6);
      const everything = dataOf(await d.gql<{ facts: GFact[] }>('{ facts { id } }')).facts;
      expect(ids(everything)).toEqual(current());
    });

    it('neighbors: a fact, its linked facts and the links; limit truncates', async () => {
      const q = 'query($id: ID!, $n: Int) { neighbors(id: $id, limit: $n) { nodes { id cluster strength } edges { id source target } truncated } }';
      const n = dataOf(await d.gql<{ neighbors: GGraph }>(q, { id: f.cache?.id })).neighbors;
      expect(ids(n.nodes)).toEqual(sorted([f.cache?.id, f.pg?.id, f.deploy?.id].map(String)));
      expect(ids(n.edges)).toEqual(sorted([l.dep, l.rel].map(String)));
      expect(n.truncated).toBe(false);
      expect(new Set(n.nodes.map((x) => x.cluster))).toEqual(new Set([0]));
      const one = dataOf(await d.gql<{ neighbors: GGraph }>(q, { id: f.cache?.id, n: 1 })).neighbors;
      expect(one.edges).toHaveLength(1);
      expect(one.nodes).toHaveLength(2);
      expect(one.truncated).toBe(true);
      const alone = dataOf(await d.gql<{ neighbors: GGraph }>(q, { id: f.pref?.id })).neighbors;
      expect(ids(alone.nodes)).toEqual([f.pref?.id]);
      expect(alone.edges).toEqual([]);
    });

    it('stats, fact (with versions and links), links', async () => {
      const s = dataOf(
        await d.gql<{ stats: { totalFacts: number; supersededFacts: number; links: number; openConflicts: number; byCategory: { category: string; count: number }[]; lastEventSeq: number; searchMode: string } }>(
          '{ stats { totalFacts supersededFacts links openConflicts byCategory { category count } lastEventSeq searchMode } }',
        ),
      ).stats;
      expect(s).toMatchObject({ totalFacts: 10, supersededFacts: 1, links: 3, openConflicts: 1, searchMode: 'fulltext', lastEventSeq: d.svc.stats().lastEventSeq });
      expect(s.lastEventSeq).toBeGreaterThan(10);
      expect(Object.fromEntries(s.byCategory.map((c) => [c.category, c.count]))).toEqual({ technical: 5, decision: 1, preference: 1, fact: 3 });

      const fact = dataOf(
        await d.gql<{ fact: GFact & { versions: GFact[]; links: GEdge[] } }>('query($id: ID!) { fact(id: $id) { id text version versions { id version superseded supersededBy } links { id } } }', { id: f.gw2?.id }),
      ).fact;
      expect(fact).toMatchObject({ id: f.gw2?.id, version: 2, text: 'The API gateway listens on 8443' });
      expect(fact.versions).toEqual([
        { id: f.gw1?.id, version: 1, superseded: true, supersededBy: f.gw2?.id },
        { id: f.gw2?.id, version: 2, superseded: false, supersededBy: null },
      ]);
      const pg = dataOf(await d.gql<{ fact: { links: GEdge[] } }>('query($id: ID!) { fact(id: $id) { links { id linkType } } }', { id: f.pg?.id })).fact;
      expect(pg.links).toEqual([{ id: l.dep, linkType: 'DEPENDS_ON' }]);

      const links = dataOf(await d.gql<{ all: GEdge[]; one: GEdge[]; few: GEdge[] }>('query($id: ID) { all: links { id } one: links(factId: $id) { id } few: links(limit: 2) { id } }', { id: f.deploy?.id }));
      expect(ids(links.all)).toEqual(sorted([l.dep, l.rel, l.contra].map(String)));
      expect(ids(links.one)).toEqual([l.rel]);
      expect(links.few).toHaveLength(2);
    });

    it('episodes: a session caller’s activity, with fact and recall counts', async () => {
      const eps = dataOf(await d.gql<{ episodes: { id: string; agentId: string; sessionId: string; title: string; factCount: number; recallCount: number; startedAt: number }[] }>('{ episodes { id agentId sessionId title factCount recallCount startedAt lastActivityAt } }')).episodes;
      expect(eps).toHaveLength(1);
      expect(eps[0]).toMatchObject({ agentId: 'a1', sessionId: 's1', title: 'Session note about the zebra migration', factCount: 1, recallCount: 1, startedAt: T0 });
      expect(eps[0]?.id).toBe(d.svc.listEpisodes()[0]?.id);
    });

    it('search: ranked hits with why, filters, and no recall is recorded', async () => {
      const recalls = (): number => (d.svc.db.prepare('SELECT count(*) AS n FROM recall_events').get() as { n: number }).n;
      const before = { recalls: recalls(), history: d.svc.recallHistory(), sum: checksum(d.svc) };
      const q = `query($q: String!, $c: Category, $s: Boolean, $n: Int) { search(query: $q, category: $c, includeSuperseded: $s, limit: $n) {
        hits { score fact { id text recallCount } why { factId score ftsRank bm25 vectorRank similarity fused } } mode degraded reason } }`;
      type R = { search: { hits: { score: number; fact: { id: string; recallCount: number }; why: { factId: string; score: number; ftsRank: number | null; bm25: number | null; vectorRank: number | null; similarity: number | null; fused: number } }[]; mode: string; degraded: boolean; reason: string | null } };
      const redis = dataOf(await d.gql<R>(q, { q: 'Redis cache' })).search;
      expect(redis).toMatchObject({ mode: 'fulltext', degraded: false, reason: null });
      expect(redis.hits[0]?.fact.id).toBe(f.cache?.id);
      expect(redis.hits[0]?.why).toMatchObject({ factId: f.cache?.id, ftsRank: 1, vectorRank: null, similarity: null });
      expect(redis.hits[0]?.why.score).toBe(redis.hits[0]?.score);
      expect(redis.hits[0]?.score).toBeGreaterThan(0);
      const port = dataOf(await d.gql<R>(q, { q: 'port', c: 'technical' })).search;
      expect(sorted(port.hits.map((h) => h.fact.id))).toEqual(sorted([f.pg?.id, f.st1?.id, f.st2?.id].map(String)));
      expect(dataOf(await d.gql<R>(q, { q: 'port', c: 'decision' })).search.hits).toEqual([]);
      expect(dataOf(await d.gql<R>(q, { q: 'port', n: 1 })).search.hits).toHaveLength(1);
      expect(dataOf(await d.gql<R>(q, { q: '8080' })).search.hits).toEqual([]);
      expect(dataOf(await d.gql<R>(q, { q: '8080', s: true })).search.hits.map((h) => h.fact.id)).toEqual([f.gw1?.id]);
      // A look-up, not a recall: no recall event, no history entry, no recall count, nothing else written.
      expect(recalls()).toBe(before.recalls);
      expect(d.svc.recallHistory()).toEqual(before.history);
      expect(checksum(d.svc)).toBe(before.sum);
      expect(d.svc.getFact(f.cache?.id ?? '').recallCount).toBe(0);
    });

    it('recallHistory: recalls with their scores, newest first; since and limit', async () => {
      type R = { recallHistory: { id: string; kind: string; query: string; target: string | null; owner: { role: string; agentId: string | null; sessionId: string | null }; scores: { factId: string; score: number; ftsRank: number | null }[]; createdAt: number }[] };
      const h = dataOf(await d.gql<R>('{ recallHistory { id kind query target owner { role agentId sessionId } scores { factId score ftsRank } createdAt } }')).recallHistory;
      expect(h.map((r) => r.query)).toEqual(['zebra', 'Postgres']);
      expect(h[0]).toMatchObject({ kind: 'memory_recall', target: null, owner: { role: 'specialist', agentId: 'a1', sessionId: 's1' }, createdAt: T0 });
      expect(h[0]?.scores.map((s) => s.factId)).toEqual([f.note?.id]);
      expect(h[1]).toMatchObject({ owner: { role: 'operator', agentId: null, sessionId: null } });
      expect(h[1]?.scores[0]).toMatchObject({ factId: f.pg?.id, ftsRank: 1 });
      expect(h.map((r) => r.id)).toEqual(d.svc.recallHistory().map((r) => r.id));
      expect(dataOf(await d.gql<R>('{ recallHistory(limit: 1) { query } }')).recallHistory.map((r) => r.query)).toEqual(['zebra']);
      expect(dataOf(await d.gql<R>('query($t: Float) { recallHistory(since: $t) { query } }', { t: T0 + 1 })).recallHistory).toEqual([]);
      // The session caller sees its own recall only.
      const own = dataOf(await d.gql<R>('{ recallHistory { query } }', undefined, { 'x-hybrid-mem-role': 'specialist', 'x-hybrid-mem-agent-id': 'a1', 'x-hybrid-mem-session-id': 's1' })).recallHistory;
      expect(own.map((r) => r.query)).toEqual(['zebra']);
    });

    it('orphans, conflicts; weakLinks and staleFacts are empty while nothing has aged', async () => {
      const o = dataOf(await d.gql<{ orphans: GFact[] }>('{ orphans { id } }')).orphans;
      expect(o.map((x) => x.id)).toEqual(['note', 'gw2', 'exp', 'perm', 'pref'].map((k) => f[k]?.id)); // newest first
      expect(dataOf(await d.gql<{ orphans: GFact[] }>('{ orphans(limit: 2) { id } }')).orphans).toHaveLength(2);
      type C = { conflicts: { id: string; newFactId: string; oldFactId: string; newFact: { id: string; text: string } | null; oldFact: { id: string } | null; status: string; resolution: string | null; reason: string; createdAt: number; resolvedAt: number | null }[] };
      const c = dataOf(await d.gql<C>('{ conflicts { id newFactId oldFactId newFact { id text } oldFact { id } status resolution reason createdAt resolvedAt } }')).conflicts;
      expect(c).toEqual([
        {
          id: conflictId,
          newFactId: f.st2?.id,
          oldFactId: f.st1?.id,
          newFact: { id: f.st2?.id, text: 'the staging db port is not 5432' },
          oldFact: { id: f.st1?.id },
          status: 'unresolved',
          resolution: null,
          reason: expect.stringContaining('negates') as unknown as string,
          createdAt: T0,
          resolvedAt: null,
        },
      ]);
      expect(dataOf(await d.gql<C>('{ conflicts(status: resolved) { id } }')).conflicts).toEqual([]);
      expect(dataOf(await d.gql<{ weakLinks: GEdge[] }>('{ weakLinks { id } }')).weakLinks).toEqual([]);
      expect(dataOf(await d.gql<{ staleFacts: GFact[] }>('{ staleFacts { id } }')).staleFacts).toEqual([]);
    });

    it('suggestedLinks without embeddings: MEM_ERR_SEMANTIC_UNAVAILABLE', async () => {
      const r = await d.gql('{ suggestedLinks { source target similarity } }');
      expect(r.status).toBe(200);
      expect(errorCode(r)).toBe('MEM_ERR_SEMANTIC_UNAVAILABLE');
      expect(r.body.data).toBeNull();
      // Bad arguments are refused before the semantic check.
      expect(errorCode(await d.gql('{ suggestedLinks(threshold: 3) { source } }'))).toBe('MEM_ERR_INVALID_INPUT');
    });
  });

  describe('time: weak links, stale facts, decay', () => {
    let d: ClockedDashboard;
    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
    });
    afterAll(() => d.close());

    it('a faint link idle past the window is weak; an idle volatile fact is stale; recency decays', async () => {
      const a = d.svc.memoryStore({ text: 'Build agents run Ubuntu 24.04' }).fact;
      const b = d.svc.memoryStore({ text: 'Nightly builds start at 02:00' }).fact;
      const c = d.svc.memoryStore({ text: 'Artifacts are kept for 30 days' }).fact;
      const v = d.svc.memoryStore({ text: 'The build queue is long right now', decayClass: 'volatile' }).fact;
      const p = d.svc.memoryStore({ text: 'The build cache is warm', decayClass: 'volatile', pinned: true }).fact;
      const faint = d.svc.memoryLink({ sourceId: a.id, targetId: b.id, strength: 0.1 }).link;
      const firm = d.svc.memoryLink({ sourceId: a.id, targetId: c.id, strength: 0.9 }).link;
      type R = { weakLinks: GEdge[]; staleFacts: GFact[]; links: GEdge[]; fact: GFact };
      const q = 'query($id: ID!) { weakLinks { id weak strength } staleFacts { id } links { id weak } fact(id: $id) { strength decay { recency } } }';
      const fresh = dataOf(await d.gql<R>(q, { id: v.id }));
      expect(fresh.weakLinks).toEqual([]);
      expect(fresh.staleFacts).toEqual([]);
      expect(fresh.links.every((x) => !x.weak)).toBe(true);
      expect(fresh.fact.decay.recency).toBe(1);

      d.clock.advance(15 * DAY);
      const later = dataOf(await d.gql<R>(q, { id: v.id }));
      expect(later.weakLinks).toEqual([{ id: faint.id, weak: true, strength: 0.1 }]);
      expect(later.links.find((x) => x.id === faint.id)?.weak).toBe(true);
      expect(later.links.find((x) => x.id === firm.id)?.weak).toBe(false);
      // Volatile: 3-day window (and a 3-day half-life); the pinned one and the stable ones are not stale.
      expect(later.staleFacts.map((x) => x.id)).toEqual([v.id]);
      expect(later.fact.decay.recency).toBeCloseTo(Math.pow(0.5, 5), 9);
      expect(later.fact.strength).toBeCloseTo(0.4 * Math.pow(0.5, 5), 9);
      expect(dataOf(await d.gql<R>(q, { id: p.id })).fact.decay.recency).toBe(1);
    });
  });

  describe('mutations reach the database', () => {
    let d: ClockedDashboard;
    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
    });
    afterAll(() => d.close());

    it('createFact stores through the service with every field; source graphql', async () => {
      const r = dataOf(
        await d.gql<{ createFact: GFact }>(`mutation($i: CreateFactInput!) { createFact(input: $i) { ${FACT_FIELDS} } }`, {
          i: { text: 'The VPN endpoint is vpn.example.org', category: 'technical', entity: 'vpn', tags: ['Net'], importance: 0.7, confidence: 0.9, decayClass: 'episodic', expiresAt: T0 + 10 * DAY, pinned: true },
        }),
      ).createFact;
      const stored = d.svc.getFact(r.id);
      expect(stored).toMatchObject({ text: 'The VPN endpoint is vpn.example.org', category: 'technical', entity: 'vpn', tags: ['net'], importance: 0.7, confidence: 0.9, decayClass: 'episodic', expiresAt: T0 + 10 * DAY, pinned: true, source: 'graphql', validUntil: null });
      expect(r).toMatchObject({ text: stored.text, category: 'technical', pinned: true, version: 1, scope: { kind: 'global' }, createdAt: T0, superseded: false });
      expect(r.strength).toBeCloseTo(0.7 * 0.9 + 0.3, 6);
      // Defaults: category fact, global scope.
      const plain = dataOf(await d.gql<{ createFact: GFact }>('mutation { createFact(input: { text: "Lunch is at noon" }) { id category scope { kind } importance confidence decayClass } }')).createFact;
      expect(plain).toMatchObject({ category: 'fact', scope: { kind: 'global' }, importance: 0.5, confidence: 0.8, decayClass: 'stable' });
      expect(d.svc.getFact(plain.id).text).toBe('Lunch is at noon');
    });

    it('editFact supersedes and returns the new version; the old one is no longer editable; entity: null clears', async () => {
      const old = d.svc.memoryStore({ text: 'The wiki lives at wiki.old.example', entity: 'wiki', tags: ['docs'] }).fact;
      d.clock.advance(1000);
      const r = dataOf(
        await d.gql<{ editFact: GFact }>('mutation($id: ID!, $i: EditFactInput!) { editFact(id: $id, input: $i) { id text version supersedes lineageId entity tags superseded } }', { id: old.id, i: { text: 'The wiki lives at wiki.example' } }),
      ).editFact;
      expect(r).toMatchObject({ text: 'The wiki lives at wiki.example', version: 2, supersedes: old.id, lineageId: old.id, entity: 'wiki', tags: ['docs'], superseded: false });
      expect(r.id).not.toBe(old.id);
      expect(d.svc.getFact(old.id)).toMatchObject({ supersededBy: r.id, endedReason: 'superseded' });
      expect(d.svc.getFact(r.id)).toMatchObject({ validUntil: null, source: 'graphql' });
      expect(d.svc.history(r.id).map((x) => x.id)).toEqual([old.id, r.id]);
      const again = await d.gql('mutation($id: ID!) { editFact(id: $id, input: { text: "x" }) { id } }', { id: old.id });
      expect(errorCode(again)).toBe('MEM_ERR_FACT_SUPERSEDED');
      const cleared = dataOf(await d.gql<{ editFact: GFact }>('mutation($id: ID!) { editFact(id: $id, input: { entity: null }) { id entity version } }', { id: r.id })).editFact;
      expect(cleared).toMatchObject({ entity: null, version: 3 });
      expect(d.svc.getFact(cleared.id).entity).toBeNull();
    });

    it('deleteFact ends the fact and removes its links', async () => {
      const a = d.svc.memoryStore({ text: 'Printer on floor 3 is broken' }).fact;
      const b = d.svc.memoryStore({ text: 'Printer on floor 4 works' }).fact;
      const link = d.svc.memoryLink({ sourceId: a.id, targetId: b.id }).link;
      const r = dataOf(await d.gql<{ deleteFact: { id: string; deleted: boolean } }>('mutation($id: ID!) { deleteFact(id: $id) { id deleted } }', { id: a.id })).deleteFact;
      expect(r).toEqual({ id: a.id, deleted: true });
      expect(d.svc.getFact(a.id)).toMatchObject({ endedReason: 'deleted' });
      expect(d.svc.getFact(a.id).deletedAt).not.toBeNull();
      expect(d.svc.listLinks().map((x) => x.id)).not.toContain(link.id);
      expect(d.svc.graph().nodes.map((n) => n.fact.id)).not.toContain(a.id);
      expect(errorCode(await d.gql('mutation($id: ID!) { deleteFact(id: $id) { id } }', { id: a.id }))).toBe('MEM_ERR_FACT_ENDED');
    });

    it('pinFact and unpinFact', async () => {
      const a = d.svc.memoryStore({ text: 'The on-call phone is in the drawer' }).fact;
      const pinned = dataOf(await d.gql<{ pinFact: GFact }>('mutation($id: ID!) { pinFact(id: $id) { id pinned strength decay { frozen } } }', { id: a.id })).pinFact;
      expect(pinned).toMatchObject({ id: a.id, pinned: true, decay: { frozen: true } });
      expect(pinned.strength).toBeCloseTo(0.7, 6);
      expect(d.svc.getFact(a.id).pinned).toBe(true);
      const unpinned = dataOf(await d.gql<{ unpinFact: GFact }>('mutation($id: ID!) { unpinFact(id: $id) { id pinned } }', { id: a.id })).unpinFact;
      expect(unpinned).toEqual({ id: a.id, pinned: false });
      expect(d.svc.getFact(a.id).pinned).toBe(false);
    });

    it('createLink (again strengthens), changeLinkType, deleteLink', async () => {
      const a = d.svc.memoryStore({ text: 'Service A calls service B' }).fact;
      const b = d.svc.memoryStore({ text: 'Service B owns the orders table' }).fact;
      const create = 'mutation($s: ID!, $t: ID!, $k: LinkType, $w: Float) { createLink(source: $s, target: $t, linkType: $k, strength: $w) { id source target linkType strength reinforcements } }';
      const first = dataOf(await d.gql<{ createLink: GEdge }>(create, { s: a.id, t: b.id, k: 'DEPENDS_ON', w: 0.4 })).createLink;
      expect(first).toMatchObject({ source: a.id, target: b.id, linkType: 'DEPENDS_ON', strength: 0.4, reinforcements: 0 });
      expect(d.svc.listLinks(undefined, { factId: a.id })).toMatchObject([{ id: first.id, linkType: 'DEPENDS_ON', strength: 0.4 }]);
      const second = dataOf(await d.gql<{ createLink: GEdge }>(create, { s: a.id, t: b.id, k: 'DEPENDS_ON' })).createLink;
      expect(second.id).toBe(first.id);
      expect(second.strength).toBeCloseTo(0.4 + 0.6 * 0.2, 9);
      expect(second.reinforcements).toBe(1);
      expect(d.svc.listLinks(undefined, { factId: a.id })).toHaveLength(1);
      const changed = dataOf(await d.gql<{ changeLinkType: GEdge }>('mutation($id: ID!) { changeLinkType(id: $id, linkType: PART_OF) { id linkType } }', { id: first.id })).changeLinkType;
      expect(changed).toEqual({ id: first.id, linkType: 'PART_OF' });
      expect(d.svc.listLinks(undefined, { factId: a.id })[0]?.linkType).toBe('PART_OF');
      const deleted = dataOf(await d.gql<{ deleteLink: { id: string; deleted: boolean } }>('mutation($id: ID!) { deleteLink(id: $id) { id deleted } }', { id: first.id })).deleteLink;
      expect(deleted).toEqual({ id: first.id, deleted: true });
      expect(d.svc.listLinks(undefined, { factId: a.id })).toEqual([]);
      // Default link type.
      const rel = dataOf(await d.gql<{ createLink: GEdge }>('mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { linkType strength } }', { s: a.id, t: b.id })).createLink;
      expect(rel).toEqual({ linkType: 'RELATED_TO', strength: 0.5 });
    });

    it('acceptSuggestedLink creates the link (RELATED_TO unless told otherwise)', async () => {
      const a = d.svc.memoryStore({ text: 'The office opens at 8' }).fact;
      const b = d.svc.memoryStore({ text: 'Office doors open at eight' }).fact;
      const r = dataOf(await d.gql<{ acceptSuggestedLink: GEdge }>('mutation($s: ID!, $t: ID!) { acceptSuggestedLink(source: $s, target: $t) { id source target linkType } }', { s: a.id, t: b.id })).acceptSuggestedLink;
      expect(r).toMatchObject({ source: a.id, target: b.id, linkType: 'RELATED_TO' });
      expect(d.svc.listLinks(undefined, { factId: b.id }).map((x) => x.id)).toEqual([r.id]);
      const c = d.svc.memoryStore({ text: 'The office closes at 6' }).fact;
      const typed = dataOf(await d.gql<{ acceptSuggestedLink: GEdge }>('mutation($s: ID!, $t: ID!) { acceptSuggestedLink(source: $s, target: $t, linkType: INSTANCE_OF) { linkType } }', { s: a.id, t: c.id })).acceptSuggestedLink;
      expect(typed.linkType).toBe('INSTANCE_OF');
    });

    it('resolveConflict: keep_new, keep_old, both_fine; a closed conflict stays closed', async () => {
      const pair = (entity: string): { older: Fact; newer: Fact; id: string } => {
        const older = d.svc.memoryStore({ text: `the ${entity} port is 5432`, entity, category: 'technical' }).fact;
        d.clock.advance(1);
        const r = d.svc.memoryStore({ text: `the ${entity} port is not 5432`, entity, category: 'technical' });
        return { older, newer: r.fact, id: r.conflicts[0]?.id ?? 'missing' };
      };
      const resolve = 'mutation($id: ID!, $r: ConflictResolution!) { resolveConflict(id: $id, resolution: $r) { id status resolution resolvedAt newFactId oldFactId } }';
      type R = { resolveConflict: { id: string; status: string; resolution: string; resolvedAt: number; newFactId: string; oldFactId: string } };

      const kn = pair('alpha-db');
      const r1 = dataOf(await d.gql<R>(resolve, { id: kn.id, r: 'keep_new' })).resolveConflict;
      expect(r1).toMatchObject({ id: kn.id, status: 'resolved', resolution: 'keep_new', resolvedAt: d.clock.now });
      expect(d.svc.getFact(kn.older.id).supersededBy).toBe(kn.newer.id);
      expect(d.svc.getFact(kn.newer.id).validUntil).toBeNull();
      expect(d.svc.listConflicts(undefined, 'resolved').map((c) => c.id)).toContain(kn.id);

      const ko = pair('beta-db');
      const r2 = dataOf(await d.gql<R>(resolve, { id: ko.id, r: 'keep_old' })).resolveConflict;
      expect(r2).toMatchObject({ status: 'resolved', resolution: 'keep_old' });
      expect(d.svc.getFact(ko.newer.id).supersededBy).toBe(ko.older.id);
      expect(d.svc.getFact(ko.older.id).validUntil).toBeNull();

      const bf = pair('gamma-db');
      const r3 = dataOf(await d.gql<R>(resolve, { id: bf.id, r: 'both_fine' })).resolveConflict;
      expect(r3).toMatchObject({ status: 'reviewed', resolution: 'both_fine' });
      expect(d.svc.getFact(bf.newer.id).validUntil).toBeNull();
      expect(d.svc.getFact(bf.older.id).validUntil).toBeNull();
      expect(d.svc.listConflicts(undefined, 'reviewed').map((c) => c.id)).toEqual([bf.id]);
      expect(d.svc.listConflicts().map((c) => c.id)).not.toContain(bf.id);

      const sum = checksum(d.svc);
      expect(errorCode(await d.gql(resolve, { id: kn.id, r: 'keep_old' }))).toBe('MEM_ERR_CONFLICT_CLOSED');
      expect(checksum(d.svc)).toBe(sum);
    });
  });

  describe('bad input: a typed error and nothing changes', () => {
    let d: ClockedDashboard;
    const id = { a: '', b: '', link: '', conflict: '' };
    const UNKNOWN_FACT = 'fact_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    const UNKNOWN_LINK = 'link_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    const UNKNOWN_CONFLICT = 'cf_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
      id.a = d.svc.memoryStore({ text: 'the build server port is 8080', entity: 'build', category: 'technical' }).fact.id;
      const b = d.svc.memoryStore({ text: 'the build server port is not 8080', entity: 'build', category: 'technical' });
      id.b = b.fact.id;
      id.conflict = b.conflicts[0]?.id ?? '';
      const c = d.svc.memoryStore({ text: 'Deploys run on Fridays' }).fact.id;
      id.link = d.svc.memoryLink({ sourceId: id.a, targetId: c }).link.id;
      d.svc.memoryLink({ sourceId: id.a, targetId: c, linkType: 'PART_OF' });
      expect(id.conflict).toMatch(/^cf_/);
    });
    afterAll(() => d.close());

    const cases: [string, string, () => Record<string, unknown>, string][] = [
      ['createFact: empty text', 'mutation { createFact(input: { text: "  " }) { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['createFact: importance out of range', 'mutation { createFact(input: { text: "x", importance: 7 }) { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['createFact: expiry in the past', 'mutation($t: Float) { createFact(input: { text: "x", expiresAt: $t }) { id } }', () => ({ t: T0 - DAY }), 'MEM_ERR_INVALID_INPUT'],
      ['createFact: agent scope without an agent', 'mutation { createFact(input: { text: "x", scope: agent }) { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['createFact: text too long', 'mutation($t: String!) { createFact(input: { text: $t }) { id } }', () => ({ t: 'x'.repeat(10_001) }), 'MEM_ERR_INVALID_INPUT'],
      ['createFact: unknown category', 'mutation { createFact(input: { text: "x", category: gossip }) { id } }', () => ({}), 'MEM_ERR_GRAPHQL_INVALID'],
      ['editFact: unknown fact', 'mutation($id: ID!) { editFact(id: $id, input: { text: "y" }) { id } }', () => ({ id: UNKNOWN_FACT }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['editFact: malformed id', 'mutation { editFact(id: "abc", input: { text: "y" }) { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['editFact: nothing to change', 'mutation($id: ID!) { editFact(id: $id, input: {}) { id } }', () => ({ id: id.a }), 'MEM_ERR_INVALID_INPUT'],
      ['editFact: confidence out of range', 'mutation($id: ID!) { editFact(id: $id, input: { confidence: -1 }) { id } }', () => ({ id: id.a }), 'MEM_ERR_INVALID_INPUT'],
      ['deleteFact: unknown fact', 'mutation($id: ID!) { deleteFact(id: $id) { id } }', () => ({ id: UNKNOWN_FACT }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['deleteFact: a link id', 'mutation($id: ID!) { deleteFact(id: $id) { id } }', () => ({ id: id.link }), 'MEM_ERR_INVALID_INPUT'],
      ['pinFact: unknown fact', 'mutation($id: ID!) { pinFact(id: $id) { id } }', () => ({ id: UNKNOWN_FACT }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['unpinFact: malformed id', 'mutation { unpinFact(id: "") { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['createLink: to itself', 'mutation($id: ID!) { createLink(source: $id, target: $id) { id } }', () => ({ id: id.a }), 'MEM_ERR_LINK_SELF'],
      ['createLink: unknown target', 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', () => ({ s: id.a, t: UNKNOWN_FACT }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['createLink: strength out of range', 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t, strength: 2) { id } }', () => ({ s: id.a, t: id.b }), 'MEM_ERR_INVALID_INPUT'],
      ['createLink: unknown link type', 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t, linkType: LIKES) { id } }', () => ({ s: id.a, t: id.b }), 'MEM_ERR_GRAPHQL_INVALID'],
      ['changeLinkType: unknown link', 'mutation($id: ID!) { changeLinkType(id: $id, linkType: PART_OF) { id } }', () => ({ id: UNKNOWN_LINK }), 'MEM_ERR_LINK_NOT_FOUND'],
      ['changeLinkType: would duplicate a link', 'mutation($id: ID!) { changeLinkType(id: $id, linkType: PART_OF) { id } }', () => ({ id: id.link }), 'MEM_ERR_LINK_EXISTS'],
      ['deleteLink: unknown link', 'mutation($id: ID!) { deleteLink(id: $id) { id } }', () => ({ id: UNKNOWN_LINK }), 'MEM_ERR_LINK_NOT_FOUND'],
      ['deleteLink: a fact id', 'mutation($id: ID!) { deleteLink(id: $id) { id } }', () => ({ id: id.a }), 'MEM_ERR_INVALID_INPUT'],
      ['resolveConflict: unknown conflict', 'mutation($id: ID!) { resolveConflict(id: $id, resolution: keep_new) { id } }', () => ({ id: UNKNOWN_CONFLICT }), 'MEM_ERR_CONFLICT_NOT_FOUND'],
      ['resolveConflict: unknown resolution', 'mutation($id: ID!) { resolveConflict(id: $id, resolution: ignore) { id } }', () => ({ id: id.conflict }), 'MEM_ERR_GRAPHQL_INVALID'],
      ['acceptSuggestedLink: unknown fact', 'mutation($s: ID!, $t: ID!) { acceptSuggestedLink(source: $s, target: $t) { id } }', () => ({ s: UNKNOWN_FACT, t: id.a }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['graph: minStrength out of range', '{ graph(filter: { minStrength: 2 }) { truncated } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['graph: limit 0', '{ graph(filter: { limit: 0 }) { truncated } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['facts: unknown filter field', '{ facts(filter: { colour: "red" }) { id } }', () => ({}), 'MEM_ERR_GRAPHQL_INVALID'],
      ['neighbors: unknown fact', 'query($id: ID!) { neighbors(id: $id) { truncated } }', () => ({ id: UNKNOWN_FACT }), 'MEM_ERR_FACT_NOT_FOUND'],
      ['fact: malformed id', '{ fact(id: "nope") { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['orphans: limit too large', '{ orphans(limit: 100000) { id } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['search: query too long', 'query($q: String!) { search(query: $q) { mode } }', () => ({ q: 'x'.repeat(1001) }), 'MEM_ERR_INVALID_INPUT'],
      ['search: limit 0', '{ search(query: "build", limit: 0) { mode } }', () => ({}), 'MEM_ERR_INVALID_INPUT'],
      ['unknown field', '{ nothing }', () => ({}), 'MEM_ERR_GRAPHQL_INVALID'],
    ];

    it.each(cases)('%s', async (_name, query, vars, code) => {
      const before = checksum(d.svc);
      const r = await d.gql(query, vars());
      expect(errorCode(r), JSON.stringify(r.body)).toBe(code);
      // No data: null, or null in the (nullable) field that failed.
      expect(Object.values(r.body.data ?? {}).every((v) => v === null)).toBe(true);
      expect(checksum(d.svc)).toBe(before);
    });
  });
});
