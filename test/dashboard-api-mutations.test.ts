/**
 * The dashboard's GraphQL API over HTTP, on both adapters: every mutation reaches the database (checked
 * through the service). Real SQLite in a temp dir, a real server on port 0, fetch as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fact } from '../src/core/types.js';
import { ADAPTERS } from './support/dashboard.js';
import { DAY, FACT_FIELDS, T0, type GEdge, type GFact } from './support/dashboard-api.js';
import { checksum, dataOf, errorCode, startClockedDashboard, type ClockedDashboard } from './support/dashboard-clients.js';

describe.each(ADAPTERS)('dashboard API over %s', (adapter) => {
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
});
