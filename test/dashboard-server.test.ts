/** The dashboard server as a process sees it: ports (fallback, exclusive, restart), adapters, config edges. */
import { get } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';
import { ADAPTERS } from './support/dashboard.js';

/** A port nobody listens on right now (bound and released by a node server). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** GET /api/health on a new connection (fetch would reuse a pooled socket of the previous server on this port). */
function health(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/api/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

function service(): { home: TestHome; svc: MemoryService } {
  const home = tempHome({ embedding: { enabled: false } });
  const svc = MemoryService.open({ config: home.config, env: home.env });
  opened.push(async () => {
    await svc.close();
    home.cleanup();
  });
  return { home, svc };
}

async function start(svc: MemoryService, home: TestHome, adapter: 'uws' | 'node', port: number): Promise<Dashboard> {
  const d = await startDashboard({ svc, config: home.config, port, server: adapter, record: false });
  opened.push(() => d.close());
  return d;
}

describe.each(ADAPTERS)('dashboard server over %s', (adapter) => {
  it('binds 127.0.0.1 on the configured port, and a second server on a taken port falls back to an ephemeral one', async () => {
    const { home, svc } = service();
    const port = await freePort();
    const a = await start(svc, home, adapter, port);
    expect(a).toMatchObject({ port, url: `http://127.0.0.1:${port}`, adapter });
    // The second server must not share the port (uSockets would with SO_REUSEPORT): requests would be split between two servers.
    const b = await start(svc, home, adapter, port);
    expect(b.port).not.toBe(port);
    for (let i = 0; i < 20; i++) expect((await fetch(`${a.url}/api/health`)).status).toBe(200);
    await b.close();
    expect((await fetch(`${a.url}/api/health`)).status).toBe(200);
  });

  it('restarts on the same port right after closing with open connections and an open SSE stream', async () => {
    const { home, svc } = service();
    const port = await freePort();
    const first = await start(svc, home, adapter, port);
    await (await fetch(`${first.url}/api/health`)).text();
    const sse = await fetch(`${first.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { memoryActivity { seq } }' }),
    });
    const reading = sse.body?.getReader().read().catch(() => null);
    await first.close();
    await reading;
    const second = await start(svc, home, adapter, port);
    expect(second.port).toBe(port);
    expect(await health(second.url)).toBe(200);
  });

  it('serves SSE to a client whose Accept lists more than text/event-stream', async () => {
    const { home, svc } = service();
    const d = await start(svc, home, adapter, 0);
    const ctrl = new AbortController();
    const r = await fetch(`${d.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json;q=0.5' },
      body: JSON.stringify({ query: 'subscription { memoryActivity(kinds: [FACT_STORED]) { seq kind } }' }),
      signal: ctrl.signal,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    const reader = r.body?.getReader();
    setTimeout(() => svc.memoryStore({ text: 'the backup job runs at 02:00' }), 50);
    let text = '';
    const dec = new TextDecoder();
    while (reader && !text.includes('FACT_STORED')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value);
    }
    expect(text).toMatch(/id: \d+\nevent: next\ndata: \{"data":\{"memoryActivity":\{"seq":\d+,"kind":"FACT_STORED"\}\}\}/);
    ctrl.abort();
  });

  it('ends a subscriber that falls too far behind with a coded error, and keeps serving', async () => {
    const { home, svc } = service();
    const d = await start(svc, home, adapter, 0);
    const r = await fetch(`${d.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { memoryActivity(kinds: [FACT_STORED]) { seq } }' }),
    });
    const reader = r.body?.getReader();
    const dec = new TextDecoder();
    let text = '';
    // Subscribed once the first event arrives.
    const first = setInterval(() => svc.memoryStore({ text: `probe ${Date.now()}` }), 50);
    while (reader && !text.includes('"seq"')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += dec.decode(chunk.value);
    }
    clearInterval(first);
    // One transaction of 10,100 facts delivers 10,100 events at once: past the per-subscriber buffer.
    svc.memoryStoreMany(Array.from({ length: 10_100 }, (_, i) => ({ text: `bulk fact number ${i}` })));
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      text += dec.decode(chunk.value);
    }
    expect(text).toContain('"code":"MEM_ERR_SUBSCRIBER_BEHIND"');
    expect(text.trimEnd().endsWith('event: complete\ndata:')).toBe(true);
    expect(await health(d.url)).toBe(200);
  });

  it('answers an Accept it cannot serve with a JSON error and a code', async () => {
    const { home, svc } = service();
    const d = await start(svc, home, adapter, 0);
    const r = await fetch(`${d.url}/graphql?query=${encodeURIComponent('{ stats { totalFacts } }')}`, { headers: { accept: 'text/html', 'x-hybrid-mem-request': '1' } });
    expect(r.status).toBe(406);
    expect(await r.json()).toMatchObject({ errors: [{ extensions: { code: 'MEM_ERR_BAD_REQUEST' } }] });
  });
});

describe('stats', () => {
  it('stay exact while answered from memory: writes here and by another connection to the same database show at once', async () => {
    const { home, svc } = service();
    const d = await start(svc, home, 'node', 0);
    const total = async (headers: Record<string, string> = {}): Promise<number> => {
      const r = await fetch(`${d.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"query":"{ stats { totalFacts } }"}' });
      return ((await r.json()) as { data: { stats: { totalFacts: number } } }).data.stats.totalFacts;
    };
    expect(await total()).toBe(0);
    svc.memoryStore({ text: 'first fact' });
    expect(await total()).toBe(1);
    const other = MemoryService.open({ config: home.config, env: home.env });
    other.memoryStore({ text: 'written by another connection' });
    const spec = other.memoryStore({ text: 'an agent-scoped fact', scope: 'agent', scopeAgentId: 'a1' });
    expect(await total()).toBe(3);
    // Per caller: a specialist of another agent does not count a1's fact.
    expect(await total({ 'x-hybrid-mem-role': 'specialist', 'x-hybrid-mem-agent-id': 'a2' })).toBe(2);
    other.deleteFact(spec.fact.id);
    await other.close();
    expect(await total()).toBe(2);
  });
});

describe('dashboard config', () => {
  it('refuses tokens that cannot travel in a header or are too long, naming the key', () => {
    for (const token of ['has space in it', 'tøken-with-non-ascii', 'x'.repeat(513)]) {
      expect(() => resolveConfig({ dashboard: { token } })).toThrow(/dashboard\.token/);
    }
    expect(resolveConfig({ dashboard: { token: 'A-valid_token.123' } }).dashboard.token).toBe('A-valid_token.123');
  });
});
