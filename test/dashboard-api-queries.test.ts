/**
 * The dashboard's GraphQL API over HTTP, on both adapters: every query over a small seeded store (graph and
 * its filters, neighbors, stats, fact, links, episodes, search, recall history) answers correctly. Real
 * SQLite in a temp dir, a real server on port 0, fetch as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { DAY, EDGE_FIELDS, FACT_FIELDS, ids, sorted, seedStore, T0, type GEdge, type GFact, type GGraph, type SeededStore } from './support/dashboard-api.js';
import { checksum, dataOf, startClockedDashboard, type ClockedDashboard } from './support/dashboard-clients.js';

describe.each(ADAPTERS)('dashboard API over %s', (adapter) => {
  describe('queries over a seeded store', () => {
    let d: ClockedDashboard;
    let f: SeededStore['f'];
    let l: SeededStore['l'];
    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
      ({ f, l } = await seedStore(d.svc));
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
  });
});
