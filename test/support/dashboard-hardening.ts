/**
 * Shared setup for the dashboard hardening tests (test/dashboard-hardening-*.test.ts): a dashboard with a
 * token over an app folder with canaries beside it, and clients that record every response for the
 * no-CORS and no-token-leak sweeps.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import WebSocket from 'ws';
import type { AdapterName } from '../../src/http/adapters/types.js';
import { startTestDashboard, type TestDashboard } from './dashboard.js';
import type { GqlResponse } from './dashboard-clients.js';
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js';

export const TOKEN = 'hm-dash-Tok3n-7Qx9ZpL2vKw4';
export const SECRET = 'SECRET-CANARY-outside-the-app-4f1d';
export const DOTENV = 'DOTENV-CANARY-inside-the-app-92ab';
export const INDEX = '<!doctype html><title>APP-INDEX-e3b0</title><script src="assets/app-abc12345.js"></script>';
export const ASSET = 'console.log("APP-ASSET-77c1");';
let created = 0;
/** A createFact mutation with a fresh text each time (the store folds identical texts into one fact). */
export const create = (): string => `mutation { createFact(input: { text: "hardening canary fact ${++created}" }) { id } }`;
export const SUBSCRIBE = 'subscription { memoryActivity { seq } }';

/** A GraphQL response body. */
export type GqlBody = GqlResponse<Record<string, unknown>>['body'];

/** The code of the first error, if any. */
export const codeOf = (body: GqlBody): string | undefined => body.errors?.[0]?.extensions?.code;

export interface AppFixture {
  readonly base: string;
  readonly appDir: string;
  cleanup(): void;
}

/** A temp folder holding the app (index, hashed asset, dotfile, symlinks out) and a secret beside it. */
export function appFixture(): AppFixture {
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

/** One response a suite received: what was asked, the headers, and everything that came back. */
export interface Seen {
  readonly what: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly text: string;
}

/** The responses that carried an Access-Control-Allow-* header. */
export const withCors = (seen: readonly Seen[]): Seen[] => seen.filter((s) => s.headers.some(([k]) => k.toLowerCase().startsWith('access-control-allow')));

/** The responses that carried the token, in a header or a body. */
export const withToken = (seen: readonly Seen[]): Seen[] => seen.filter((s) => s.text.includes(TOKEN) || s.headers.some(([, v]) => v.includes(TOKEN)));

export type WsMessage = { type: string; payload?: unknown };

export interface HardeningSuite {
  readonly d: TestDashboard;
  readonly fixture: AppFixture;
  readonly port: number;
  /** The dashboard's own origin. */
  readonly own: string;
  /** Every response this suite received, for the no-CORS and no-token-leak sweeps. */
  readonly seen: Seen[];
  readonly auth: { readonly authorization: string };
  raw(r: RawRequest): Promise<RawResponse>;
  http(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }>;
  post(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: GqlBody; text: string }>;
  totalFacts(): Promise<number>;
  /**
   * One graphql-ws exchange (no Origin header, as a non-browser client sends it): connection_init with
   * `init`, one subscribe, every message until that operation errors or completes.
   */
  overWs(init: Record<string, unknown>, query: string): Promise<WsMessage[]>;
  wsCode(messages: WsMessage[]): string | undefined;
}

/**
 * Starts, for the enclosing describe, a dashboard with TOKEN over the app fixture, and stops it after.
 * Before stopping, it sweeps every response the suite recorded: none may carry an Access-Control-Allow-*
 * header or the token.
 */
export function hardeningSuite(adapter: AdapterName): HardeningSuite {
  let d: TestDashboard | undefined;
  let fixture: AppFixture | undefined;
  let port = 0;
  let own = '';
  const seen: Seen[] = [];
  const started = (): TestDashboard => {
    if (!d) throw new Error('the hardening dashboard has not started');
    return d;
  };

  const raw = async (r: RawRequest): Promise<RawResponse> => {
    const res = await rawRequest(port, r);
    seen.push({ what: `${r.method ?? 'GET'} ${r.path}`, headers: res.headers, text: res.raw });
    return res;
  };

  const http = async (path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> => {
    const res = await fetch(`${started().url}${path}`, init);
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

  const overWs = (init: Record<string, unknown>, query: string): Promise<WsMessage[]> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${started().url.replace('http:', 'ws:')}/graphql`, 'graphql-transport-ws');
      const messages: WsMessage[] = [];
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
        const m = JSON.parse(data.toString()) as WsMessage;
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
  const wsCode = (messages: WsMessage[]): string | undefined =>
    (messages.find((m) => m.type === 'error')?.payload as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code;

  beforeAll(async () => {
    fixture = appFixture();
    d = await startTestDashboard(adapter, { dashboard: { token: TOKEN } }, { appDir: fixture.appDir });
    port = d.server.port;
    own = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    try {
      // The sweeps hold for every file of the split suite, not only the one that runs them as tests.
      expect(withCors(seen).map((s) => s.what), 'responses with an Access-Control-Allow-* header').toEqual([]);
      expect(withToken(seen).map((s) => s.what), 'responses carrying the token').toEqual([]);
    } finally {
      await d?.close();
      fixture?.cleanup();
    }
  });

  return {
    get d() {
      return started();
    },
    get fixture() {
      if (!fixture) throw new Error('the hardening app fixture has not been made');
      return fixture;
    },
    get port() {
      return port;
    },
    get own() {
      return own;
    },
    seen,
    auth: { authorization: `Bearer ${TOKEN}` },
    raw,
    http,
    post,
    totalFacts,
    overWs,
    wsCode,
  };
}
