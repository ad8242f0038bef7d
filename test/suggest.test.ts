/**
 * Suggested links with the real semantic layer (shipped embedding model, vector worker, SQLite file):
 * paraphrases are suggested, linked pairs are not, scope is respected, and without embeddings a typed
 * error says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory } from '../src/main.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

let home: TestHome;
let svc: MemoryService;
const specialist = { role: 'specialist', agentId: 'a1', sessionId: null } as const;
const ids: Record<string, string> = {};

beforeAll(async () => {
  home = tempHome();
  svc = await openMemory({ config: home.config, env: home.env, semantic: true });
  const store = (key: string, text: string, scope?: 'agent', agentId?: string) => {
    ids[key] = svc.memoryStore({ text, ...(scope ? { scope } : {}) }, agentId ? { role: 'specialist', agentId, sessionId: null } : undefined).fact.id;
  };
  store('deploy1', 'The production deploy runs every Friday at 5 pm');
  store('deploy2', 'We deploy production on Fridays at 5 pm');
  store('db1', 'The staging database password rotates every 30 days');
  store('db2', 'Staging DB passwords are rotated monthly');
  store('pizza', 'I like pizza with mushrooms');
  store('secret1', 'Agent two keeps its build cache on the NVMe scratch disk', 'agent', 'a2');
  store('secret2', 'The build cache of agent two lives on the NVMe scratch drive', 'agent', 'a2');
  await svc.semanticLayer?.idle();
}, 60_000);

afterAll(async () => {
  await svc?.close();
  home.cleanup();
});

const key = (p: { sourceId: string; targetId: string }) => [p.sourceId, p.targetId].sort().join(' ');
const pair = (a: string, b: string) => [ids[a], ids[b]].sort().join(' ');

describe('suggestLinks', () => {
  it('suggests near-paraphrase facts, best first, and nothing unrelated', async () => {
    const s = await svc.suggestLinks();
    const keys = s.map(key);
    expect(keys).toContain(pair('deploy1', 'deploy2'));
    expect(keys).toContain(pair('secret1', 'secret2'));
    expect(s.every((p) => p.similarity >= 0.75 && p.similarity <= 1)).toBe(true);
    expect(s.map((p) => p.similarity)).toEqual([...s.map((p) => p.similarity)].sort((a, b) => b - a));
    expect(s.some((p) => p.sourceId === ids.pizza || p.targetId === ids.pizza)).toBe(false);
    const low = await svc.suggestLinks(undefined, { threshold: 0.5, limit: 1 });
    expect(low).toHaveLength(1);
  });

  it('leaves out a pair that is already linked (either direction)', async () => {
    svc.memoryLink({ sourceId: ids.deploy2 as string, targetId: ids.deploy1 as string });
    const keys = (await svc.suggestLinks(undefined, { threshold: 0.5 })).map(key);
    expect(keys).not.toContain(pair('deploy1', 'deploy2'));
  });

  it("never shows a specialist a fact outside its scope", async () => {
    const s = await svc.suggestLinks(specialist, { threshold: 0.3, limit: 1000 });
    const hidden = new Set([ids.secret1, ids.secret2]);
    expect(s.length).toBeGreaterThan(0);
    expect(s.some((p) => hidden.has(p.sourceId) || hidden.has(p.targetId))).toBe(false);
    const other = await svc.suggestLinks({ role: 'specialist', agentId: 'a2', sessionId: null });
    expect(other.map(key)).toContain(pair('secret1', 'secret2'));
  });

  it('validates its options', async () => {
    await expect(svc.suggestLinks(undefined, { threshold: 1.5 })).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
    await expect(svc.suggestLinks(undefined, { limit: 0 })).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
  });

  it('throws MEM_ERR_SEMANTIC_UNAVAILABLE without the semantic layer', async () => {
    const plain = MemoryService.open({ config: home.config, env: home.env });
    try {
      await expect(plain.suggestLinks()).rejects.toMatchObject({ code: 'MEM_ERR_SEMANTIC_UNAVAILABLE' });
    } finally {
      await plain.close();
    }
  });
});
