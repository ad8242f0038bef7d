/**
 * The semantic map (issue 21, item 5) with the real semantic layer (shipped embedding model, workers, a
 * SQLite file): facts on one topic land near each other, scope and filters apply, facts without a vector
 * are counted, not placed; and a dashboard on the same database (no embedding model of its own, as the
 * read worker runs) serves the same map over GraphQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project2d } from '../src/core/projection.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { openMemory } from '../src/main.js';
import { MemoryService } from '../src/memory/service.js';
import { resolveConfig } from '../src/config/resolve.js';
import { tempHome, type TestHome } from './helpers.js';

const TOPICS: Record<string, string[]> = {
  kitchen: ['I bake sourdough bread every Sunday morning', 'My favourite pasta sauce uses fresh basil and garlic', 'The oven needs to preheat to 220 degrees for pizza', 'We cook a big curry for the family on Fridays', 'Chocolate cake is best with dark cocoa and butter'],
  network: ['The router forwards port 443 to the reverse proxy', 'DNS for the office resolves through Pi-hole on 10.0.0.2', 'The VPN tunnel to the datacenter uses WireGuard', 'The firewall blocks inbound SSH except from the bastion', 'Our switch has VLAN 20 for cameras and VLAN 30 for guests'],
  pets: ['Our dog Bruno needs a walk twice a day', 'The cat sleeps on the windowsill all afternoon', 'The vet appointment for the puppy is next Tuesday', 'Bruno loves chasing tennis balls in the park', 'We feed the cat wet food in the evening'],
};

let home: TestHome;
let svc: MemoryService;
const topicOf = new Map<string, string>();

beforeAll(async () => {
  home = tempHome();
  svc = await openMemory({ config: home.config, env: home.env, semantic: true });
  for (const [topic, texts] of Object.entries(TOPICS)) for (const text of texts) topicOf.set(svc.memoryStore({ text }).fact.id, topic);
  svc.memoryStore({ text: 'Agent two keeps its notes private', scope: 'agent' }, { role: 'specialist', agentId: 'a2', sessionId: null });
  await svc.semanticLayer?.idle();
}, 60_000);

afterAll(async () => {
  await svc?.close();
  home.cleanup();
});

/** The share of points whose nearest other point on the map is on the same topic. */
function neighbourAgreement(points: readonly { id: string; x: number; y: number }[]): number {
  let same = 0;
  for (const p of points) {
    let best: { id: string; d: number } | null = null;
    for (const q of points) {
      if (q.id === p.id) continue;
      const d = (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
      if (!best || d < best.d) best = { id: q.id, d };
    }
    if (best && topicOf.get(best.id) === topicOf.get(p.id)) same++;
  }
  return same / points.length;
}

describe('semantic map', () => {
  it('places every visible fact in [-1, 1]^2, related facts together', () => {
    const map = svc.semanticMap({});
    expect(map.model).toMatch(/^use-lite@/);
    expect(map.unplaced).toBe(0);
    expect(map.points).toHaveLength(15 + 1); // the operator sees the agent's private fact too
    for (const p of map.points) {
      expect(Math.abs(p.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(p.y)).toBeLessThanOrEqual(1);
    }
    const topical = map.points.filter((p) => topicOf.has(p.id));
    // Random placement would agree about a third of the time (3 topics).
    expect(neighbourAgreement(topical)).toBeGreaterThanOrEqual(0.7);
    // Deterministic: the same facts, the same map.
    expect(svc.semanticMap({}).points).toEqual(map.points);
  });

  it('respects scope and filters, and counts facts without a vector', async () => {
    const specialist = { role: 'specialist', agentId: 'a1', sessionId: null } as const;
    expect(svc.semanticMap({}, specialist).points).toHaveLength(15);
    expect(svc.semanticMap({ search: 'cat' }).points.map((p) => topicOf.get(p.id))).toEqual(['pets', 'pets']);
    const plain = MemoryService.open({ config: home.config, env: home.env });
    try {
      plain.memoryStore({ text: 'A fact stored where no embedding model runs' });
      const map = plain.semanticMap({});
      expect(map.unplaced).toBe(1);
      expect(map.points).toHaveLength(16);
    } finally {
      await plain.close();
    }
  });

  it('is served over GraphQL by a dashboard with no embedding model of its own', async () => {
    const config = resolveConfig({ embedding: { enabled: false } }, { env: home.env });
    const plain = MemoryService.open({ config, env: home.env });
    let d: Dashboard | null = null;
    try {
      d = await startDashboard({ svc: plain, config, port: 0, server: 'uws', record: false });
      const r = await fetch(`${d.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ semanticMap(filter: { limit: 100 }) { points { id x y } unplaced model truncated } }' }),
      });
      const body = (await r.json()) as { data?: { semanticMap: { points: { id: string; x: number; y: number }[]; unplaced: number; model: string } }; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data?.semanticMap.model).toMatch(/^use-lite@/);
      expect(body.data?.semanticMap.points.length).toBeGreaterThanOrEqual(16);
      expect(neighbourAgreement((body.data?.semanticMap.points ?? []).filter((p) => topicOf.has(p.id)))).toBeGreaterThanOrEqual(0.7);
    } finally {
      await d?.close();
      await plain.close();
    }
  });
});

describe('project2d', () => {
  it('puts two separated groups apart on the first axis, and copes with tiny inputs', () => {
    const dim = 8;
    const rows = new Float32Array(6 * dim);
    for (let r = 0; r < 6; r++) {
      rows[r * dim + (r < 3 ? 0 : 1)] = 1;
      rows[r * dim + 2 + r] = 0.1;
    }
    const xy = project2d(rows, 6, dim);
    const xs = [0, 1, 2, 3, 4, 5].map((r) => xy[r * 2] as number);
    expect(Math.sign(xs[0] as number)).toBe(Math.sign(xs[1] as number));
    expect(Math.sign(xs[0] as number)).not.toBe(Math.sign(xs[3] as number));
    expect(Array.from(project2d(rows, 1, dim))).toEqual([0, 0]);
    // Past the sample size the components come from a sample; every row is still placed by its group.
    const n = 4001;
    const many = new Float32Array(n * dim);
    for (let r = 0; r < n; r++) {
      many[r * dim + (r % 2)] = 1;
      many[r * dim + 2 + (r % 6)] = 0.05 * ((r % 7) - 3);
    }
    const placed = project2d(many, n, dim);
    for (let r = 0; r < n; r++) expect(Math.sign(placed[r * 2] as number)).toBe(Math.sign(placed[(r % 2) * 2] as number));
    expect(Array.from(project2d(new Float32Array(0), 0, dim))).toEqual([]);
  });
});
