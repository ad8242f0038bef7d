/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * item by item, over both adapters: Host allow-list, Origin, no CORS, CSRF content types, query limits,
 * the token, static-file traversal, and fuzzing. Requests fetch cannot send (a chosen Host, repeated
 * headers, undecoded paths, upgrades) go over raw sockets (support/raw-http.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { getIntrospectionQuery, Lexer, Source, TokenKind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADAPTERS, startTestDashboard, type TestDashboard } from './support/dashboard.js';
import { rawRequest, WS_UPGRADE, type RawRequest, type RawResponse } from './support/raw-http.js';

const TOKEN = 'hm-dash-Tok3n-7Qx9ZpL2vKw4';
const SECRET = 'SECRET-CANARY-outside-the-app-4f1d';
const DOTENV = 'DOTENV-CANARY-inside-the-app-92ab';
const INDEX = '<!doctype html><title>APP-INDEX-e3b0</title><script src="assets/app-abc12345.js"></script>';
const ASSET = 'console.log("APP-ASSET-77c1");';
let created = 0;
/** A createFact mutation with a fresh text each time (the store folds identical texts into one fact). */
const create = (): string => `mutation { createFact(input: { text: "hardening canary fact ${++created}" }) { id } }`;
const SUBSCRIBE = 'subscription { memoryActivity { seq } }';

interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** A temp folder holding the app (index, hashed asset, dotfile, symlinks out) and a secret beside it. */
function appFixture(): { base: string; appDir: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'hybrid-mem-static-'));
  const appDir = join(base, 'app');
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  writeFileSync(join(appDir, 'index.html'), INDEX);
  writeFileSync(join(appDir, 'assets', 'app-abc12345.js'), ASSET);
  writeFileSync(join(appDir, '.env'), DOTENV);
  writeFileSync(join(base, 'secret.txt'), SECRET);
  // A sibling whose name starts with the app folder's: a prefix check without a separator would let it through.
  mkdirSync(join(base, 'app-evil'));
  writeFileSync(join(base, 'app-evil', 'secret.txt'), SECRET);
  symlinkSync(join(base, 'secret.txt'), join(appDir, 'link-out.txt'));
  symlinkSync(join(base, 'secret.txt'), join(appDir, 'link-out'));
  symlinkSync(base, join(appDir, 'link-dir'));
  return { base, appDir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Tokens as graphql-js counts them against maxTokens (punctuators and names; commas and comments are not tokens). */
function countTokens(query: string): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

const codeOf = (body: GqlBody): string | undefined => body.errors?.[0]?.extensions?.code;

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  let d: TestDashboard;
  let fixture: ReturnType<typeof appFixture>;
  let port: number;
  let own: string;
  /** Every response this suite received, for the no-CORS and no-token-leak sweeps at the end. */
  const seen: { what: string; headers: readonly (readonly [string, string])[]; text: string }[] = [];

  const raw = async (r: RawRequest): Promise<RawResponse> => {
    const res = await rawRequest(port, r);
    seen.push({ what: `${r.method ?? 'GET'} ${r.path}`, headers: res.headers, text: res.raw });
    return res;
  };

  const http = async (path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> => {
    const res = await fetch(`${d.url}${path}`, init);
    const text = await res.text();
    seen.push({ what: `${init.method ?? 'GET'} ${path}`, headers: [...res.headers.entries()], text: `${[...res.headers.entries()].join('\n')}\n${text}` });
    return { status: res.status, headers: res.headers, text };
  };

  const post = async (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: GqlBody; text: string }> => {
    const r = await http('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: r.status, body: JSON.parse(r.text) as GqlBody, text: r.text };
  };

  const totalFacts = async (): Promise<number> => {
    const r = await post({ query: '{ stats { totalFacts } }' });
    return (r.body.data?.stats as { totalFacts: number }).totalFacts;
  };

  const auth = { authorization: `Bearer ${TOKEN}` };

  /**
   * One graphql-ws exchange (no Origin header, as a non-browser client sends it): connection_init with
   * `init`, one subscribe, every message until that operation errors or completes.
   */
  const overWs = (init: Record<string, unknown>, query: string): Promise<{ type: string; payload?: unknown }[]> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${d.url.replace('http:', 'ws:')}/graphql`, 'graphql-transport-ws');
      const messages: { type: string; payload?: unknown }[] = [];
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`no answer over WebSocket: ${JSON.stringify(messages)}`));
      }, 5000);
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        seen.push({ what: `WS ${query}`, headers: [], text: JSON.stringify(messages) });
        ws.close();
        resolve(messages);
      };
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: init })));
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { type: string; payload?: unknown };
        messages.push(m);
        if (m.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        if (m.type === 'error' || m.type === 'complete') done();
      });
      ws.on('close', done);
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  const wsCode = (messages: { type: string; payload?: unknown }[]): string | undefined =>
    (messages.find((m) => m.type === 'error')?.payload as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code;

  beforeAll(async () => {
    fixture = appFixture();
    d = await startTestDashboard(adapter, { dashboard: { token: TOKEN } }, { appDir: fixture.appDir });
    port = d.server.port;
    own = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await d?.close();
    fixture?.cleanup();
  });

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
    const allowed = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
    const refused = (): string[] => [
      'evil.com',
      `evil.com:${port}`,
      '',
      `:${port}`,
      'localhost.evil.com',
      `localhost.evil.com:${port}`,
      '127.0.0.1.nip.io',
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`,
      '127.0.0.1',
      'localhost',
      '[::1]',
      `0.0.0.0:${port}`,
      `127.1:${port}`,
      `2130706433:${port}`,
      `127.0.0.1:0${port}`,
      `127.0.0.1:${port}@evil.com`,
      `evil.com@127.0.0.1:${port}`,
      `127.0.0.1:${port}.evil.com`,
      `127.0.0.1:${port} evil.com`,
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
      const good = `127.0.0.1:${port}`;
      const cases: RawRequest['host'][] = [null, [good, good], [good, 'evil.com'], ['evil.com', good], [good, `localhost:${port}`]];
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
      `http://evil.com:${port}`,
      `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}`,
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}.evil.com`,
      'http://127.0.0.1',
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}@evil.com`,
      `ws://127.0.0.1:${port}`,
      '',
    ];

    it('allows the dashboard own origin on HTTP and on a WebSocket upgrade', async () => {
      for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
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
      const sameOrigin = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Origin', own]], body: JSON.stringify({ query: create() }) });
      expect(sameOrigin.status, sameOrigin.raw).toBe(401);
      expect(await totalFacts()).toBe(0);
    });
  });

  describe('3. no CORS', () => {
    it('answers preflights without any Access-Control-Allow-* header', async () => {
      for (const path of ['/graphql', '/api/health', '/api/graph-app/config', '/graph/', '/nowhere']) {
        for (const origin of [own, 'http://evil.com', 'null']) {
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

  describe('4. CSRF', () => {
    it('refuses POST /graphql bodies a page could send without a preflight (415), writing nothing', async () => {
      const before = await totalFacts();
      const json = JSON.stringify({ query: create() });
      const types: (string | null)[] = [
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=----x',
        'text/plain; application/json',
        'application/json-x',
        'application/jsonp',
        'text/json',
        // JSON-ish types graphql-http does not parse: refused here with a code, not by the library without one.
        'application/graphql-response+json',
        'application/json; charset=utf-16',
        'application/json; boundary=x',
        'application/json;',
        null,
      ];
      for (const type of types) {
        const headers: [string, string][] = [['Authorization', `Bearer ${TOKEN}`]];
        if (type !== null) headers.push(['Content-Type', type]);
        const res = await raw({ method: 'POST', path: '/graphql', headers, body: type?.startsWith('application/x-www') ? `query=${encodeURIComponent(create())}` : json });
        expect(res.status, `${type}: ${res.raw}`).toBe(415);
        expect(codeOf(res.json<GqlBody>())).toBe('MEM_ERR_CONTENT_TYPE');
      }
      // A browser form post, as fetch sends it (no body type: fetch sends none for bytes).
      const bytes = await http('/graphql', { method: 'POST', headers: auth, body: new TextEncoder().encode(json) });
      expect(bytes.status).toBe(415);
      expect(await totalFacts()).toBe(before);
      // The control: the same mutation as JSON with the token is written, with or without a utf-8 charset.
      const ok = await post({ query: create() }, auth);
      expect(ok.status, ok.text).toBe(200);
      const utf8 = await post({ query: create() }, { ...auth, 'content-type': 'application/json; charset=UTF-8' });
      expect(utf8.status, utf8.text).toBe(200);
      expect(await totalFacts()).toBe(before + 2);
    });

    it('refuses a mutation over GET with 405 (plain and SSE), writing nothing', async () => {
      const before = await totalFacts();
      const q = `/graphql?query=${encodeURIComponent(create())}`;
      const plain = await http(q, { headers: { ...auth, accept: 'application/graphql-response+json' } });
      expect(plain.status, plain.text).toBe(405);
      expect(codeOf(JSON.parse(plain.text) as GqlBody)).toBe('MEM_ERR_METHOD_NOT_ALLOWED');
      const json = await http(q, { headers: { ...auth, accept: 'application/json' } });
      expect(json.status, json.text).toBe(405);
      const sse = await http(q, { headers: { ...auth, accept: 'text/event-stream' } });
      expect(sse.status, sse.text).toBe(405);
      expect(await totalFacts()).toBe(before);
      // The control: a query over GET works.
      const get = await http(`/graphql?query=${encodeURIComponent('{ stats { totalFacts } }')}`, { headers: { accept: 'application/json' } });
      expect(get.status).toBe(200);
    });
  });

  describe('5. query limits', () => {
    const nest = (levels: number): string => {
      // facts (1) > versions x (levels - 2) > id (1): `levels` field levels in all.
      let inner = 'id';
      for (let i = 0; i < levels - 2; i++) inner = `versions { ${inner} }`;
      return `{ facts(filter: { limit: 1 }) { ${inner} } }`;
    };

    it('refuses depth above 8, also through fragments, and not below', async () => {
      const ok = await post({ query: nest(8) });
      expect(ok.body.errors, ok.text).toBeUndefined();
      expect(Array.isArray(ok.body.data?.facts)).toBe(true);
      const deep = await post({ query: nest(9) });
      expect(codeOf(deep.body), deep.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(deep.body.data ?? null).toBeNull();
      const viaFragments = await post({
        query: `{ facts(filter: { limit: 1 }) { ...A } }
          fragment A on Fact { versions { ...B } }
          fragment B on Fact { versions { versions { ...C } } }
          fragment C on Fact { versions { versions { ... on Fact { versions { versions { id } } } } } }`,
      });
      expect(codeOf(viaFragments.body), viaFragments.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    });

    it('refuses more than 15 aliases', async () => {
      const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
      const ok = await post({ query: aliases(15) });
      expect(ok.body.errors, ok.text).toBeUndefined();
      expect(Object.keys(ok.body.data ?? {})).toHaveLength(15);
      const many = await post({ query: aliases(16) });
      expect(codeOf(many.body), many.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    });

    it('refuses more than 2000 tokens', async () => {
      // A long default value (the variable sent overrides it, so the resolver sees one category).
      const doc = (values: number): string => `query Q($v: [Category!] = [${'fact, '.repeat(values)}]) { facts(filter: { categories: $v, limit: 1 }) { id } }`;
      const tokens = (n: number): string => {
        const q = doc(n - (countTokens(doc(0))));
        expect(countTokens(q)).toBe(n);
        return q;
      };
      const ok = await post({ query: tokens(2000), variables: { v: ['fact'] } });
      expect(ok.body.errors, ok.text.slice(0, 300)).toBeUndefined();
      const many = await post({ query: tokens(2001), variables: { v: ['fact'] } });
      expect(codeOf(many.body), many.text.slice(0, 300)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(many.body.errors?.[0]?.message).toMatch(/2000 tokens/);
    });

    it('calls a document too costly to validate too complex, not invalid', async () => {
      // ~2000 repeated fields within the token limit: graphql-js gives up on the overlapping-fields check.
      const r = await post({ query: `{ ${'__typename '.repeat(1998)}}` });
      expect(codeOf(r.body), r.text.slice(0, 300)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(r.body.data ?? null).toBeNull();
    });

    it('refuses a body over 256 KiB with 413, declared or streamed, and accepts one just under', async () => {
      const padded = (bytes: number): string => {
        const shell = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
        return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes - shell.length) } });
      };
      const under = await post(padded(256 * 1024));
      expect(under.status, under.text.slice(0, 300)).toBe(200);
      const over = await post(padded(256 * 1024 + 1));
      expect(over.status).toBe(413);
      expect(codeOf(over.body)).toBe('MEM_ERR_BODY_TOO_LARGE');
      const sse = await post(padded(300 * 1024), { accept: 'text/event-stream' });
      expect(sse.status).toBe(413);
      // Streamed in chunks without a Content-Length: the cap must hold while reading, not only on the header.
      const body = padded(400 * 1024);
      const chunks = body.match(/[\s\S]{1,16384}/g) ?? [];
      const chunked = Buffer.from(`${chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('')}0\r\n\r\n`);
      const streamed = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], body: chunked });
      expect(streamed.status, streamed.raw.slice(0, 300)).toBe(413);
      expect(codeOf(streamed.json<GqlBody>())).toBe('MEM_ERR_BODY_TOO_LARGE');
    });

    it('runs a batch of up to 10 operations as an array and refuses 11', async () => {
      const ten = Array.from({ length: 10 }, (_, i) => ({ query: `query Q${i} { __typename }`, operationName: `Q${i}` }));
      const ok = await post(ten);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual(Array.from({ length: 10 }, () => ({ data: { __typename: 'Query' } })));
      const eleven = await post([...ten, { query: '{ __typename }' }]);
      expect(eleven.status).toBe(400);
      expect(codeOf(eleven.body)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(Array.isArray(eleven.body)).toBe(false);
    });

    it('refuses a batch it cannot answer in any accepted type (406), not with a crash', async () => {
      const r = await http('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html' }, body: JSON.stringify([{ query: '{ __typename }' }, {}]) });
      expect(r.status, r.text).toBe(406);
      const missing = await post([{ query: '{ __typename }' }, {}, { query: 5 }]);
      expect(missing.status, missing.text).toBe(200);
      const items = missing.body as unknown as GqlBody[];
      expect(items[0]).toEqual({ data: { __typename: 'Query' } });
      expect(items[1]?.errors?.[0]?.message).toMatch(/missing query/i);
      expect(items[2]?.errors?.[0]?.message).toMatch(/invalid query/i);
    });

    it('applies the token and limits to each operation of a batch', async () => {
      const before = await totalFacts();
      const r = await post([{ query: create() }, { query: `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: __typename`).join(' ')} }` }, { query: '{ __typename }' }]);
      const items = r.body as unknown as GqlBody[];
      expect(items).toHaveLength(3);
      expect(codeOf(items[0] ?? {})).toBe('MEM_ERR_TOKEN_REQUIRED');
      expect(codeOf(items[1] ?? {})).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(items[2]).toEqual({ data: { __typename: 'Query' } });
      expect(await totalFacts()).toBe(before);
    });

    it('still answers the standard introspection query, and a deep __schema selection', async () => {
      for (const query of [getIntrospectionQuery(), getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })]) {
        const r = await post({ query, operationName: 'IntrospectionQuery' });
        expect(r.body.errors, r.text.slice(0, 300)).toBeUndefined();
        const schema = r.body.data?.__schema as { queryType: { name: string }; mutationType: { name: string }; types: unknown[] };
        expect(schema.queryType.name).toBe('Query');
        expect(schema.mutationType.name).toBe('Mutation');
        expect(schema.types.length).toBeGreaterThan(20);
      }
      const deep = await post({ query: '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }' });
      expect(deep.body.errors, deep.text.slice(0, 300)).toBeUndefined();
    });
  });

  describe('6. token', () => {
    it('refuses a wrong token of any length alike with 401, and accepts the right one', async () => {
      const before = await totalFacts();
      const flipLast = `${TOKEN.slice(0, -1)}${TOKEN.endsWith('x') ? 'y' : 'x'}`;
      const flipFirst = `${TOKEN.startsWith('x') ? 'y' : 'x'}${TOKEN.slice(1)}`;
      const wrong = [TOKEN.slice(0, -1), TOKEN.slice(0, 1), `${TOKEN}x`, `${TOKEN}${TOKEN}`, 'x'.repeat(1000), flipLast, flipFirst, TOKEN.toUpperCase(), ` ${TOKEN}x`, `${TOKEN}\u00e9x`];
      const bodies = new Set<string>();
      for (const t of wrong) {
        const r = await post({ query: create() }, { authorization: `Bearer ${t}` });
        expect(r.status, t).toBe(401);
        expect(codeOf(r.body)).toBe('MEM_ERR_TOKEN_INVALID');
        bodies.add(r.text);
      }
      expect([...bodies], 'every wrong token gets the same answer').toHaveLength(1);
      for (const header of ['Bearer ', 'Bearer', '', TOKEN, `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`, `Token ${TOKEN}`]) {
        const r = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Authorization', header]], body: JSON.stringify({ query: create() }) });
        expect(r.status, `"${header}": ${r.raw}`).toBe(401);
        expect(['MEM_ERR_TOKEN_REQUIRED', 'MEM_ERR_TOKEN_INVALID']).toContain(codeOf(r.json<GqlBody>()));
      }
      // Over WebSocket too: the token rides in connection_init, compared the same way.
      for (const t of [TOKEN.slice(0, -1), `${TOKEN}x`, flipLast, '']) {
        const messages = await overWs({ token: t }, create());
        expect(wsCode(messages), `"${t}": ${JSON.stringify(messages)}`).toBe(t === '' ? 'MEM_ERR_TOKEN_REQUIRED' : 'MEM_ERR_TOKEN_INVALID');
      }
      // Not from the URL either.
      const inUrl = await http(`/graphql?token=${TOKEN}&access_token=${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: create() }) });
      expect(inUrl.status).toBe(401);
      expect(await totalFacts()).toBe(before);
      const right = await post({ query: create() }, auth);
      expect(right.status, right.text).toBe(200);
      const overWsRight = await overWs({ token: TOKEN }, create());
      expect(overWsRight.find((m) => m.type === 'next'), JSON.stringify(overWsRight)).toMatchObject({ payload: { data: { createFact: { id: expect.any(String) } } } });
      expect(await totalFacts()).toBe(before + 2);
    });

    /**
     * Known engine limit: uWebSockets.js hands header values to JS decoded as UTF-8 and silently drops
     * invalid bytes at the end, so `<token>\xE9` arrives as `<token>` and is accepted. Not a bypass (the
     * sender knows the token), but the value compared is not the value sent; no JS API exposes the raw
     * bytes. Marked as failing on uws so it turns red (and gets unmarked) once the engine is fixed.
     */
    (adapter === 'uws' ? it.fails : it)('refuses the token followed by bytes that are not UTF-8', async () => {
      for (const tail of [[0xe9], [0xff, 0xfe], [0xc3]]) {
        const body = JSON.stringify({ query: create() });
        const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nAuthorization: Bearer ${TOKEN}`;
        const r = await rawRequest(port, Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(tail), Buffer.from(`\r\n\r\n${body}`)]));
        expect(r.status, r.raw).not.toBe(200);
        expect(r.body).not.toContain('createFact');
      }
    });

    it('says a token is required in /api/graph-app/config without revealing it', async () => {
      const r = await http('/api/graph-app/config');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ tokenRequired: true, graphqlPath: '/graphql' });
      const page = await http('/graph/');
      expect(page.status).toBe(200);
      expect(page.text).toBe(INDEX);
    });
  });

  describe('7. static files', () => {
    const ok = (res: RawResponse, what: string): void => {
      expect(res.status, `${what}: ${res.raw.slice(0, 300)}`).toBe(200);
    };

    it('serves the app: index, hashed assets, app routes; 404 for a missing asset', async () => {
      for (const path of ['/graph', '/graph/', '/graph/index.html', '/graph/some/route', '/graph/facts/42?x=1']) {
        const r = await raw({ path });
        ok(r, path);
        expect(r.body).toBe(INDEX);
        expect(r.header('content-type')).toMatch(/^text\/html/);
      }
      const asset = await raw({ path: '/graph/assets/app-abc12345.js' });
      ok(asset, 'asset');
      expect(asset.body).toBe(ASSET);
      expect(asset.header('content-type')).toMatch(/^text\/javascript/);
      expect(asset.header('cache-control')).toContain('immutable');
      for (const path of ['/graph/assets/app-missing1.js', '/graph/missing.css', '/graph/favicon.ico']) {
        const r = await raw({ path });
        expect(r.status, path).toBe(404);
        expect(codeOf(r.json<GqlBody>())).toBe('MEM_ERR_NOT_FOUND');
      }
    });

    it('never returns a file outside the app folder, a dotfile, or a symlink target outside', async () => {
      const b = fixture.base;
      const paths = [
        '/graph/../secret.txt',
        '/graph/../../secret.txt',
        '/graph/assets/../../secret.txt',
        '/graph/./../secret.txt',
        '/graph/%2e%2e/secret.txt',
        '/graph/%2e%2e%2fsecret.txt',
        '/graph/.%2e/secret.txt',
        '/graph/%2E%2E%2Fsecret.txt',
        '/graph/assets/..%2f..%2fsecret.txt',
        '/graph/%252e%252e%252fsecret.txt',
        '/graph/%252e%252e/secret.txt',
        '/graph/..%5csecret.txt',
        '/graph/..%5c..%5csecret.txt',
        '/graph/..\\secret.txt',
        '/graph/\\..\\secret.txt',
        '/graph/assets\\..\\..\\secret.txt',
        '/graph/..%00/secret.txt',
        '/graph/../secret.txt%00.html',
        '/graph/../secret.txt%00',
        '/graph/%00../secret.txt',
        '/graph/#/../../secret.txt',
        '/graph/..#/secret.txt',
        '/graph/..%23/../secret.txt',
        '/graph/%c0%ae%c0%ae/secret.txt',
        '/graph/%c0%ae%c0%ae%c0%afsecret.txt',
        '/graph/%e0%80%ae%e0%80%ae/secret.txt',
        '/graph/%c0%2e%c0%2e/secret.txt',
        '/graph/..;/secret.txt',
        `/graph/${b}/secret.txt`,
        `/graph//${b}/secret.txt`,
        `/graph/${encodeURIComponent(join(b, 'secret.txt'))}`,
        '/graph//etc/passwd',
        '/graph/../../../../../../../../../../etc/passwd',
        '/graph/%2fetc%2fpasswd',
        '/graph/file:///etc/passwd',
        '/graph/C:/Windows/win.ini',
        '/graph/c:%5cwindows%5cwin.ini',
        '/graph/../app-evil/secret.txt',
        '/graph/link-out.txt',
        '/graph/link-out',
        '/graph/link-dir/secret.txt',
        '/graph/link-dir/app-evil/secret.txt',
        '/graph/link-dir/app/.env',
        '/graph/.env',
        '/graph/%2eenv',
        '/graph/assets/../.env',
        '/graph/./.env',
        '/graph/.env/',
        '/graph/.%65nv',
        '/graph/index.html/../.env',
        '/../secret.txt',
        '/graph/../../etc/passwd',
        `http://127.0.0.1:${port}/graph/../secret.txt`,
        `//graph/../secret.txt`,
      ];
      for (const path of paths) {
        const r = await raw({ path });
        expect(r.raw, path).not.toContain(SECRET);
        expect(r.raw, path).not.toContain(DOTENV);
        expect(r.raw, path).not.toMatch(/root:.*:0:0:/);
        expect(r.raw, path).not.toMatch(/\[fonts\]|for 16-bit app support/i);
        // Whatever answers 200 is the app's own index page, never another file.
        if (r.status === 200) expect(r.body, path).toBe(INDEX);
        else {
          // 404 from our check; 400 or 505 from the engine for request lines it will not parse.
          expect(r.status, `${path}: ${r.raw.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(r.status, path).not.toBe(500);
        }
      }
    });

    it('shows a "not built" placeholder when the app folder is empty or absent', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'hybrid-mem-noapp-'));
      try {
        for (const appDir of [empty, join(empty, 'absent')]) {
          const nb = await startTestDashboard(adapter, {}, { appDir });
          try {
            for (const path of ['/graph', '/graph/', '/graph/some/route']) {
              const r = await rawRequest(nb.server.port, { path });
              expect(r.status, path).toBe(200);
              expect(r.header('content-type')).toMatch(/^text\/html/);
              expect(r.body).toMatch(/not built/i);
            }
            const traversal = await rawRequest(nb.server.port, { path: '/graph/../../../../etc/passwd' });
            expect(traversal.raw).not.toMatch(/root:.*:0:0:/);
            const config = await rawRequest(nb.server.port, { path: '/api/graph-app/config' });
            expect(config.status).toBe(200);
            expect(config.json<{ tokenRequired: boolean }>().tokenRequired).toBe(false);
          } finally {
            await nb.close();
          }
        }
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  });

  describe('8. fuzz', () => {
    const FUZZ_RUNS = 200;
    const pathChar = fc.constantFrom(...'abcz09-._~/%\\#?;:@!$&\'()*+,=[]{}|^`"<> '.split(''), '%2e', '%2f', '%5c', '%00', '%c0%ae', '..', '/graph', '/graphql', '/api', 'é', '\u0000', '\t');
    const path = fc.oneof(
      fc.array(pathChar, { maxLength: 40 }).map((p) => `/${p.join('')}`),
      fc.array(pathChar, { maxLength: 30 }).map((p) => `/graph/${p.join('')}`),
      fc.string({ maxLength: 60 }).map((s) => `/${s}`),
    );
    // No CR/LF: those end the header (the engine answers 400 to that too, but a smuggled Content-Length
    // would make the server wait for a body that never comes, which is correct, not a hang).
    const headerValue = fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a.filter((b) => b !== 10 && b !== 13)).toString('latin1'));
    const headerName = fc.oneof(
      fc.constantFrom('Host', 'Origin', 'Authorization', 'Accept', 'Content-Type', 'Last-Event-ID', 'Cookie', 'X-Hybrid-Mem-Role', 'X-Hybrid-Mem-Agent', 'X-Hybrid-Mem-Session', 'Sec-WebSocket-Key'),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/).filter((n) => !/^(content-length|transfer-encoding|connection|upgrade|expect|te|trailer)$/i.test(n)),
    );

    const docToken = fc.constantFrom(
      '{', '}', '(', ')', '[', ']', ':', '...', '!', '=', '$v', '@include(if: true)', '@skip(if: $v)', '@deprecated',
      'query', 'mutation', 'subscription', 'fragment F', 'on', 'Fact', 'Query', 'Mutation',
      'graph', 'stats', 'fact', 'facts', 'versions', 'links', 'id', 'text', 'totalFacts', 'search', 'neighbors', 'recallHistory', 'conflicts', 'episodes', 'suggestedLinks',
      'memoryActivity', 'createFact', 'deleteFact', 'input:', 'filter:', 'limit:', 'query:', 'id:', 'after:',
      '__schema', '__type(name: "Fact")', '__typename', 'types', 'name', 'fields', 'a:', 'b:',
      '"str"', '""', '"\\u0000"', '"""block"""', '1', '-1', '1e308', '-1.5e3', '99999999999999999999', 'true', 'null', 'hybrid', 'fact',
      '{ text: "x" }', '{ limit: -5 }', '{ minStrength: 2 }', '#comment\n', ',', '\u00e9', '\u0000',
    );
    const doc = fc.oneof(
      fc.array(docToken, { maxLength: 50 }).map((t) => t.join(' ')),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{ stats { totalFacts } }', '{ graph { nodes { id } edges { id } truncated } }', '{ search(query: "x") { mode } }'),
    );
    const operation = fc.record(
      {
        query: fc.oneof(doc, fc.jsonValue()),
        variables: fc.oneof(fc.constant(null), fc.dictionary(fc.constantFrom('v', 'id', 'x', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 3 })), fc.jsonValue({ maxDepth: 2 })),
        operationName: fc.oneof(fc.constant(null), fc.constantFrom('F', 'Q', ''), fc.string({ maxLength: 10 })),
        extensions: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      operation.map((o) => JSON.stringify(o)),
      fc.array(operation, { maxLength: 12 }).map((o) => JSON.stringify(o)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );

    const accept = fc.constantFrom('application/graphql-response+json, application/json', 'application/json', '*/*', 'text/event-stream', 'text/html', 'application/xml', 'application/graphql-response+json; charset=latin1');

    const stillUp = async (): Promise<void> => {
      const health = await fetch(`${d.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
      const q = await post({ query: '{ stats { totalFacts } }' });
      expect(q.status).toBe(200);
    };

    it('answers random paths and header values with a status and stays up', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'get', 'BREW'),
          path,
          fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
          async (method, p, headers) => {
            const res = await rawRequest(port, { method, path: p, headers, body: method === 'POST' || method === 'PUT' ? '{}' : undefined });
            expect(res.status).toBeGreaterThanOrEqual(100);
            expect(res.status).toBeLessThan(600);
            expect(res.raw).not.toContain(SECRET);
            expect(res.raw).not.toContain(DOTENV);
            // Nothing we parse may blow up into an internal error (500 is the engine's last resort).
            expect(res.status).not.toBe(500);
          },
        ),
        { numRuns: FUZZ_RUNS },
      );
      await stillUp();
    });

    it('answers random GraphQL documents and bodies with a status, never an internal error, and stays up', async () => {
      const before = await totalFacts();
      await fc.assert(
        fc.asyncProperty(body, accept, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/graphql-response+json', 'application/json; charset=latin1'), async (b, acc, type) => {
          const res = await fetch(`${d.url}/graphql`, { method: 'POST', headers: { 'content-type': type, accept: acc }, body: b, signal: AbortSignal.timeout(5000) });
          const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? await firstEvent(res) : await res.text();
          expect(res.status, `${b} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text, b).not.toContain('MEM_ERR_INTERNAL');
          expect(text, b).not.toContain(TOKEN);
        }),
        { numRuns: FUZZ_RUNS },
      );
      await fc.assert(
        fc.asyncProperty(doc, fc.string({ maxLength: 60 }), accept, async (q, vars, acc) => {
          const res = await fetch(`${d.url}/graphql?query=${encodeURIComponent(q)}&variables=${encodeURIComponent(vars)}`, { headers: { accept: acc }, signal: AbortSignal.timeout(5000) });
          const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? await firstEvent(res) : await res.text();
          expect(res.status, `${q} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text, q).not.toContain('MEM_ERR_INTERNAL');
        }),
        { numRuns: FUZZ_RUNS },
      );
      expect(await totalFacts(), 'no token, no writes').toBe(before);
      await stillUp();
    });
  });

  describe('sweeps over every response above', () => {
    it('none carried an Access-Control-Allow-* header', () => {
      expect(seen.length).toBeGreaterThan(200);
      const cors = seen.filter((s) => s.headers.some(([k]) => k.toLowerCase().startsWith('access-control-allow')));
      expect(cors.map((s) => s.what)).toEqual([]);
    });

    it('none carried the token, in a header or a body', () => {
      const leaks = seen.filter((s) => s.text.includes(TOKEN) || s.headers.some(([, v]) => v.includes(TOKEN)));
      expect(leaks.map((s) => s.what)).toEqual([]);
    });
  });
});

/** Reads an SSE response until it completes or briefly goes quiet (a live subscription never ends), then stops. */
async function firstEvent(res: Response, quietMs = 300): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  let text = '';
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), quietMs)));
      const next = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (next === null || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (text.includes('event: complete')) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}
