/**
 * Issue 20, item 1, over both adapters: reads had no cost bound and a web page could trigger them.
 * - Every operation is priced before it runs (src/http/graphql/cost.ts): 15 aliases of a 20,000-node graph,
 *   or a batch of ten, are refused with MEM_ERR_QUERY_TOO_COMPLEX before any resolver runs; WebSocket and
 *   SSE keep to the small inline budget.
 * - Cross-site reads: Sec-Fetch-Site cross-site or same-site is refused on /graphql and /api/*; a GET with
 *   no Origin, no same-origin Sec-Fetch-Site and no custom header (an <img> or <script> source) is refused.
 * - A heavy read that is allowed runs on the read worker: /api/health answers while it runs, and the
 *   answer is the same as the server's own.
 * (How long /api/health waits under these attacks is measured by bench/heavy-reads.bench.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { MemoryService } from '../src/memory/service.js';
import { ADAPTERS } from './support/dashboard.js';
import { codeOf, hardeningSuite, type GqlBody } from './support/dashboard-hardening.js';
import { tempHome, type TestHome } from './helpers.js';

const graph = (limit: number, alias = 'g'): string => `${alias}: graph(filter: { limit: ${limit} }) { nodes { id label strength } edges { id source target } }`;
const ALIASED = `{ ${Array.from({ length: 15 }, (_, i) => graph(20_000, `g${i}`)).join(' ')} }`;
const GET = { accept: 'application/json', 'x-hybrid-mem-request': '1' };

describe.each(ADAPTERS)('read cost and cross-site reads over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { http, post, auth } = h;

  it('refuses 15 aliases of a 20,000-node graph, over GET and POST, before anything runs', async () => {
    const get = await http(`/graphql?query=${encodeURIComponent(ALIASED)}`, { headers: GET });
    expect(get.status, get.text).toBe(400);
    const body = JSON.parse(get.text) as GqlBody;
    expect(codeOf(body)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    expect(body.errors?.[0]?.message).toMatch(/may cost \d+, above the budget of 100000/);
    expect(body.data ?? null).toBeNull();
    const posted = await post({ query: ALIASED });
    expect(codeOf(posted.body), posted.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
  });

  it('prices a batch as a whole: ten full graphs are refused, two small ones answer', async () => {
    const ten = await post(Array.from({ length: 10 }, () => ({ query: `{ ${graph(20_000)} }` })));
    expect(ten.status, ten.text).toBe(400);
    expect(codeOf(ten.body)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    expect(ten.text).toMatch(/this batch may cost \d+, above the budget/);
    const two = await post([{ query: '{ stats { totalFacts } }' }, { query: `{ ${graph(10)} }` }]);
    expect(two.status, two.text).toBe(200);
    expect(JSON.parse(two.text)).toHaveLength(2);
  });

  it('keeps WebSocket and SSE reads small: a full graph there is refused, naming HTTP', async () => {
    const ws = await h.overWs({}, `{ ${graph(20_000)} }`);
    expect(h.wsCode(ws)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    const sse = await post({ query: `{ ${graph(20_000)} }` }, { accept: 'text/event-stream' });
    expect(sse.text).toContain('MEM_ERR_QUERY_TOO_COMPLEX');
    expect(sse.text).toContain('send heavier reads as HTTP requests');
  });

  it('a search field cannot pull a heavy read onto the server thread: what runs there keeps to the small budget', async () => {
    const r = await post({ query: `{ ${graph(20_000)} search(query: "x") { mode } }` });
    expect(codeOf(r.body), r.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    expect(r.body.errors?.[0]?.message).toMatch(/above the budget of 2000 for an operation that runs on the server's thread/);
    const small = await post({ query: `{ ${graph(100)} search(query: "x") { mode } }` });
    expect(small.body.errors, small.text).toBeUndefined();
  });

  it('refuses reads a page on another site (or another port) could make', async () => {
    const q = `/graphql?query=${encodeURIComponent('{ stats { totalFacts } }')}`;
    for (const site of ['cross-site', 'same-site']) {
      const r = await http(q, { headers: { ...GET, 'sec-fetch-site': site } });
      expect({ site, status: r.status, code: codeOf(JSON.parse(r.text) as GqlBody) }).toEqual({ site, status: 403, code: 'MEM_ERR_ORIGIN_REFUSED' });
      const health = await http('/api/health', { headers: { 'sec-fetch-site': site } });
      expect(health.status).toBe(403);
    }
    // An <img src> or <script src>: no Origin, no Sec-Fetch-Site from an old browser, no custom header.
    const bare = await http(q, { headers: { accept: 'application/json' } });
    expect(bare.status, bare.text).toBe(403);
    expect(bare.text).toContain('X-Hybrid-Mem-Request');
    // What may: the app's own fetches, a client that adds the header, a request typed into the address bar.
    const allowed: Record<string, string>[] = [{ accept: 'application/json', 'sec-fetch-site': 'same-origin' }, GET, { accept: 'application/json', ...auth }, { accept: 'application/json', origin: h.own }];
    for (const headers of allowed) {
      const r = await http(q, { headers });
      expect({ headers, status: r.status }).toEqual({ headers, status: 200 });
    }
    expect((await http('/graph/', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })).status).toBe(200);
  });
});

describe('a heavy read runs on the read worker', { timeout: 120_000 }, () => {
  let home: TestHome;
  let svc: MemoryService;
  let withWorker: Dashboard;
  let inline: Dashboard;
  const query = `{ ${graph(20_000)} stats { totalFacts searchMode } }`;
  const read = async (d: Dashboard): Promise<{ body: string; at: number }> => {
    const res = await fetch(`${d.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = await res.text();
    return { body, at: performance.now() };
  };

  beforeAll(async () => {
    home = tempHome({ embedding: { enabled: false } });
    svc = MemoryService.open({ config: home.config, env: home.env });
    svc.memoryStoreMany(Array.from({ length: 8000 }, (_, i) => ({ text: `Heavy read fact ${i} about host h${i % 37}` })));
    // No answer cache here: every read must run (the cache has its own tests in test/dashboard-answer-cache.test.ts).
    withWorker = await startDashboard({ svc, config: home.config, port: 0, record: false, answerCache: false });
    inline = await startDashboard({ svc, config: home.config, port: 0, record: false, readWorker: false, answerCache: false });
  });

  afterAll(async () => {
    await withWorker?.close();
    await inline?.close();
    await svc?.close();
    home?.cleanup();
  });

  it('answers /api/health while the read runs, and the same answer as the server thread', async () => {
    await read(withWorker); // the worker's first query opens its connection
    const heavy = read(withWorker);
    await new Promise((r) => setTimeout(r, 20));
    const health = await fetch(`${withWorker.url}/api/health`).then(() => performance.now());
    const offloaded = await heavy;
    // The health check came back while the heavy read was still running on the worker.
    expect(health).toBeLessThan(offloaded.at);
    const own = await read(inline);
    const data = (b: string) => (JSON.parse(b) as { data: { g: { nodes: { id: string }[] }; stats: unknown } }).data;
    expect(data(offloaded.body).g.nodes).toHaveLength(8000);
    expect(data(offloaded.body).stats).toEqual({ totalFacts: 8000, searchMode: 'fulltext' });
    expect(data(offloaded.body).g.nodes.map((n) => n.id)).toEqual(data(own.body).g.nodes.map((n) => n.id));
  });
});
