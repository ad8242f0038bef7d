/**
 * The dashboard's GraphQL API over HTTP, on both adapters: the graph gaps (orphans, conflicts, weak links,
 * stale facts, suggested links) over a small seeded store, and as the clock moves on (weak links, stale
 * facts, decay). Real SQLite in a temp dir, a real server on port 0, fetch as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { DAY, seedStore, T0, type GEdge, type GFact, type SeededStore } from './support/dashboard-api.js';
import { dataOf, errorCode, startClockedDashboard, type ClockedDashboard } from './support/dashboard-clients.js';

describe.each(ADAPTERS)('dashboard API over %s', (adapter) => {
  describe('queries over a seeded store', () => {
    let d: ClockedDashboard;
    let f: SeededStore['f'];
    let conflictId: string;
    beforeAll(async () => {
      d = await startClockedDashboard(adapter, {}, T0);
      ({ f, conflictId } = await seedStore(d.svc));
    });
    afterAll(() => d.close());

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
          reason: expect.stringContaining('negation: the newer fact says "not"') as unknown as string,
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
});
