/**
 * Issue 20, item 5, the small ones, each as the attack that found it (both adapters where the server is
 * involved): a JSON body nested 100,000 deep (was 500, stack overflow), a repeated Origin or Content-Type
 * (uWS read the first), thousands of subscriptions on one WebSocket, a half-sent request left open, and
 * data files readable by other users.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_OPERATIONS_PER_CONNECTION } from '../src/http/ws.js';
import { MemoryService } from '../src/memory/service.js';
import { ADAPTERS } from './support/dashboard.js';
import { hardeningSuite, type GqlBody } from './support/dashboard-hardening.js';
import { tempHome } from './helpers.js';

const DEEP = 100_000;
const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

describe.each(ADAPTERS)('small hardening items over %s', (adapter) => {
  const h = hardeningSuite(adapter);

  it('a JSON body or GET variables nested too deep is a 400 with a code, not a 500', async () => {
    for (const body of [deepArray, `{"query":"query($v: String) { __typename }","variables":{"v":${deepArray}}}`, `[{"query":"{ __typename }"},${deepArray}]`]) {
      const r = await h.post(body.slice(0, 250_000));
      expect({ status: r.status, code: (r.body as GqlBody).errors?.[0]?.extensions?.code }).toEqual({ status: 400, code: 'MEM_ERR_BAD_REQUEST' });
    }
    const vars = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const get = await h.http(`/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(vars)}`, { headers: { 'x-hybrid-mem-request': '1' } });
    expect(get.status, get.text).toBe(400);
    // The server is fine afterwards.
    expect((await h.post({ query: '{ __typename }' })).status).toBe(200);
  });

  it('refuses a repeated Origin or Content-Type (a proxy and this server could read different ones)', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const cases: [string, [string, string][]][] = [
      ['origin', [['Origin', h.own], ['Origin', 'http://evil.example'], ['Content-Type', 'application/json']]],
      ['content-type', [['Content-Type', 'application/json'], ['Content-Type', 'text/plain']]],
    ];
    for (const [name, headers] of cases) {
      const r = await h.raw({ method: 'POST', path: '/graphql', headers, body });
      expect({ name, status: r.status, code: r.json().errors?.[0]?.extensions?.code }).toEqual({ name, status: 400, code: 'MEM_ERR_BAD_REQUEST' });
    }
    const upgrade = await h.raw({
      path: '/graphql',
      keepAlive: true,
      headers: [['Upgrade', 'websocket'], ['Connection', 'Upgrade'], ['Sec-WebSocket-Version', '13'], ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['Sec-WebSocket-Protocol', 'graphql-transport-ws'], ['Origin', h.own], ['Origin', 'http://evil.example']],
    });
    expect(upgrade.status).toBe(400);
  });

  it(`holds at most ${MAX_OPERATIONS_PER_CONNECTION} operations on one WebSocket connection`, async () => {
    const ws = new WebSocket(`${h.d.url.replace('http:', 'ws:')}/graphql`, 'graphql-transport-ws');
    const errors = new Map<string, string | undefined>();
    const nexts = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer')), 10_000);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { type: string; id?: string; payload?: { extensions?: { code?: string } }[] };
        if (m.type === 'connection_ack') {
          for (let i = 0; i <= MAX_OPERATIONS_PER_CONNECTION; i++) ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { memoryActivity { seq } }' } }));
          // Something to deliver: every live subscription gets it.
          setTimeout(() => h.d.svc.memoryStore({ text: `per-connection cap event ${Date.now()}` }), 300);
        }
        if (m.type === 'error' && m.id) errors.set(m.id, m.payload?.[0]?.extensions?.code);
        if (m.type === 'next' && m.id) nexts.add(m.id);
        if (errors.size === 1 && nexts.size === MAX_OPERATIONS_PER_CONNECTION) {
          clearTimeout(timer);
          resolve();
        }
      });
      ws.on('error', reject);
    });
    ws.close();
    expect([...errors]).toEqual([[`s${MAX_OPERATIONS_PER_CONNECTION}`, 'MEM_ERR_QUERY_TOO_COMPLEX']]);
  });
});

describe('a half-sent request is not kept open', () => {
  it('both adapters close a connection that sent part of a request and went quiet, within ~10 s', async () => {
    const { startTestDashboard } = await import('./support/dashboard.js');
    const started = await Promise.all(ADAPTERS.map((a) => startTestDashboard(a)));
    try {
      const closedAfter = await Promise.all(
        started.map(
          (d, i) =>
            new Promise<[string, number]>((resolve) => {
              const t0 = performance.now();
              const sock = connect(d.server.port, '127.0.0.1', () => sock.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${d.server.port}\r\nX-Partial: `));
              const timer = setTimeout(() => sock.destroy(), 20_000);
              sock.on('close', () => {
                clearTimeout(timer);
                resolve([ADAPTERS[i] as string, performance.now() - t0]);
              });
              sock.on('error', () => undefined);
            }),
        ),
      );
      for (const [adapter, ms] of closedAfter) expect({ adapter, closedWithin15s: ms < 15_000 }).toEqual({ adapter, closedWithin15s: true });
    } finally {
      await Promise.all(started.map((d) => d.close()));
    }
  }, 30_000);
});

describe('data files are private', () => {
  const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);

  it('a new data dir is 0700 and the database, WAL and shm files 0600; a store opened on 0644 files tightens them', async () => {
    const home = tempHome({ embedding: { enabled: false } });
    try {
      const fresh = join(home.config.dataDir, 'fresh');
      const config = { ...home.config, dataDir: fresh, dbPath: join(fresh, 'memory.db') };
      const svc = MemoryService.open({ config, env: home.env });
      svc.memoryStore({ text: 'private by default' });
      expect(mode(fresh)).toBe('700');
      const files = readdirSync(fresh).filter((f) => f.startsWith('memory.db'));
      expect(files.sort()).toEqual(['memory.db', 'memory.db-shm', 'memory.db-wal']);
      for (const f of files) expect([f, mode(join(fresh, f))]).toEqual([f, '600']);
      await svc.close();

      const old = join(home.config.dataDir, 'old');
      mkdirSync(old, { mode: 0o755 });
      writeFileSync(join(old, 'memory.db'), '');
      chmodSync(join(old, 'memory.db'), 0o644);
      const again = MemoryService.open({ config: { ...home.config, dataDir: old, dbPath: join(old, 'memory.db') }, env: home.env });
      again.memoryStore({ text: 'tightened on open' });
      expect(mode(join(old, 'memory.db'))).toBe('600');
      expect(mode(join(old, 'memory.db-wal'))).toBe('600');
      await again.close();
    } finally {
      home.cleanup();
    }
  });
});
