/**
 * The answer cache (src/http/answer-cache.ts, issue 21): a heavy read asked again while memory has not
 * changed is answered from the cache, and never a stale one: a change by this process, a change by
 * another process on the same database, or the service's clock moving past the cache's age all make the
 * next answer fresh. Queries that use search are never kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_CACHE } from '../src/http/answer-cache.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

const QUERY = '{ graph(filter: { limit: 500 }) { nodes { id label strength decay { recency } } edges { id } } }';

describe('answers kept while memory has not changed', () => {
  let home: TestHome;
  let svc: MemoryService;
  let d: Dashboard;
  const clock = { now: Date.UTC(2026, 0, 1) };
  const ask = async (query = QUERY): Promise<string> => {
    const r = await fetch(`${d.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(r.status).toBe(200);
    return r.text();
  };
  const ids = (body: string): string[] => (JSON.parse(body) as { data: { graph: { nodes: { id: string }[] } } }).data.graph.nodes.map((n) => n.id).sort();

  beforeAll(async () => {
    home = tempHome({ embedding: { enabled: false } });
    svc = MemoryService.open({ config: home.config, env: home.env, now: () => clock.now });
    for (let i = 0; i < 20; i++) svc.memoryStore({ text: `Cached answer fact ${i} about host c${i}`, decayClass: 'episodic' });
    d = await startDashboard({ svc, config: home.config, port: 0, record: false });
  });

  afterAll(async () => {
    await d?.close();
    await svc?.close();
    home?.cleanup();
  });

  it('the same answer again, byte for byte, until something changes here', async () => {
    const first = await ask();
    expect(ids(first)).toHaveLength(20);
    expect(await ask()).toBe(first);
    const added = svc.memoryStore({ text: 'A fact stored after the first answer' }).fact.id;
    const after = await ask();
    expect(ids(after)).toContain(added);
  });

  it('a change by another process on the same database is seen at the next ask', async () => {
    const before = await ask();
    const other = MemoryService.open({ config: home.config, env: home.env });
    const id = other.memoryStore({ text: 'Written by another process meanwhile' }).fact.id;
    await other.close();
    expect(ids(before)).not.toContain(id);
    expect(ids(await ask())).toContain(id);
  });

  it('an answer older than the cache age (on the service clock) is computed again: recency is read at the new time', async () => {
    const a = await ask();
    expect(await ask()).toBe(a);
    // Within the age, nothing changed: still the kept answer, though strength has moved a little.
    clock.now += ANSWER_CACHE.maxAgeMs - 1;
    expect(await ask()).toBe(a);
    clock.now += 60 * 24 * 3600 * 1000;
    const b = await ask();
    expect(ids(b)).toEqual(ids(a));
    const recency = (body: string): number[] => (JSON.parse(body) as { data: { graph: { nodes: { decay: { recency: number } }[] } } }).data.graph.nodes.map((n) => n.decay.recency);
    expect(Math.min(...recency(b))).toBeLessThan(Math.min(...recency(a)));
  });
});
