/**
 * The dashboard token, on both adapters: every mutation in the schema (enumerated by introspection, so a
 * new one cannot slip through untested) is refused without the token (401 MEM_ERR_TOKEN_REQUIRED) and with
 * a wrong one (401 MEM_ERR_TOKEN_INVALID), changing nothing; with the right one it runs. The same over SSE,
 * inside a batch, and over WebSocket (token in connection params or the upgrade's Authorization header).
 * Reads need no token.
 */
import WebSocket from 'ws';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/memory/service.js';
import { ADAPTERS, startTestDashboard, type TestDashboard } from './support/dashboard.js';
import { activityQuery, checksum, dataOf, errorCode, postGql, waitFor, wsExecute, wsFeed, type GqlResponse } from './support/dashboard-clients.js';

const TOKEN = 'k9Qw-7fT2-xLr0-PzV4-aa11bb22cc33';
const WRONG: readonly [string, string][] = [
  ['short', 'k9'],
  ['long', `${TOKEN}${'x'.repeat(200)}`],
  ['same length', `${TOKEN.slice(0, -1)}4`],
  ['empty after Bearer', ' '],
];

interface Call {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

let n = 0;
const fact = (svc: MemoryService, extra: Record<string, unknown> = {}): string => svc.memoryStore({ text: `token test fact number ${++n}`, ...extra }).fact.id;

/** Minimal valid calls, with real targets, for every mutation in the schema. */
const MUTATIONS: Readonly<Record<string, (svc: MemoryService) => Call>> = {
  createFact: () => ({ query: 'mutation($i: CreateFactInput!) { createFact(input: $i) { id } }', variables: { i: { text: `created over graphql ${++n}` } } }),
  editFact: (svc) => ({ query: 'mutation($id: ID!) { editFact(id: $id, input: { text: "an edited text" }) { id } }', variables: { id: fact(svc) } }),
  deleteFact: (svc) => ({ query: 'mutation($id: ID!) { deleteFact(id: $id) { id } }', variables: { id: fact(svc) } }),
  pinFact: (svc) => ({ query: 'mutation($id: ID!) { pinFact(id: $id) { id } }', variables: { id: fact(svc) } }),
  unpinFact: (svc) => ({ query: 'mutation($id: ID!) { unpinFact(id: $id) { id } }', variables: { id: fact(svc, { pinned: true }) } }),
  createLink: (svc) => ({ query: 'mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', variables: { s: fact(svc), t: fact(svc) } }),
  changeLinkType: (svc) => ({
    query: 'mutation($id: ID!) { changeLinkType(id: $id, linkType: CAUSED_BY) { id } }',
    variables: { id: svc.memoryLink({ sourceId: fact(svc), targetId: fact(svc) }).link.id },
  }),
  deleteLink: (svc) => ({ query: 'mutation($id: ID!) { deleteLink(id: $id) { id } }', variables: { id: svc.memoryLink({ sourceId: fact(svc), targetId: fact(svc) }).link.id } }),
  resolveConflict: (svc) => {
    const entity = `svc-${++n}`;
    svc.memoryStore({ text: `the ${entity} port is 5432`, entity });
    const c = svc.memoryStore({ text: `the ${entity} port is not 5432`, entity }).conflicts[0];
    return { query: 'mutation($id: ID!) { resolveConflict(id: $id, resolution: both_fine) { id } }', variables: { id: c?.id } };
  },
  acceptSuggestedLink: (svc) => ({ query: 'mutation($s: ID!, $t: ID!) { acceptSuggestedLink(source: $s, target: $t) { id } }', variables: { s: fact(svc), t: fact(svc) } }),
};

const INTROSPECT = '{ __schema { mutationType { fields { name } } } }';

describe.each(ADAPTERS)('dashboard token over %s', (adapter) => {
  let d: TestDashboard;
  let mutationNames: string[] = [];
  beforeAll(async () => {
    d = await startTestDashboard(adapter, { dashboard: { token: TOKEN } });
    const r = dataOf(await d.gql<{ __schema: { mutationType: { fields: { name: string }[] } } }>(INTROSPECT));
    mutationNames = r.__schema.mutationType.fields.map((f) => f.name).sort();
  });
  afterAll(() => d.close());

  const auth = (t: string): Record<string, string> => ({ authorization: `Bearer ${t}` });

  it('every mutation in the schema has a test call here', () => {
    expect(mutationNames.length).toBeGreaterThanOrEqual(10);
    expect(mutationNames).toEqual(Object.keys(MUTATIONS).sort());
  });

  it('the app config says a token is required; reads need none', async () => {
    const cfg = (await (await fetch(`${d.url}/api/graph-app/config`)).json()) as { tokenRequired: boolean };
    expect(cfg.tokenRequired).toBe(true);
    d.svc.memoryStore({ text: 'a fact anyone may read' });
    const r = await d.gql<{ stats: { totalFacts: number }; graph: { nodes: unknown[] } }>('{ stats { totalFacts } graph { nodes { id } } }');
    expect(r.status).toBe(200);
    expect(dataOf(r).stats.totalFacts).toBeGreaterThan(0);
    // A wrong token on a read is not an error either: the token gates mutations only.
    expect(dataOf(await d.gql<{ stats: { totalFacts: number } }>('{ stats { totalFacts } }', undefined, auth('nope'))).stats.totalFacts).toBeGreaterThan(0);
  });

  it('each mutation: 401 without a token or with a wrong one, nothing changed; runs with the right one', async () => {
    for (const name of mutationNames) {
      const make = MUTATIONS[name];
      expect(make, `no test call for mutation ${name}`).toBeDefined();
      if (!make) continue;
      const call = make(d.svc);
      const before = checksum(d.svc);

      const none = await d.gql(call.query, call.variables);
      expect([name, none.status, errorCode(none)]).toEqual([name, 401, 'MEM_ERR_TOKEN_REQUIRED']);
      expect(none.body.data ?? null).toBeNull();
      const basic = await d.gql(call.query, call.variables, { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` });
      expect([name, basic.status]).toEqual([name, 401]);
      for (const [label, token] of WRONG) {
        const r = await d.gql(call.query, call.variables, auth(token));
        const want = token.trim() === '' ? 'MEM_ERR_TOKEN_REQUIRED' : 'MEM_ERR_TOKEN_INVALID';
        expect([name, label, r.status, errorCode(r)]).toEqual([name, label, 401, want]);
      }
      expect(checksum(d.svc), `${name} changed the store without the token`).toBe(before);

      const ok = await d.gql(call.query, call.variables, auth(TOKEN));
      expect([name, ok.status, ok.body.errors]).toEqual([name, 200, undefined]);
      expect(checksum(d.svc), `${name} with the token changed nothing`).not.toBe(before);
    }
  });

  it('the scheme name is case-insensitive; the token itself is not', async () => {
    const call = MUTATIONS.createFact?.(d.svc) as Call;
    expect((await d.gql(call.query, call.variables, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    const upper = await d.gql(call.query, { i: { text: 'upper-case token' } }, auth(TOKEN.toUpperCase()));
    expect([upper.status, errorCode(upper)]).toEqual([401, 'MEM_ERR_TOKEN_INVALID']);
  });

  it('over SSE and inside a batch a mutation without the token is refused too', async () => {
    const call = MUTATIONS.pinFact?.(d.svc) as Call;
    const before = checksum(d.svc);
    const sse = await fetch(`${d.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(call) });
    expect(sse.status).toBe(401);
    expect(errorCode({ status: sse.status, body: (await sse.json()) as GqlResponse<unknown>['body'] })).toBe('MEM_ERR_TOKEN_REQUIRED');
    const batch = await fetch(`${d.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ stats { totalFacts } }' }, call]),
    });
    const items = (await batch.json()) as GqlResponse<unknown>['body'][];
    expect(items).toHaveLength(2);
    expect(items[0]?.data).toBeDefined();
    expect(errorCode({ status: 200, body: items[1] ?? {} })).toBe('MEM_ERR_TOKEN_REQUIRED');
    expect(checksum(d.svc)).toBe(before);
    // With the token, the batched mutation runs.
    const authed = await postGql(d.url, call.query, call.variables, auth(TOKEN));
    expect(authed.body.errors).toBeUndefined();
  });

  it('over WebSocket: the token goes in connection params (or the upgrade header); subscriptions need none', async () => {
    const call = MUTATIONS.createLink?.(d.svc) as Call;
    const before = checksum(d.svc);
    const none = await wsExecute(d.url, call.query, call.variables);
    expect(none.errors?.map((e) => e.extensions?.code)).toEqual(['MEM_ERR_TOKEN_REQUIRED']);
    for (const [label, token] of WRONG.filter(([, t]) => t.trim() !== '')) {
      const r = await wsExecute(d.url, call.query, call.variables, { token });
      expect([label, r.errors?.map((e) => e.extensions?.code)]).toEqual([label, ['MEM_ERR_TOKEN_INVALID']]);
    }
    expect(checksum(d.svc)).toBe(before);
    const ok = await wsExecute<{ createLink: { id: string } }>(d.url, call.query, call.variables, { token: TOKEN });
    expect(ok.errors).toBeUndefined();
    expect(d.svc.listLinks().map((l) => l.id)).toContain(ok.data?.createLink.id);

    // A client that cannot use connection params sends Authorization on the upgrade request.
    class BearerSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { authorization: `Bearer ${TOKEN}` } });
      }
    }
    const client = createWsClient({ url: `${d.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: BearerSocket, retryAttempts: 0 });
    const pinned = await new Promise<{ data?: { pinFact: { pinned: boolean } } | null; errors?: unknown }>((resolve) => {
      const p = MUTATIONS.pinFact?.(d.svc) as Call;
      let last = {};
      client.subscribe({ query: p.query.replace('{ id }', '{ pinned }'), variables: p.variables }, { next: (v) => (last = v), error: (e) => resolve({ errors: e }), complete: () => resolve(last) });
    });
    await client.dispose();
    expect(pinned).toEqual({ data: { pinFact: { pinned: true } } });

    // Reads and subscriptions over WebSocket need no token.
    const feed = wsFeed(d.url, activityQuery());
    try {
      await waitFor(() => feed.connected, 'ws connected');
      const stats = await wsExecute<{ stats: { totalFacts: number } }>(d.url, '{ stats { totalFacts } }');
      expect(stats.data?.stats.totalFacts).toBeGreaterThan(0);
      for (let i = 0; i < 50 && feed.events.length === 0; i++) {
        d.svc.memoryStore({ text: `ws reader probe ${i}` });
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(feed.events.length).toBeGreaterThan(0);
      expect(feed.errors).toEqual([]);
    } finally {
      await feed.stop();
    }
  });
});
