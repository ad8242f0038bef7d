/**
 * The dashboard's GraphQL API over HTTP, on both adapters: bad input to every query and mutation gets a
 * typed error and changes nothing. Real SQLite in a temp dir, a real server on port 0, fetch as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { DAY, T0 } from './support/dashboard-api.js';
import { checksum, errorCode, startClockedDashboard, type ClockedDashboard } from './support/dashboard-clients.js';

describe.each(ADAPTERS)('dashboard API over %s', (adapter) => {
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
