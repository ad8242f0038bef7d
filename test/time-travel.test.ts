/**
 * Time travel (issue 21, item 3): the graph as it was at a time. The versions valid then, the links that
 * existed then, strengths as of then; the start of the history in stats; bad times refused. Over the
 * service with a controlled clock, and through GraphQL on a real server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import type { MemoryService } from '../src/memory/service.js';
import { startTestDashboard, type TestDashboard } from './support/dashboard.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const DAY = 86_400_000;

describe('graph as of a time (service)', () => {
  let home: TestHome;
  let svc: MemoryService;
  afterEach(async () => {
    await svc.close();
    home.cleanup();
  });

  it('shows the facts valid then, the links made by then, and the version current then', () => {
    home = tempHome();
    const opened = openService(home);
    svc = opened.svc;
    const { clock } = opened;
    const t0 = clock.now;
    const a = svc.memoryStore({ text: 'The staging database runs on db1.internal', entity: 'staging-db', category: 'technical' }).fact;
    clock.advance(DAY);
    const b = svc.memoryStore({ text: 'Backups of the staging database run nightly at 02:00', entity: 'staging-db', category: 'technical' }).fact;
    const c = svc.memoryStore({ text: 'A temporary note', entity: 'scratch' }).fact;
    clock.advance(DAY);
    svc.memoryLink({ sourceId: a.id, targetId: b.id });
    clock.advance(DAY);
    const a2 = svc.editFact({ id: a.id, text: 'The staging database runs on db2.internal' });
    clock.advance(DAY);
    svc.deleteFact(c.id);
    clock.advance(DAY);

    const at = (t: number) => {
      const g = svc.graph({ asOf: t });
      return { nodes: g.nodes.map((n) => n.fact.text).sort(), edges: g.edges.length };
    };
    expect(at(t0 - 1)).toEqual({ nodes: [], edges: 0 });
    expect(at(t0 + DAY / 2)).toEqual({ nodes: ['The staging database runs on db1.internal'], edges: 0 });
    const both = ['A temporary note', 'Backups of the staging database run nightly at 02:00'];
    expect(at(t0 + DAY + 1)).toEqual({ nodes: [...both, 'The staging database runs on db1.internal'], edges: 0 });
    // The link made on day 2 joins the version of the edited fact that was valid then.
    expect(at(t0 + 2 * DAY + 1)).toEqual({ nodes: [...both, 'The staging database runs on db1.internal'], edges: 1 });
    const day2 = svc.graph({ asOf: t0 + 2 * DAY + 1 });
    expect(day2.edges[0]).toMatchObject({ sourceId: a.id, targetId: b.id });
    expect(at(t0 + 3 * DAY + 1)).toEqual({ nodes: [...both, 'The staging database runs on db2.internal'], edges: 1 });
    expect(at(t0 + 4 * DAY + 1)).toEqual({ nodes: ['Backups of the staging database run nightly at 02:00', 'The staging database runs on db2.internal'], edges: 1 });
    // The present without asOf agrees with asOf now.
    expect(svc.graph({}).nodes.map((n) => n.fact.id)).toEqual(svc.graph({ asOf: clock.now }).nodes.map((n) => n.fact.id));
    expect(svc.graph({}).nodes.map((n) => n.fact.id).sort()).toEqual([a2.id, b.id].sort());
    // Strength is as of then: a day-old fact is stronger then than it is now.
    const then = svc.graph({ asOf: t0 + DAY / 2 }).nodes[0]?.strength ?? 0;
    expect(then).toBeGreaterThan(0);
    expect(svc.stats().firstFactAt).toBe(t0);
  });

  it('refuses a time that is not one, and changes nothing', () => {
    home = tempHome();
    svc = openService(home).svc;
    svc.memoryStore({ text: 'one fact' });
    for (const asOf of [-1, Number.NaN, 1e20]) {
      let err: unknown;
      try {
        svc.graph({ asOf });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MemoryError);
      expect((err as MemoryError).code).toBe('MEM_ERR_INVALID_INPUT');
    }
    expect(svc.stats().totalFacts).toBe(1);
  });
});

describe('graph as of a time (GraphQL)', () => {
  let d: TestDashboard;
  afterEach(async () => d?.close());

  it('graph(filter: { asOf }) and stats.firstFactAt', async () => {
    d = await startTestDashboard('uws');
    const before = Date.now() - 1;
    const first = d.svc.memoryStore({ text: 'first fact' }).fact;
    await new Promise((r) => setTimeout(r, 15));
    const middle = Date.now();
    await new Promise((r) => setTimeout(r, 15));
    d.svc.memoryStore({ text: 'second fact' });
    const q = 'query G($asOf: Float) { graph(filter: { asOf: $asOf }) { nodes { id text } edges { id } } stats { firstFactAt } }';
    const past = await d.gql<{ graph: { nodes: { id: string }[] }; stats: { firstFactAt: number } }>(q, { asOf: middle });
    expect(past.body.errors).toBeUndefined();
    expect(past.body.data?.graph.nodes.map((n) => n.id)).toEqual([first.id]);
    expect(past.body.data?.stats.firstFactAt).toBe(first.validFrom);
    expect((await d.gql<{ graph: { nodes: unknown[] } }>(q, { asOf: before })).body.data?.graph.nodes).toEqual([]);
    expect((await d.gql<{ graph: { nodes: unknown[] } }>(q, {})).body.data?.graph.nodes).toHaveLength(2);
    const bad = await d.gql(q, { asOf: -5 });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('MEM_ERR_INVALID_INPUT');
  });
});
