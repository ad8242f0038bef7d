/**
 * Hybrid recall end to end with the real semantic layer: the shipped embedding model in its worker pools,
 * the usearch index in its worker, a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { openMemory } from '../src/main.js';
import type { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

let home: TestHome;
let svc: MemoryService;
const texts = [
  'SSH password of prod database server: stored encrypted',
  'I like pizza with mushrooms on friday',
  'The staging cluster runs Kubernetes 1.29',
  'Standup happens every morning at 9:30',
];
const ids: string[] = [];

beforeAll(async () => {
  home = tempHome();
  svc = await openMemory({ config: home.config, env: home.env, semantic: true });
  for (const text of texts) ids.push(svc.memoryStore({ text }).fact.id);
  await svc.semanticLayer?.idle();
}, 60_000);

afterAll(async () => {
  await svc?.close();
  home.cleanup();
});

describe('hybrid recall', () => {
  it('embeds facts after they are written and finds a paraphrase that shares no word', async () => {
    expect(svc.semanticLayer?.pending()).toBe(0);
    const r = await svc.memoryRecall({ query: 'how can I sign into our DB machine' });
    expect(r).toMatchObject({ mode: 'hybrid', degraded: false });
    expect(r.results[0]?.fact.text).toBe(texts[0]);
    expect(r.results[0]?.why.vectorRank).toBe(1);
    expect(r.results[0]?.why.similarity).toBeGreaterThan(0.15);
    const pizza = r.results.find((x) => x.fact.text === texts[1]);
    if (pizza) expect(pizza.score).toBeLessThan(r.results[0]?.score ?? 0);
  });

  it('fuses both legs and stores why in recall_events', async () => {
    const r = await svc.memoryRecall({ query: 'kubernetes cluster' });
    const top = r.results[0];
    expect(top?.fact.text).toBe(texts[2]);
    expect(top?.why.ftsRank).toBe(1);
    expect(top?.why.vectorRank).toBeGreaterThanOrEqual(1);
    const stored = svc.recallHistory().find((e) => e.id === r.recallId);
    expect(stored?.scores[0]).toMatchObject({ factId: top?.fact.id, ftsRank: 1, vectorRank: top?.why.vectorRank });
    expect(stored?.scores[0]?.similarity).toBeGreaterThan(0);
  });

  it('drops a deleted fact from the vector leg', async () => {
    const f = svc.memoryStore({ text: 'The VPN gateway certificate expires in March' }).fact;
    await svc.semanticLayer?.idle();
    const before = await svc.memoryRecall({ query: 'VPN certificate expiry' });
    expect(before.results.find((x) => x.fact.id === f.id)?.why.vectorRank).toBeGreaterThanOrEqual(1);
    svc.deleteFact(f.id);
    const after = await svc.memoryRecall({ query: 'VPN certificate expiry' });
    expect(after.results.map((x) => x.fact.id)).not.toContain(f.id);
  });

  it('precomputes the auth-failure search embedding for hosts named in credential facts', async () => {
    const { searchQuery } = await import('../src/core/auth/hint.js');
    const query = searchQuery({ target: 'db7.prod.example', kind: 'host', aliases: [] });
    expect(svc.semanticLayer?.hasCachedQuery(query)).toBe(false);
    svc.memoryStore({ text: 'db7.prod.example: login with the ops account, key in the vault', category: 'technical', tags: ['ssh'] });
    const until = Date.now() + 20_000;
    while (!svc.semanticLayer?.hasCachedQuery(query) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(svc.semanticLayer?.hasCachedQuery(query)).toBe(true);
  });

  it('credential recall never waits on the model: an uncached query answers from full text and is embedded for next time', async () => {
    svc.memoryStore({ text: 'bastion.corp.test admin login: see the ops vault', category: 'technical', tags: ['ssh'] });
    const q = { target: 'bastion.corp.test', aliases: ['10.9.8.7'], query: 'bastion.corp.test 10.9.8.7 credential password token key auth' };
    const caller = { role: 'specialist' as const, agentId: 'a', sessionId: 's' };
    const first = await svc.credentialRecall(q, caller, { includeVault: true, vectorDeadlineMs: 1000 });
    expect(first.degraded).toBe(true);
    expect(first.hits[0]?.fact.text).toContain('bastion.corp.test');
    expect(first.hits[0]?.why.vectorRank).toBeNull();
    // What is embedded is the spec's query for the target (src/memory/credentials.ts), not the full-text one.
    const { searchQuery } = await import('../src/core/auth/hint.js');
    const vectorQuery = searchQuery({ target: q.target, kind: 'host', aliases: [] });
    const until = Date.now() + 20_000;
    while (!svc.semanticLayer?.hasCachedQuery(vectorQuery) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(svc.semanticLayer?.hasCachedQuery(vectorQuery)).toBe(true);
    const second = await svc.credentialRecall(q, caller, { includeVault: true, vectorDeadlineMs: 1000 });
    expect(second.degraded).toBe(false);
    expect(second.hits[0]?.fact.text).toContain('bastion.corp.test');
  });

  it('ranks a lookup as full text does: what only the vector leg found comes after every word match', async () => {
    const r = await svc.memoryRecall({ query: 'Kubernetes' });
    expect(r.results[0]).toMatchObject({ fact: { text: texts[2] }, why: { ftsRank: 1 } });
    const rest = r.results.slice(1);
    expect(rest.length).toBeGreaterThan(0);
    for (const x of rest) expect(x).toMatchObject({ score: 0, why: { ftsRank: null, fused: 0 } });
    expect(rest.map((x) => x.why.vectorRank)).toEqual(rest.map((x) => x.why.vectorRank).sort((a, b) => (a ?? 0) - (b ?? 0)));
    // Full text fills a one-result answer: the vector leg is not asked.
    const one = await svc.memoryRecall({ query: 'Kubernetes', limit: 1 });
    expect(one.results).toHaveLength(1);
    expect(one.results[0]?.why).toMatchObject({ ftsRank: 1, vectorRank: null });
    // A question with the same word is fused as usual.
    const q = await svc.memoryRecall({ query: 'which version of Kubernetes does the staging cluster run?', limit: 1 });
    expect(q.results[0]?.why.ftsRank).toBe(1);
    expect(q.results[0]?.why.vectorRank).toBeGreaterThanOrEqual(1);
  });

  it('answers from full text, marked degraded, when the vector leg misses its deadline', async () => {
    const fast = await openMemory({ config: resolveConfig({ search: { vectorDeadlineMs: 1 } }, { env: home.env }), env: home.env, semantic: true });
    try {
      const r = await fast.memoryRecall({ query: 'a never seen query about kubernetes clusters and pods' });
      expect(r.mode).toBe('hybrid');
      expect(r.degraded).toBe(true);
      expect(r.reason).toMatch(/deadline/);
      expect(r.results[0]?.fact.text).toBe(texts[2]);
      expect(r.results[0]?.why.vectorRank).toBeNull();
    } finally {
      await fast.close();
    }
  });
});
