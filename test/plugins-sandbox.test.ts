/**
 * The plugin sandbox, attacked for real: a plugin with no capabilities (test/fixtures/plugins/intruder)
 * runs in its own child process under Node's permission model and tries to read vault.key and memory.db,
 * write files, start processes and worker threads, load a native addon, open connections (net, fetch,
 * http), listen, send UDP, resolve DNS, signal the service and read its environment. Each attempt is
 * refused and reported with the plugin id and what the sandbox refused; the hook's policy applies and the
 * service keeps running. With the `network` or `fs` capability granted, exactly that opens up; the data
 * dir never does. Real child processes, real files in temp dirs, a real server on 127.0.0.1 port 0.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestHome } from './helpers.js';
import { cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';
import { ROOT, nodeBinary, supported } from './support/runtimes.js';

let open: PluggedService[] = [];
const dirs: string[] = [];
let server: Server;
let port = 0;
let connections = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
  cleanupFixtures();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'hybrid-mem-sandbox-'));
  dirs.push(d);
  return d;
}

type Patch = (h: Record<string, unknown>) => void;
const grant =
  (caps: Record<string, unknown>, more: Patch = () => undefined): Patch =>
  (h) => {
    h.capabilities = { ...(h.capabilities as object), ...caps };
    more(h);
  };
const failClosed: Patch = (h) => {
  h.policy = 'fail-closed';
};

/** The intruder with `config` (made from the data dir), its manifest changed by `patch`; the vault holds a secret. */
async function intruder(config: (home: TestHome) => Record<string, unknown>, patch?: Patch): Promise<PluggedService> {
  const dir = fixture('intruder', patch ?? (() => undefined));
  const p = await pluggedService([{ dir, config: (home) => ({ port, ...config(home) }) }]);
  open.push(p);
  p.svc.vaultPut({ service: 'github', secret: 'ghp_canarycanarycanarycanary' });
  expect(existsSync(p.svc.config.vaultKeyFile)).toBe(true);
  return p;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Store through the hooks: the fail-open intruder's attack is refused, reported with its id and what the
 * sandbox refused, and the store goes on; the service and the plugin's process carry on.
 */
async function expectRefused(p: PluggedService, refused: RegExp): Promise<void> {
  const r = await p.svc.storeWithHooks({ text: 'The wiki runs on the blue server' });
  expect(r.created).toBe(true);
  const f = p.host.failures.at(-1);
  expect(f).toMatchObject({ pluginId: 'intruder', hook: 'beforeFactStore', code: 'MEM_ERR_PLUGIN_CAPABILITY', policy: 'fail-open' });
  expect(f?.message).toMatch(/^the sandbox refused /);
  expect(f?.message).toMatch(refused);
  expect(p.lines.at(-1)).toMatch(/^plugin intruder: beforeFactStore failed \(MEM_ERR_PLUGIN_CAPABILITY: the sandbox refused .*\); fail-open: the store went on without it$/);
  expect(p.svc.memoryStore({ text: 'The chat runs on the red server' }).created).toBe(true);
  expect((await p.svc.storeWithHooks({ text: 'The docs run on the green server' })).created).toBe(true);
  expect(p.host.failures.length).toBe(2);
  expect(p.host.status()[0]).toMatchObject({ state: 'loaded', restarts: 0 });
  const key = readFileSync(p.svc.config.vaultKeyFile, 'utf8').trim();
  for (const line of [...p.lines, ...p.host.failures.map((x) => x.message)]) {
    expect(line).not.toContain(key);
    expect(line).not.toContain('ghp_canary');
  }
}

describe('a plugin with no capabilities', () => {
  it('cannot read vault.key: refused (FileSystemRead and the path), reported with its id; fail-open, the store goes on', async () => {
    const p = await intruder((home) => ({ attack: 'read', target: join(home.dir, 'vault.key') }));
    await expectRefused(p, new RegExp(`^the sandbox refused FileSystemRead \\(${escape(p.svc.config.vaultKeyFile)}\\)`));
  });

  it('cannot read memory.db (nor its WAL)', async () => {
    const p = await intruder((home) => ({ attack: 'read', target: join(home.dir, 'memory.db') }));
    await expectRefused(p, /FileSystemRead \(.*memory\.db\)/);
  });

  it('fail-closed: reading vault.key refuses the store with MEM_ERR_PLUGIN_FAILED (cause MEM_ERR_PLUGIN_CAPABILITY); nothing is written', async () => {
    const p = await intruder((home) => ({ attack: 'read', target: join(home.dir, 'vault.key') }), failClosed);
    const facts = p.svc.stats().totalFacts;
    await expect(p.svc.storeWithHooks({ text: 'refused while the guard is broken' })).rejects.toMatchObject({
      code: 'MEM_ERR_PLUGIN_FAILED',
      message: expect.stringMatching(/^plugin intruder \(fail-closed\): beforeFactStore failed, so the store was refused \(MEM_ERR_PLUGIN_CAPABILITY: the sandbox refused FileSystemRead/),
      details: { pluginId: 'intruder', hook: 'beforeFactStore', cause: 'MEM_ERR_PLUGIN_CAPABILITY' },
    });
    expect(p.svc.stats().totalFacts).toBe(facts);
  });

  it('cannot read a file outside its folder through a symbolic link shipped inside it: the plugin is not loaded', async () => {
    const outside = join(scratch(), 'vault.key');
    const copy = fixture('intruder', () => undefined);
    symlinkSync(outside, join(copy, 'vault.key'));
    const p = await pluggedService([{ dir: copy, config: { attack: 'read', target: join(copy, 'vault.key') } }]);
    open.push(p);
    expect(p.host.status()[0]).toMatchObject({ state: 'broken', error: expect.stringMatching(/MEM_ERR_PLUGIN_MANIFEST: plugin intruder: .*vault\.key is a symbolic link to .*outside what the plugin may read/) });
    expect(p.lines[0]).toMatch(/^plugin intruder: init failed \(MEM_ERR_PLUGIN_FAILED: plugin intruder could not load: MEM_ERR_PLUGIN_MANIFEST/);
  });

  it('cannot write in its own folder either', async () => {
    const copy = fixture('intruder', () => undefined);
    const p = await pluggedService([{ dir: copy, config: { attack: 'write', target: join(copy, 'planted.txt') } }]);
    open.push(p);
    p.svc.vaultPut({ service: 'github', secret: 'ghp_canarycanarycanarycanary' });
    await expectRefused(p, /^the sandbox refused FileSystemWrite \(.*planted\.txt\)/);
    expect(existsSync(join(copy, 'planted.txt'))).toBe(false);
  });

  it.each([
    ['write a file in the data dir', (h: TestHome) => ({ attack: 'write', target: join(h.dir, 'planted.txt') }), /FileSystemWrite \(.*planted\.txt\)/],
    ['start a process', () => ({ attack: 'spawn' }), /ChildProcess/],
    ['start a worker thread', () => ({ attack: 'worker' }), /WorkerThreads/],
    ['open a TCP connection', () => ({ attack: 'connect' }), /Network \(net\.connect\)/],
    ['fetch', () => ({ attack: 'fetch' }), /Network \(fetch\)/],
    ['make an http request', () => ({ attack: 'http' }), /Network \(net\.createConnection\)/],
    ['listen on a port', () => ({ attack: 'listen' }), /Network \(net\.Server\.listen/],
    ['send UDP', () => ({ attack: 'udp' }), /Network \(dgram\.Socket\.send/],
    ['resolve a DNS name', () => ({ attack: 'dns' }), /Network \(dns\.promises\.lookup\)/],
    ['signal the service process', () => ({ attack: 'kill' }), /ChildProcess \(pid \d+\)/],
  ])('cannot %s: refused and reported', async (_what, config, refused) => {
    const p = await intruder(config);
    const before = connections;
    await expectRefused(p, refused);
    expect(connections).toBe(before);
    expect(existsSync(join(p.home.dir, 'planted.txt'))).toBe(false);
  });

  it('cannot load a native addon, even one inside its own folder (--no-addons)', async () => {
    const copy = fixture('intruder', () => undefined);
    copyFileSync(join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), join(copy, 'addon.node'));
    const p = await pluggedService([{ dir: copy, config: { attack: 'addon', target: join(copy, 'addon.node') } }]);
    open.push(p);
    p.svc.vaultPut({ service: 'github', secret: 'ghp_canarycanarycanarycanary' });
    await expectRefused(p, /^the sandbox refused Addon: Cannot load native addon/);
  });

  it('sees no environment of the service (no tokens, no HYBRID_MEM_*)', async () => {
    const p = await intruder(() => ({ attack: 'env' }));
    await expect(p.svc.storeWithHooks({ text: 'env probe' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', message: 'plugin intruder refused the store: env got through: []' });
  });

  it('an attack in init is reported at load; a fail-closed plugin then refuses what it would hook', async () => {
    const p = await intruder((h) => ({ attack: 'read', target: join(h.dir, 'vault.key'), inInit: true }), failClosed);
    expect(p.lines[0]).toMatch(/^plugin intruder: init failed \(MEM_ERR_PLUGIN_FAILED: plugin intruder could not load: MEM_ERR_PLUGIN_CAPABILITY: the sandbox refused FileSystemRead/);
    await expect(p.svc.storeWithHooks({ text: 'refused: the guard could not load' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', message: expect.stringContaining('could not load') });
  });

  it('a refusal nobody awaited (a callback throws it) kills only the plugin process: reported with its last words, started again for the next call', async () => {
    const p = await intruder((h) => ({ attack: 'read-async', target: join(h.dir, 'vault.key') }));
    expect((await p.svc.storeWithHooks({ text: 'stored while the plugin dies' })).created).toBe(true);
    expect(p.host.failures.at(-1)).toMatchObject({ pluginId: 'intruder', hook: 'beforeFactStore', code: 'MEM_ERR_ACTOR_CRASHED', message: expect.stringMatching(/its process died .*it said MEM_ERR_PLUGIN_CAPABILITY: the sandbox refused FileSystemRead/) });
    expect(p.host.status()[0]).toMatchObject({ state: 'loaded', restarts: 1 });
    expect((await p.svc.storeWithHooks({ text: 'stored after the plugin came back' })).created).toBe(true);
    expect(p.host.status()[0]?.restarts).toBe(2);
  });
});

describe('capabilities widen exactly what they name', () => {
  it('network: a granted plugin connects to a local server (and fetches); one without cannot', async () => {
    const before = connections;
    const granted = await intruder(() => ({ attack: 'connect' }), grant({ network: true }));
    await expect(granted.svc.storeWithHooks({ text: 'connect probe' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', message: 'plugin intruder refused the store: connect got through: connected' });
    // (The server counts the connection when its own event loop gets to it.)
    await expect.poll(() => connections).toBe(before + 1);
    const fetching = await intruder(() => ({ attack: 'fetch' }), grant({ network: true }));
    await expect(fetching.svc.storeWithHooks({ text: 'fetch probe' })).rejects.toMatchObject({ message: 'plugin intruder refused the store: fetch got through: 204' });
    await expect.poll(() => connections).toBe(before + 2);
    // network grants no files.
    const reader = await intruder((h) => ({ attack: 'read', target: join(h.dir, 'vault.key') }), grant({ network: true }));
    await expectRefused(reader, /FileSystemRead/);
    const refused = await intruder(() => ({ attack: 'connect' }));
    await expectRefused(refused, /Network/);
    expect(connections).toBe(before + 2);
  });

  it('fs: a granted plugin writes and reads its own folder and the declared paths, never anything else', async () => {
    const out = scratch();
    const copy = fixture('intruder', grant({ fs: [out] }));
    const write = (target: string) => pluggedService([{ dir: copy, config: { attack: 'write', target } }]);
    for (const target of [join(out, 'note.txt'), join(copy, 'state.json')]) {
      const p = await write(target);
      open.push(p);
      await expect(p.svc.storeWithHooks({ text: 'write probe' })).rejects.toMatchObject({ message: 'plugin intruder refused the store: write got through: written' });
      expect(readFileSync(target, 'utf8')).toBe('written by the intruder');
    }
    const elsewhere = scratch();
    const p = await write(join(elsewhere, 'x.txt'));
    open.push(p);
    p.svc.vaultPut({ service: 'github', secret: 'ghp_canarycanarycanarycanary' });
    await expectRefused(p, /FileSystemWrite/);
    const reader = await intruder((h) => ({ attack: 'read', target: join(h.dir, 'vault.key') }), grant({ fs: true }));
    await expectRefused(reader, /FileSystemRead/);
  });

  it('fs never reaches the data dir: a manifest asking for it (or a folder holding it) is refused at load', async () => {
    const p = await intruder(() => ({ attack: 'none' }), grant({ fs: [tmpdir()] }));
    expect(p.host.status()[0]).toMatchObject({ state: 'broken', error: expect.stringMatching(/MEM_ERR_PLUGIN_MANIFEST: plugin intruder: the fs capability asks for .*, which is the data dir, inside it or contains it/) });
    expect(p.lines[0]).toMatch(/^plugin intruder: init failed/);
    expect((await p.svc.storeWithHooks({ text: 'a fail-open plugin that cannot load is skipped' })).created).toBe(true);
  });
});

describe.skipIf(!supported).each([22, 24] as const)('on Node %i (the real bin, --permission)', (major) => {
  it('a capability-less plugin cannot read vault.key; a network-granted one connects', () => {
    const node = nodeBinary(major);
    const home = scratch();
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
    const bin = (...args: string[]) => spawnSync(node, [join(ROOT, 'bin', 'hybrid-mem.js'), ...args], { env, encoding: 'utf8', timeout: 60_000, input: '' });
    const put = spawnSync(node, [join(ROOT, 'bin', 'hybrid-mem.js'), 'vault', 'put', 'github'], { env, encoding: 'utf8', timeout: 60_000, input: 'ghp_canarycanarycanarycanary\n' });
    expect(put.status, put.stderr).toBe(0);
    const reader = fixture('intruder', (h) => {
      h.config = { attack: 'read', target: join(home, 'vault.key') };
    });
    expect(bin('plugin', 'install', reader).status).toBe(0);
    const stored = bin('store', 'The wiki runs on the blue server');
    expect(stored.status, stored.stderr).toBe(0);
    expect(stored.stderr).toMatch(/hybrid-mem: plugin intruder: beforeFactStore failed \(MEM_ERR_PLUGIN_CAPABILITY: the sandbox refused FileSystemRead \(.*vault\.key\)/);
    expect(stored.stderr).not.toContain('ghp_canary');
    expect(bin('plugin', 'remove', 'intruder').status).toBe(0);
    const connector = fixture('intruder', (h) => {
      h.config = { attack: 'connect', port };
      h.capabilities = { network: true };
    });
    expect(bin('plugin', 'install', connector).status).toBe(0);
    const vetoed = bin('store', 'connect probe');
    expect(vetoed.stderr).toContain('MEM_ERR_PLUGIN_VETO: plugin intruder refused the store: connect got through: connected');
  }, 120_000);
});
