/**
 * Scope and ownership through the dashboard, on both adapters, with several callers at once: the operator,
 * an orchestrator, two specialists (agents a1 and a2) in two sessions, and a1 again in a third session.
 * Every read (graph, facts, fact, neighbors, links, search, orphans, conflicts, stats, recallHistory), every
 * live event and every recall pulse shows a caller only what src/core/scope.ts lets it see; curation of
 * facts out of scope is refused and changes nothing. Callers come from headers (HTTP, SSE) or connection
 * params (WebSocket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVisible, ownsRecall } from '../src/core/scope.js';
import type { Caller, Fact } from '../src/core/types.js';
import { ADAPTERS, startTestDashboard, type TestDashboard } from './support/dashboard.js';
import {
  activityQuery,
  callerHeaders,
  callerParams,
  checksum,
  dataOf,
  errorCode,
  prime,
  sseFeed,
  wsExecute,
  wsFeed,
  type ActivityEvent,
  type Feed,
} from './support/dashboard-clients.js';

const OP: Caller = { role: 'operator', agentId: null, sessionId: null };
const ORCH: Caller = { role: 'orchestrator', agentId: 'orc', sessionId: 's1' };
const A1: Caller = { role: 'specialist', agentId: 'a1', sessionId: 's1' };
const A2: Caller = { role: 'specialist', agentId: 'a2', sessionId: 's2' };
const A1B: Caller = { role: 'specialist', agentId: 'a1', sessionId: 's3' };
const CALLERS = { OP, ORCH, A1, A2, A1B } as const;
type Who = keyof typeof CALLERS;
const WHO = Object.keys(CALLERS) as Who[];

const sorted = (xs: readonly (string | undefined)[]): string[] => xs.map(String).sort();

describe.each(ADAPTERS)('scope and ownership over %s', (adapter) => {
  let d: TestDashboard;
  const f: Record<string, Fact> = {};
  const link: Record<string, string> = {};
  let conflictId = '';
  let recallA1 = '';

  /** Which seeded facts each caller may see (written out, then cross-checked against isVisible). */
  const VISIBLE: Record<Who, string[]> = {
    OP: ['g', 'ag1', 'ag2', 'ss1', 'ss2', 'c1', 'c2'],
    ORCH: ['g', 'ag1', 'ag2', 'ss1', 'c1', 'c2'],
    A1: ['g', 'ag1', 'ss1', 'c1', 'c2'],
    A2: ['g', 'ag2', 'ss2'],
    A1B: ['g', 'ag1', 'c1', 'c2'],
  };
  const visibleIds = (who: Who): string[] => sorted(VISIBLE[who].map((k) => f[k]?.id));

  beforeAll(async () => {
    d = await startTestDashboard(adapter);
    const s = d.svc;
    f.g = s.memoryStore({ text: 'zebra: the global wiki is wiki.example' }).fact;
    f.ag1 = s.memoryStore({ text: 'zebra: agent a1 keeps its notes in /a1', scope: 'agent' }, A1).fact;
    f.ag2 = s.memoryStore({ text: 'zebra: agent a2 keeps its notes in /a2', scope: 'agent' }, A2).fact;
    f.ss1 = s.memoryStore({ text: 'zebra: session s1 is migrating the queue', scope: 'session' }, A1).fact;
    f.ss2 = s.memoryStore({ text: 'zebra: session s2 is tuning the cache', scope: 'session' }, A2).fact;
    f.c1 = s.memoryStore({ text: 'the a1 cache port is 6379', entity: 'a1-cache', category: 'technical', scope: 'agent' }, A1).fact;
    const c2 = s.memoryStore({ text: 'the a1 cache port is not 6379', entity: 'a1-cache', category: 'technical', scope: 'agent' }, A1);
    f.c2 = c2.fact;
    conflictId = c2.conflicts[0]?.id ?? '';
    link.gAg1 = s.memoryLink({ sourceId: f.g.id, targetId: f.ag1.id }).link.id;
    link.ag1Ag2 = s.memoryLink({ sourceId: f.ag1.id, targetId: f.ag2.id }).link.id;
    link.gSs1 = s.memoryLink({ sourceId: f.g.id, targetId: f.ss1.id }).link.id;
    link.contra = s.listLinks(OP, { factId: f.c1.id })[0]?.id ?? '';
    recallA1 = String((await s.memoryRecall({ query: 'zebra' }, A1)).recallId);
    await s.memoryRecall({ query: 'zebra' }, A2);
    expect(conflictId).toMatch(/^cf_/);
    // The table above is the rule in src/core/scope.ts.
    for (const who of WHO) {
      const byRule = Object.keys(f).filter((k) => isVisible((f[k] as Fact).scope, CALLERS[who]));
      expect([who, byRule.sort()]).toEqual([who, [...VISIBLE[who]].sort()]);
    }
  });
  afterAll(() => d.close());

  const as = (who: Who) => (query: string, variables?: Record<string, unknown>) => d.gql(query, variables, callerHeaders(CALLERS[who]));

  it('graph, facts, stats and links show each caller only its facts and the links among them', async () => {
    const edges: Record<Who, string[]> = {
      OP: [link.gAg1, link.ag1Ag2, link.gSs1, link.contra].map(String),
      ORCH: [link.gAg1, link.ag1Ag2, link.gSs1, link.contra].map(String),
      A1: [link.gAg1, link.gSs1, link.contra].map(String),
      A2: [],
      A1B: [link.gAg1, link.contra].map(String),
    };
    for (const who of WHO) {
      type R = { graph: { nodes: { id: string }[]; edges: { id: string }[] }; facts: { id: string }[]; stats: { totalFacts: number; links: number; openConflicts: number }; links: { id: string }[] };
      const r = dataOf(await as(who)('{ graph { nodes { id } edges { id } } facts { id } stats { totalFacts links openConflicts } links { id } }'));
      const data = r as R;
      expect([who, sorted(data.graph.nodes.map((n) => n.id))]).toEqual([who, visibleIds(who)]);
      expect([who, sorted(data.facts.map((n) => n.id))]).toEqual([who, visibleIds(who)]);
      expect([who, sorted(data.graph.edges.map((e) => e.id))]).toEqual([who, sorted(edges[who])]);
      expect([who, sorted(data.links.map((e) => e.id))]).toEqual([who, sorted(edges[who])]);
      expect([who, data.stats]).toEqual([who, { totalFacts: VISIBLE[who].length, links: edges[who].length, openConflicts: who === 'A2' ? 0 : 1 }]);
    }
  });

  it('activity (what the graph app\'s feed opens with) shows each caller only the changes in its scope', async () => {
    const q = '{ activity(limit: 200) { seq kind factId recall { query } } }';
    for (const who of WHO) {
      const events = (dataOf(await as(who)(q)) as { activity: { seq: number; kind: string; factId: string | null; recall: { query: string } | null }[] }).activity;
      expect([who, sorted(events.filter((e) => e.kind === 'FACT_STORED').map((e) => e.factId ?? undefined))]).toEqual([who, visibleIds(who)]);
      // Oldest first, and the recalls the caller's recall history shows, no others.
      expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((x, y) => x - y));
      const history = (dataOf(await as(who)('{ recallHistory { query } }')) as { recallHistory: unknown[] }).recallHistory;
      expect([who, events.filter((e) => e.kind === 'RECALL').length]).toEqual([who, history.length]);
    }
    expect(errorCode(await as('OP')('{ activity(limit: 500) { seq } }'))).toBe('MEM_ERR_INVALID_INPUT');
  });

  it('recall(id) (why was this recalled) answers its owner, with the scores of facts it may see, and null to anyone else', async () => {
    const q = 'query($id: ID!) { recall(id: $id) { query scores { factId ftsRank } } }';
    type R = { recall: { query: string; scores: { factId: string; ftsRank: number | null }[] } | null };
    const own = (dataOf(await as('A1')(q, { id: recallA1 })) as R).recall;
    expect(own?.query).toBe('zebra');
    expect(own?.scores.every((x) => visibleIds('A1').includes(x.factId))).toBe(true);
    expect((dataOf(await as('A2')(q, { id: recallA1 })) as R).recall).toBeNull();
    expect((dataOf(await as('OP')(q, { id: recallA1 })) as R).recall?.query).toBe('zebra');
    expect((dataOf(await as('OP')(q, { id: 'rc_missing' })) as R).recall).toBeNull();
  });

  it('fact and neighbors: out of scope answers as a missing fact, never the fact; neighbours are trimmed to scope', async () => {
    const q = 'query($id: ID!) { fact(id: $id) { id text } }';
    for (const who of WHO) {
      for (const [k, fact] of Object.entries(f)) {
        const r = await as(who)(q, { id: fact.id });
        if (VISIBLE[who].includes(k)) expect([who, k, (dataOf(r) as { fact: { id: string } }).fact.id]).toEqual([who, k, fact.id]);
        else {
          expect([who, k, errorCode(r)]).toEqual([who, k, 'MEM_ERR_FACT_NOT_FOUND']);
          // Word for word what an id that never existed gets.
          expect(JSON.stringify(r.body)).toBe(JSON.stringify((await as(who)(q, { id: 'fact_00000000000000000000000000' })).body).replaceAll('fact_00000000000000000000000000', fact.id));
          expect(JSON.stringify(r.body)).not.toContain(fact.text);
        }
      }
    }
    const nq = 'query($id: ID!) { neighbors(id: $id) { nodes { id } edges { id } } }';
    type N = { neighbors: { nodes: { id: string }[]; edges: { id: string }[] } };
    expect(sorted((dataOf(await as('A1')(nq, { id: f.g?.id })) as N).neighbors.nodes.map((n) => n.id))).toEqual(sorted([f.g?.id, f.ag1?.id, f.ss1?.id]));
    expect((dataOf(await as('A2')(nq, { id: f.g?.id })) as N).neighbors).toEqual({ nodes: [{ id: f.g?.id }], edges: [] });
    expect(sorted((dataOf(await as('ORCH')(nq, { id: f.ag1?.id })) as N).neighbors.nodes.map((n) => n.id))).toEqual(sorted([f.ag1?.id, f.g?.id, f.ag2?.id]));
    expect(sorted((dataOf(await as('A1B')(nq, { id: f.ag1?.id })) as N).neighbors.edges.map((e) => e.id))).toEqual([link.gAg1]);
    expect(errorCode(await as('A2')(nq, { id: f.ag1?.id }))).toBe('MEM_ERR_FACT_NOT_FOUND');
    // A fact's own links and versions are trimmed too.
    const fl = (dataOf(await as('A1B')('query($id: ID!) { fact(id: $id) { links { id } versions { id } } }', { id: f.ag1?.id })) as { fact: { links: { id: string }[]; versions: { id: string }[] } }).fact;
    expect(fl).toEqual({ links: [{ id: link.gAg1 }], versions: [{ id: f.ag1?.id }] });
  });

  it('search, orphans and conflicts are scoped', async () => {
    const zebra = ['g', 'ag1', 'ag2', 'ss1', 'ss2'];
    const orphans: Record<Who, string[]> = {
      OP: ['ss2'],
      ORCH: [],
      A1: [],
      A2: ['g', 'ag2', 'ss2'], // g's and ag2's links lead only to facts a2 cannot see
      A1B: [],
    };
    for (const who of WHO) {
      type R = { search: { hits: { fact: { id: string } }[] }; orphans: { id: string }[]; conflicts: { id: string }[] };
      const r = dataOf(await as(who)('{ search(query: "zebra") { hits { fact { id } } } orphans { id } conflicts { id } }')) as R;
      expect([who, sorted(r.search.hits.map((h) => h.fact.id))]).toEqual([who, sorted(zebra.filter((k) => VISIBLE[who].includes(k)).map((k) => f[k]?.id))]);
      expect([who, sorted(r.orphans.map((o) => o.id))]).toEqual([who, sorted(orphans[who].map((k) => f[k]?.id))]);
      expect([who, r.conflicts.map((c) => c.id)]).toEqual([who, who === 'A2' ? [] : [conflictId]]);
    }
  });

  it('recallHistory: only recalls the caller owns, scores only for facts it may see', async () => {
    const expected: Record<Who, { query: string; owner: string | null; scores: string[] }[]> = {
      OP: [
        { query: 'zebra', owner: 'a2', scores: ['g', 'ag2', 'ss2'] },
        { query: 'zebra', owner: 'a1', scores: ['g', 'ag1', 'ss1'] },
      ],
      ORCH: [],
      A1: [{ query: 'zebra', owner: 'a1', scores: ['g', 'ag1', 'ss1'] }],
      A2: [{ query: 'zebra', owner: 'a2', scores: ['g', 'ag2', 'ss2'] }],
      A1B: [{ query: 'zebra', owner: 'a1', scores: ['g', 'ag1'] }], // same agent; s1's fact is not its session's
    };
    for (const who of WHO) {
      type R = { recallHistory: { query: string; owner: { agentId: string | null }; scores: { factId: string }[] }[] };
      const r = (dataOf(await as(who)('{ recallHistory { query owner { agentId } scores { factId } } }')) as R).recallHistory;
      const got = r.map((e) => ({ query: e.query, owner: e.owner.agentId, scores: sorted(e.scores.map((s) => s.factId)) }));
      expect([who, got]).toEqual([who, expected[who].map((e) => ({ ...e, scores: sorted(e.scores.map((k) => f[k]?.id)) }))]);
    }
  });

  it('live events and recall pulses reach only the callers that may see them (SSE headers and WS params)', async () => {
    const feeds: Record<Who, Feed> = {
      OP: sseFeed(d.url, activityQuery(), { name: 'OP/sse' }),
      ORCH: wsFeed(d.url, activityQuery(), { connectionParams: callerParams(ORCH), name: 'ORCH/ws' }),
      A1: sseFeed(d.url, activityQuery(), { headers: callerHeaders(A1), name: 'A1/sse' }),
      A2: wsFeed(d.url, activityQuery(), { connectionParams: callerParams(A2), name: 'A2/ws' }),
      A1B: sseFeed(d.url, activityQuery(), { headers: callerHeaders(A1B), name: 'A1B/sse' }),
    };
    try {
      const start = await prime(d.svc, Object.values(feeds), 'scope probe');
      const s = d.svc;
      const g2 = s.memoryStore({ text: 'quokka: a new global fact' }).fact;
      const a1n = s.memoryStore({ text: 'quokka: a1 learned a thing', scope: 'agent' }, A1).fact;
      const s2n = s.memoryStore({ text: 'quokka: session s2 found a thing', scope: 'session' }, A2).fact;
      const lk = s.memoryLink({ sourceId: a1n.id, targetId: g2.id }).link;
      s.pin(s2n.id, A2);
      const r1 = await s.memoryRecall({ query: 'zebra' }, A1);
      const r2 = await s.memoryRecall({ query: 'quokka' }, A2);
      const end = s.memoryStore({ text: 'quokka: end marker' }).fact;
      for (const feed of Object.values(feeds)) await feed.until((e) => e.factId === end.id, 'the end marker');

      const sig = (e: ActivityEvent): string => `${e.kind}:${e.factId ?? e.link?.id ?? e.recall?.id ?? ''}`;
      const all = {
        g2: `FACT_STORED:${g2.id}`,
        a1n: `FACT_STORED:${a1n.id}`,
        s2n: `FACT_STORED:${s2n.id}`,
        link: `LINK_CREATED:${lk.id}`,
        pin: `FACT_UPDATED:${s2n.id}`,
        r1: `RECALL:${r1.recallId}`,
        r2: `RECALL:${r2.recallId}`,
        // a1's recall returned g with ag1 and ss1: the links among co-recalled facts are strengthened.
        coAg1: `LINK_STRENGTHENED:${link.gAg1}`,
        coSs1: `LINK_STRENGTHENED:${link.gSs1}`,
        end: `FACT_STORED:${end.id}`,
      };
      const expected: Record<Who, (keyof typeof all)[]> = {
        OP: ['g2', 'a1n', 's2n', 'link', 'pin', 'coAg1', 'coSs1', 'r1', 'r2', 'end'],
        ORCH: ['g2', 'a1n', 'link', 'coAg1', 'coSs1', 'end'],
        A1: ['g2', 'a1n', 'link', 'coAg1', 'coSs1', 'r1', 'end'],
        A2: ['g2', 's2n', 'pin', 'r2', 'end'],
        A1B: ['g2', 'a1n', 'link', 'coAg1', 'r1', 'end'],
      };
      for (const who of WHO) {
        const events = feeds[who].after(start);
        // Exactly the expected events (as a set: the two strengthenings may come in either order), in seq order.
        expect([who, events.map(sig).sort()]).toEqual([who, expected[who].map((k) => all[k]).sort()]);
        expect(events.map((e) => e.seq)).toEqual(events.map((e) => e.seq).sort((x, y) => x - y));
        expect([who, feeds[who].errors]).toEqual([who, []]);
        // Recall pulses: the caller owns the recall, and every score is for a fact it may see.
        for (const e of feeds[who].after(start).filter((x) => x.kind === 'RECALL')) {
          const recall = e.recall as NonNullable<ActivityEvent['recall']>;
          const source = recall.id === r1.recallId ? { owner: A1, hits: r1.results } : { owner: A2, hits: r2.results };
          expect(ownsRecall(source.owner, CALLERS[who])).toBe(true);
          const want = source.hits.filter((h) => isVisible(h.fact.scope, CALLERS[who])).map((h) => h.fact.id);
          expect([who, recall.query, sorted(recall.scores.map((x) => x.factId))]).toEqual([who, recall.query, sorted(want)]);
        }
      }
      // The trimming is real: a1's recall scored s1's session fact, which A1B (a1 in session s3) does not get.
      expect(r1.results.map((h) => h.fact.id)).toContain(f.ss1?.id);
      const pulse = feeds.A1B.after(start).find((e) => e.recall?.id === r1.recallId);
      expect(pulse?.recall?.scores.map((x) => x.factId)).not.toContain(f.ss1?.id);
      expect(pulse?.recall?.scores.length).toBe(2);
    } finally {
      await Promise.all(Object.values(feeds).map((x) => x.stop()));
    }
  });

  it('curation out of scope is refused and changes nothing', async () => {
    const cases: [Who, string, Record<string, unknown>][] = [
      ['A2', 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', { s: f.g?.id, t: f.ag1?.id }],
      ['A2', 'mutation($s: ID!, $t: ID!) { acceptSuggestedLink(source: $s, target: $t) { id } }', { s: f.ss1?.id, t: f.g?.id }],
      ['A1', 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', { s: f.ag1?.id, t: f.ss2?.id }],
      ['A2', 'mutation($id: ID!) { editFact(id: $id, input: { text: "hijacked" }) { id } }', { id: f.ag1?.id }],
      ['A2', 'mutation($id: ID!) { deleteFact(id: $id) { id } }', { id: f.ag1?.id }],
      ['A2', 'mutation($id: ID!) { pinFact(id: $id) { id } }', { id: f.ss1?.id }],
      ['ORCH', 'mutation($id: ID!) { pinFact(id: $id) { id } }', { id: f.ss2?.id }],
      ['A1', 'mutation($id: ID!) { changeLinkType(id: $id, linkType: PART_OF) { id } }', { id: link.ag1Ag2 }],
      ['A1B', 'mutation($id: ID!) { deleteLink(id: $id) { id } }', { id: link.gSs1 }],
      ['A2', 'mutation($id: ID!) { resolveConflict(id: $id, resolution: keep_new) { id } }', { id: conflictId }],
    ];
    for (const [who, query, vars] of cases) {
      const before = checksum(d.svc);
      const r = await as(who)(query, vars);
      // Out of scope is refused as not found: the answer never confirms that the id exists.
      expect([who, query, errorCode(r)]).toEqual([who, query, /changeLinkType|deleteLink/.test(query) ? 'MEM_ERR_LINK_NOT_FOUND' : query.includes('Conflict(') ? errorCode(r) : 'MEM_ERR_FACT_NOT_FOUND']);
      expect(checksum(d.svc)).toBe(before);
    }
    expect(d.svc.getFact(f.ag1?.id ?? '').text).toBe('zebra: agent a1 keeps its notes in /a1');
  });

  it('writes land in the caller’s own scope; the orchestrator may link any agent’s facts', async () => {
    type R = { createFact: { id: string; scope: { kind: string; agentId: string | null; sessionId: string | null } } };
    const agent = dataOf(await as('A2')('mutation { createFact(input: { text: "a2 private fact", scope: agent }) { id scope { kind agentId sessionId } } }')) as R;
    expect(agent.createFact.scope).toEqual({ kind: 'agent', agentId: 'a2', sessionId: null });
    expect(d.svc.getFact(agent.createFact.id).scope).toEqual({ kind: 'agent', agentId: 'a2', sessionId: null });
    const session = dataOf(await as('A2')('mutation { createFact(input: { text: "s2 scratch fact", scope: session }) { id scope { kind agentId sessionId } } }')) as R;
    expect(session.createFact.scope).toEqual({ kind: 'session', agentId: 'a2', sessionId: 's2' });
    // A1 cannot see what A2 just wrote.
    expect(errorCode(await as('A1')('query($id: ID!) { fact(id: $id) { id } }', { id: agent.createFact.id }))).toBe('MEM_ERR_FACT_NOT_FOUND');
    // No session, no session scope.
    const before = checksum(d.svc);
    const noSession = await d.gql('mutation { createFact(input: { text: "x", scope: session }) { id } }', undefined, { 'x-hybrid-mem-role': 'specialist', 'x-hybrid-mem-agent-id': 'a9' });
    expect(errorCode(noSession)).toBe('MEM_ERR_INVALID_INPUT');
    expect(checksum(d.svc)).toBe(before);
    const linked = dataOf(await as('ORCH')('mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t, linkType: DEPENDS_ON) { id } }', { s: f.ag2?.id, t: f.ag1?.id })) as { createLink: { id: string } };
    expect(d.svc.listLinks(OP, { factId: f.ag2?.id }).map((l) => l.id)).toContain(linked.createLink.id);
  });

  it('a malformed caller is refused: 400 MEM_ERR_BAD_REQUEST over HTTP and SSE, close 4403 over WebSocket', async () => {
    const bad: Record<string, string>[] = [
      { 'x-hybrid-mem-role': 'king' },
      { 'x-hybrid-mem-role': 'specialist', 'x-hybrid-mem-agent-id': 'x'.repeat(201) },
      { 'x-hybrid-mem-agent-id': '   ' },
    ];
    for (const headers of bad) {
      const r = await d.gql('{ stats { totalFacts } }', undefined, headers);
      expect([headers, r.status, errorCode(r)]).toEqual([headers, 400, 'MEM_ERR_BAD_REQUEST']);
      const sse = await fetch(`${d.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify({ query: activityQuery() }),
      });
      expect(sse.status).toBe(400);
      expect(((await sse.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('MEM_ERR_BAD_REQUEST');
    }
    const ws = await wsExecute(d.url, '{ stats { totalFacts } }', {}, { role: 'king' });
    expect(ws.errors?.[0]?.extensions?.code).toBe('close 4403');
  });
});
