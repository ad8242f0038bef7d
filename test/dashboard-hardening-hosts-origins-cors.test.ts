/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * items 1-3 over both adapters: the Host allow-list, Origin, and no CORS; then the sweeps over every
 * response. Requests fetch cannot send (a chosen or missing Host, repeated headers, upgrades) go over raw
 * sockets (support/raw-http.ts).
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { codeOf, create, hardeningSuite, SUBSCRIBE, TOKEN, withCors, withToken, type GqlBody } from './support/dashboard-hardening.js';
import { WS_UPGRADE, type RawRequest, type RawResponse } from './support/raw-http.js';

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { raw, totalFacts, overWs, wsCode } = h;

  const expectHostRefused = (res: RawResponse): void => {
    expect(res.status, res.raw).toBe(403);
    expect(res.json<GqlBody>().errors?.[0]?.extensions?.code).toBe('MEM_ERR_HOST_REFUSED');
  };

  /**
   * A request the HTTP engine itself rejects (no Host in HTTP/1.1, or Host twice on uWebSockets.js) gets
   * the engine's 400 before our guard runs; either way it must not reach a route.
   */
  const expectHostRefusedOrMalformed = (res: RawResponse): void => {
    expect([400, 403], res.raw).toContain(res.status);
    if (res.status === 403) expect(res.json<GqlBody>().errors?.[0]?.extensions?.code).toBe('MEM_ERR_HOST_REFUSED');
    expect(res.body).not.toContain('"ok":true');
    expect(res.body).not.toContain('"data"');
  };

  describe('1. Host allow-list', () => {
    const allowed = (): string[] => [`127.0.0.1:${h.port}`, `localhost:${h.port}`, `[::1]:${h.port}`];
    const refused = (): string[] => [
      'evil.com',
      `evil.com:${h.port}`,
      '',
      `:${h.port}`,
      'localhost.evil.com',
      `localhost.evil.com:${h.port}`,
      '127.0.0.1.nip.io',
      `127.0.0.1.nip.io:${h.port}`,
      `127.0.0.1:${h.port === 65535 ? h.port - 1 : h.port + 1}`,
      '127.0.0.1',
      'localhost',
      '[::1]',
      `0.0.0.0:${h.port}`,
      `127.1:${h.port}`,
      `2130706433:${h.port}`,
      `127.0.0.1:0${h.port}`,
      `127.0.0.1:${h.port}@evil.com`,
      `evil.com@127.0.0.1:${h.port}`,
      `127.0.0.1:${h.port}.evil.com`,
      `127.0.0.1:${h.port} evil.com`,
    ];
    const sseHeaders: [string, string][] = [
      ['Accept', 'text/event-stream'],
      ['Content-Type', 'application/json'],
    ];

    it('answers the three loopback names on its own port over HTTP, SSE and WebSocket', async () => {
      for (const host of allowed()) {
        const health = await raw({ path: '/api/health', host });
        expect(health.status, host).toBe(200);
        expect(health.json<{ ok: boolean }>().ok).toBe(true);
        const q = await raw({ method: 'POST', path: '/graphql', host, headers: [['Content-Type', 'application/json']], body: JSON.stringify({ query: '{ __typename }' }) });
        expect(q.status, host).toBe(200);
        expect(q.json<GqlBody>().data).toEqual({ __typename: 'Query' });
        const sse = await raw({ method: 'POST', path: '/graphql', host, headers: sseHeaders, body: JSON.stringify({ query: SUBSCRIBE }) });
        expect(sse.status, host).toBe(200);
        expect(sse.header('content-type')).toMatch(/^text\/event-stream/);
        const ws = await raw({ path: '/graphql', host, headers: WS_UPGRADE, keepAlive: true });
        expect(ws.status, host).toBe(101);
      }
    });

    it('refuses every other Host with 403 MEM_ERR_HOST_REFUSED over HTTP, SSE and WebSocket', async () => {
      for (const host of refused()) {
        expectHostRefused(await raw({ path: '/api/health', host }));
        expectHostRefused(await raw({ path: '/graph/', host }));
        expectHostRefused(await raw({ method: 'POST', path: '/graphql', host, headers: [['Content-Type', 'application/json']], body: JSON.stringify({ query: '{ __typename }' }) }));
        expectHostRefused(await raw({ method: 'POST', path: '/graphql', host, headers: sseHeaders, body: JSON.stringify({ query: SUBSCRIBE }) }));
        const ws = await raw({ path: '/graphql', host, headers: WS_UPGRADE, keepAlive: true });
        expect(ws.status, `${host}: ${ws.raw}`).not.toBe(101);
        expectHostRefused(ws);
      }
    });

    it('refuses a missing Host and duplicate Host headers (even two good ones)', async () => {
      const good = `127.0.0.1:${h.port}`;
      const cases: RawRequest['host'][] = [null, [good, good], [good, 'evil.com'], ['evil.com', good], [good, `localhost:${h.port}`]];
      for (const host of cases) {
        expectHostRefusedOrMalformed(await raw({ path: '/api/health', host }));
        expectHostRefusedOrMalformed(await raw({ method: 'POST', path: '/graphql', host, headers: sseHeaders, body: JSON.stringify({ query: SUBSCRIBE }) }));
        const ws = await raw({ path: '/graphql', host, headers: WS_UPGRADE, keepAlive: true });
        expect(ws.status, ws.raw).not.toBe(101);
        expectHostRefusedOrMalformed(ws);
      }
      // HTTP/1.0 allows a request without Host; our guard (not the engine) must refuse it.
      const old = await raw({ path: '/api/health', host: null, version: 'HTTP/1.0' });
      expect(old.status, old.raw).not.toBe(200);
      if (old.status === 403) expect(codeOf(old.json<GqlBody>())).toBe('MEM_ERR_HOST_REFUSED');
      else expect(old.status, old.raw).toBe(505); // uWebSockets.js speaks HTTP/1.1 only
    });
  });

  describe('2. Origin', () => {
    const refusedOrigins = (): string[] => [
      'null',
      'http://localhost.evil.com',
      'http://evil.com',
      `http://evil.com:${h.port}`,
      `http://127.0.0.1:${h.port === 65535 ? h.port - 1 : h.port + 1}`,
      `https://127.0.0.1:${h.port}`,
      `http://127.0.0.1:${h.port}.evil.com`,
      'http://127.0.0.1',
      `http://127.0.0.1:${h.port}/`,
      `http://127.0.0.1:${h.port}@evil.com`,
      `ws://127.0.0.1:${h.port}`,
      '',
    ];

    it('allows the dashboard own origin on HTTP and on a WebSocket upgrade', async () => {
      for (const origin of [`http://127.0.0.1:${h.port}`, `http://localhost:${h.port}`, `http://[::1]:${h.port}`]) {
        const q = await raw({ method: 'POST', path: '/graphql', headers: [['Origin', origin], ['Content-Type', 'application/json']], body: JSON.stringify({ query: '{ __typename }' }) });
        expect(q.status, origin).toBe(200);
        const ws = await raw({ path: '/graphql', headers: [...WS_UPGRADE, ['Origin', origin]], keepAlive: true });
        expect(ws.status, origin).toBe(101);
      }
    });

    it('refuses any other Origin with 403 MEM_ERR_ORIGIN_REFUSED on HTTP, SSE and WebSocket', async () => {
      for (const origin of refusedOrigins()) {
        for (const r of [
          { path: '/api/health' },
          { path: '/api/graph-app/config' },
          { method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json']] as [string, string][], body: JSON.stringify({ query: '{ __typename }' }) },
          { method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Accept', 'text/event-stream']] as [string, string][], body: JSON.stringify({ query: SUBSCRIBE }) },
          { method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Authorization', `Bearer ${TOKEN}`]] as [string, string][], body: JSON.stringify({ query: create() }) },
        ]) {
          const res = await raw({ ...r, headers: [...(r.headers ?? []), ['Origin', origin]] });
          expect(res.status, `${origin} ${r.path}: ${res.raw}`).toBe(403);
          expect(codeOf(res.json<GqlBody>())).toBe('MEM_ERR_ORIGIN_REFUSED');
        }
        const ws = await raw({ path: '/graphql', headers: [...WS_UPGRADE, ['Origin', origin]], keepAlive: true });
        expect(ws.status, `${origin}: ${ws.raw}`).toBe(403);
        expect(codeOf(ws.json<GqlBody>())).toBe('MEM_ERR_ORIGIN_REFUSED');
      }
      expect(await totalFacts()).toBe(0); // the cross-site mutation (with the token!) wrote nothing
    });

    it('a missing Origin never skips the token check (HTTP and SSE)', async () => {
      const plain = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json']], body: JSON.stringify({ query: create() }) });
      expect(plain.status, plain.raw).toBe(401);
      expect(codeOf(plain.json<GqlBody>())).toBe('MEM_ERR_TOKEN_REQUIRED');
      const sse = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Accept', 'text/event-stream']], body: JSON.stringify({ query: create() }) });
      expect(sse.status, sse.raw).toBe(401);
      expect(wsCode(await overWs({}, create()))).toBe('MEM_ERR_TOKEN_REQUIRED');
      const sameOrigin = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Origin', h.own]], body: JSON.stringify({ query: create() }) });
      expect(sameOrigin.status, sameOrigin.raw).toBe(401);
      expect(await totalFacts()).toBe(0);
    });
  });

  describe('3. no CORS', () => {
    it('answers preflights without any Access-Control-Allow-* header', async () => {
      for (const path of ['/graphql', '/api/health', '/api/graph-app/config', '/graph/', '/nowhere']) {
        for (const origin of [h.own, 'http://evil.com', 'null']) {
          const res = await raw({
            method: 'OPTIONS',
            path,
            headers: [
              ['Origin', origin],
              ['Access-Control-Request-Method', 'POST'],
              ['Access-Control-Request-Headers', 'content-type, authorization'],
            ],
          });
          expect(res.status, `${path} ${origin}`).toBeGreaterThanOrEqual(400);
          expect(res.headers.filter(([k]) => k.startsWith('access-control-')), `${path} ${origin}`).toEqual([]);
        }
      }
    });
  });

  describe('sweeps over every response above', () => {
    it('none carried an Access-Control-Allow-* header', () => {
      expect(h.seen.length).toBeGreaterThan(200);
      const cors = withCors(h.seen);
      expect(cors.map((s) => s.what)).toEqual([]);
    });

    it('none carried the token, in a header or a body', () => {
      const leaks = withToken(h.seen);
      expect(leaks.map((s) => s.what)).toEqual([]);
    });
  });
});
