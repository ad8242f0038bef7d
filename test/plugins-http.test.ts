/**
 * Plugin-registered endpoints through the real dashboard server (port 0, both adapters) and a real
 * `hybrid-mem serve` process: mounted at /api/plugins/<id><path>, behind the Host/Origin guard; GET needs
 * no token, other methods need the dashboard token and JSON bodies; answers are checked (no CORS header
 * gets out; a wrong shape is a 500 naming the plugin); GraphQL mutations run the plugins' hooks; serve
 * loads the enabled plugins, serves their endpoints, runs onMaintenance after its maintenance pass and
 * onShutdown when it stops.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { run } from '../src/cli/main.js';
import { ADAPTERS } from './support/dashboard.js';
import { cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';
import { rawRequest } from './support/raw-http.js';
import { tempHome } from './helpers.js';
import { MemoryService } from '../src/memory/service.js';

const TOKEN = 'plugin-token-123';
const BIN = resolve(__dirname, '../bin/hybrid-mem.js');

afterAll(cleanupFixtures);

describe.each(ADAPTERS)('plugin endpoints over %s', (adapter) => {
  let p: PluggedService;
  let server: Dashboard;
  let port = 0;
  const url = (path: string): string => `${server.url}${path}`;

  beforeAll(async () => {
    p = await pluggedService([{ dir: fixture('recorder') }], { embedding: { enabled: false }, dashboard: { token: TOKEN } });
    server = await startDashboard({ svc: p.svc, config: p.home.config, port: 0, server: adapter, record: false });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
    await p.close();
  });

  it('GET needs no token; the handler sees method, query, caller and headers, never Authorization', async () => {
    const r = await fetch(url('/api/plugins/recorder/calls?x=1&y=two'), { headers: { 'x-hybrid-mem-role': 'specialist', 'x-hybrid-mem-agent-id': 'coder', authorization: `Bearer ${TOKEN}`, accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toBe("sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'none'");
    const body = (await r.json()) as { inits: number; method: string; query: object; caller: object; headers: Record<string, string> };
    expect(body).toMatchObject({ inits: 1, method: 'GET', query: { x: '1', y: 'two' }, caller: { role: 'specialist', agentId: 'coder', sessionId: null } });
    expect(body.headers).toMatchObject({ accept: 'application/json', 'x-hybrid-mem-role': 'specialist' });
    expect(body.headers.authorization).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('POST needs the token (401 without, 401 wrong) and a JSON content type (415); with both the handler answers', async () => {
    const post = (headers: Record<string, string>) => fetch(url('/api/plugins/recorder/echo'), { method: 'POST', headers, body: '{"hello":"plugin"}' });
    const none = await post({ 'content-type': 'application/json' });
    expect([none.status, ((await none.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code]).toEqual([401, 'MEM_ERR_TOKEN_REQUIRED']);
    const wrong = await post({ 'content-type': 'application/json', authorization: 'Bearer not-the-token' });
    expect([wrong.status, ((await wrong.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code]).toEqual([401, 'MEM_ERR_TOKEN_INVALID']);
    const text = await post({ 'content-type': 'text/plain', authorization: `Bearer ${TOKEN}` });
    expect([text.status, ((await text.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code]).toEqual([415, 'MEM_ERR_CONTENT_TYPE']);
    const ok = await post({ 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(201);
    expect(await ok.text()).toBe('echo POST {"hello":"plugin"}');
    expect(ok.headers.get('x-plugin')).toBe('recorder');
    // The plugin asked for a CORS header: none ever leaves this server.
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    const del = await fetch(url('/api/plugins/recorder/echo'), { method: 'DELETE' });
    expect(del.status).toBe(401);
  });

  it('the Host and Origin guards apply (403), before the plugin is reached', async () => {
    const evilHost = await rawRequest(port, { path: '/api/plugins/recorder/calls', host: 'evil.example:80' });
    expect([evilHost.status, evilHost.json().errors?.[0]?.extensions?.code]).toEqual([403, 'MEM_ERR_HOST_REFUSED']);
    const rebinding = await rawRequest(port, { path: '/api/plugins/recorder/calls', host: `localhost.evil.example:${port}` });
    expect(rebinding.status).toBe(403);
    const origin = await rawRequest(port, { path: '/api/plugins/recorder/calls', headers: [['Origin', 'http://evil.example']] });
    expect([origin.status, origin.json().errors?.[0]?.extensions?.code]).toEqual([403, 'MEM_ERR_ORIGIN_REFUSED']);
    const own = await rawRequest(port, { path: '/api/plugins/recorder/calls', headers: [['Origin', `http://127.0.0.1:${port}`]] });
    expect(own.status).toBe(200);
  });

  it('only registered paths exist: unknown plugin, unknown path, traversal and encodings are 404', async () => {
    for (const path of ['/api/plugins/nope/calls', '/api/plugins/recorder/nope', '/api/plugins/recorder', '/api/plugins/recorder/../recorder/calls', '/api/plugins/recorder/calls%2f', '/api/plugins/recorder//calls', '/api/plugins/Recorder/calls', '/api/plugins/']) {
      const r = await rawRequest(port, { path });
      expect([path, r.status, r.json().errors?.[0]?.extensions?.code]).toEqual([path, 404, 'MEM_ERR_NOT_FOUND']);
    }
  });

  it('a wrong-shaped answer is a 500 MEM_ERR_PLUGIN_FAILED naming the plugin, and is reported; a body past 256 KiB is 413', async () => {
    const r = await fetch(url('/api/plugins/recorder/bad'));
    expect(r.status).toBe(500);
    const e = ((await r.json()) as { errors: { message: string; extensions: { code: string } }[] }).errors[0];
    expect(e).toMatchObject({ extensions: { code: 'MEM_ERR_PLUGIN_FAILED' }, message: expect.stringMatching(/^plugin recorder: endpoint \/bad failed \(MEM_ERR_INVALID_INPUT: /) });
    expect(p.host.failures.at(-1)).toMatchObject({ pluginId: 'recorder', hook: 'endpoint /bad' });
    const big = await fetch(url('/api/plugins/recorder/echo'), { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: `"${'x'.repeat(300 * 1024)}"` });
    expect(big.status).toBe(413);
  });

  it('GraphQL createFact, editFact and deleteFact run the plugins\' hooks', async () => {
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await (await fetch(url('/graphql'), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query, variables }) })).json()) as {
        data?: Record<string, { id: string; tags?: string[] }>;
        errors?: { extensions: { code: string } }[];
      };
    const created = await gql('mutation { createFact(input: { text: "made over GraphQL" }) { id tags } }');
    expect(created.data?.createFact?.tags).toEqual(['seen-by-recorder']);
    const id = created.data?.createFact?.id;
    const edited = await gql('mutation($id: ID!) { editFact(id: $id, input: { text: "edited over GraphQL" }) { id tags } }', { id });
    expect(edited.data?.editFact?.tags).toEqual(['seen-by-recorder']);
    const deleted = await gql('mutation($id: ID!) { deleteFact(id: $id) { id } }', { id: edited.data?.editFact?.id });
    expect(deleted.errors).toBeUndefined();
    const calls = ((await (await fetch(url('/api/plugins/recorder/calls'))).json()) as { calls: { hook: string; info?: { source?: string } }[] }).calls;
    expect(calls.slice(-6).map((c) => [c.hook, c.info?.source ?? null])).toEqual([
      ['beforeFactStore', 'graphql'],
      ['afterFactStore', 'graphql'],
      ['beforeFactStore', 'graphql'],
      ['afterFactStore', 'graphql'],
      ['beforeFactDelete', null],
      ['afterFactDelete', null],
    ]);
    expect(calls.slice(-6).map((c) => c.hook)).toEqual([
      'beforeFactStore',
      'afterFactStore',
      'beforeFactStore',
      'afterFactStore',
      'beforeFactDelete',
      'afterFactDelete',
    ]);
  });
});

describe('a dashboard without plugins', () => {
  it('answers 404 under /api/plugins/', async () => {
    const home = tempHome({ embedding: { enabled: false } });
    const svc = MemoryService.open({ config: home.config, env: home.env });
    const server = await startDashboard({ svc, config: home.config, port: 0, server: 'node', record: false });
    try {
      expect((await fetch(`${server.url}/api/plugins/recorder/calls`)).status).toBe(404);
    } finally {
      await server.close();
      await svc.close();
      home.cleanup();
    }
  });
});

describe('hybrid-mem serve with an enabled plugin (a real process)', () => {
  it('loads it, says so in the status line, serves its endpoint, runs onMaintenance after the pass, and onShutdown on SIGTERM', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hybrid-mem-plugin-serve-'));
    try {
      // The sandbox lets the plugin write only in its own folder, and only with the fs capability.
      const shutdownFile = join(home, 'plugins', 'recorder', 'shutdown.json');
      const granted = fixture('recorder', (h) => {
        h.capabilities = { ...(h.capabilities as object), fs: true };
      });
      writeFileSync(join(home, 'config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { embedding: { enabled: false }, dashboard: { port: 0 } } } } } }));
      const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: { ...process.env, HYBRID_MEM_HOME: home }, cwd: home };
      expect(await run(['plugin', 'install', granted, '--plugin-config', JSON.stringify({ shutdownFile })], io)).toBe(0);
      const child = spawn(process.execPath, [BIN, 'serve', '--json'], { env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' } });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await expect.poll(() => out.includes('"event":"status"'), { timeout: 30_000, interval: 50 }).toBe(true);
      const status = out.split('\n').map((l) => (l ? (JSON.parse(l) as { event: string; services?: string[] }) : null)).find((e) => e?.event === 'status');
      expect(status?.services).toContain('plugins: recorder');
      const base = /dashboard (http:\/\/127\.0\.0\.1:\d+)\/graph/.exec(status?.services?.join(' ') ?? '')?.[1] ?? '';
      const r = await fetch(`${base}/api/plugins/recorder/calls`);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ inits: 1 });
      // serve runs a maintenance pass at start; onMaintenance follows it.
      const hooks = async (): Promise<string[]> => ((await (await fetch(`${base}/api/plugins/recorder/calls`)).json()) as { calls: { hook: string }[] }).calls.map((c) => c.hook);
      await expect.poll(hooks, { timeout: 20_000, interval: 100 }).toEqual(['onMaintenance']);
      expect(err).toContain('hybrid-mem: plugin recorder: recorder ready');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(JSON.parse(readFileSync(shutdownFile, 'utf8'))).toMatchObject({ hooks: ['onMaintenance', 'onShutdown'] });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
