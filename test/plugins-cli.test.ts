/**
 * `hybrid-mem plugin ...` with the real CLI (in-process `run`, and the real bin where noted), real data
 * dirs and real workers: install from a local folder and from a tarball made by `npm pack` (through
 * `npm install`), list, info, enable, disable, config, remove, run; clear typed errors (unknown id, bad
 * manifest, id clash, npm failure) that leave nothing half-installed; and the write commands running the
 * enabled plugins' hooks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { cleanupFixtures, fixture } from './support/plugins.js';
import { runProcess } from './support/spawn.js';

const BIN = resolve(__dirname, '../bin/hybrid-mem.js');

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

class Sink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

async function cli(home: string, argv: readonly string[], cwd = home): Promise<Result> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await run(argv, { stdout, stderr, env: { ...process.env, HYBRID_MEM_HOME: home }, cwd, stdin: Readable.from([]) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const json = <T>(r: Result): T => JSON.parse(r.stdout) as T;
const dirs: string[] = [];
const scratch = (prefix = 'hybrid-mem-plugin-cli-'): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  cleanupFixtures();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function expectUserError(r: Result, code: string, message?: RegExp): void {
  expect(r.code, r.stderr).toBe(code === 'MEM_ERR_USAGE' ? 2 : 1);
  expect(r.stderr).toMatch(new RegExp(`^hybrid-mem: ${code}: \\S.*\\n$`));
  if (message) expect(r.stderr).toMatch(message);
}

/** What a failed install may leave: nothing but what was there (the registry and installed folders). */
const pluginsDirEntries = (home: string): string[] => (existsSync(join(home, 'plugins')) ? readdirSync(join(home, 'plugins')).sort() : []);

describe('install from a local folder, then list, info, disable, enable, config, remove', () => {
  it('manages the plugin and its registry entry end to end', async () => {
    const home = scratch();
    const inst = await cli(home, ['plugin', 'install', fixture('recorder'), '--local']);
    expect(inst.code, inst.stderr).toBe(0);
    expect(inst.stdout).toBe(`installed recorder 1.2.3 (fail-open; canModifyFacts, canInterceptSearch) from local ${fixture('recorder')}; enabled\n`);
    expect(pluginsDirEntries(home)).toEqual(['recorder', 'registry.json']);
    expect(existsSync(join(home, 'plugins/recorder/index.js'))).toBe(true);

    const list = json<{ plugins: { id: string; enabled: boolean; version: string; policy: string; capabilities: object; source: object }[] }>(await cli(home, ['plugin', 'list', '--json']));
    expect(list.plugins).toMatchObject([{ id: 'recorder', enabled: true, version: '1.2.3', policy: 'fail-open', capabilities: { canModifyFacts: true, canInterceptSearch: true }, source: { kind: 'local', spec: fixture('recorder') } }]);

    const info = await cli(home, ['plugin', 'info', 'recorder', '--load']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain('author: hybrid-mem tests');
    expect(info.stdout).toContain('loaded: yes');
    expect(info.stdout).toContain('hooks: beforeFactStore, afterFactStore, beforeFactDelete, afterFactDelete, beforeSearch, afterSearch, onMaintenance, onShutdown');
    expect(info.stdout).toContain('endpoints: /api/plugins/recorder/calls, /api/plugins/recorder/echo, /api/plugins/recorder/bad');
    expect(info.stdout).toContain('commands: hybrid-mem plugin run recorder calls, hybrid-mem plugin run recorder count, hybrid-mem plugin run recorder similar, hybrid-mem plugin run recorder fail');

    expect((await cli(home, ['plugin', 'disable', 'recorder'])).stdout).toBe('disabled recorder\n');
    expect((await cli(home, ['plugin', 'list'])).stdout).toMatch(/^recorder {2}disabled {2}1\.2\.3/);
    // Disabled: its hooks do not run, and its commands are refused.
    const plain = await cli(home, ['store', 'stored while the recorder is disabled', '--json']);
    expect(json<{ fact: { tags: string[] } }>(plain).fact.tags).toEqual([]);
    expectUserError(await cli(home, ['plugin', 'run', 'recorder', 'calls']), 'MEM_ERR_PLUGIN_DISABLED', /hybrid-mem plugin enable recorder/);
    expect((await cli(home, ['plugin', 'enable', 'recorder'])).stdout).toBe('enabled recorder\n');

    const conf = await cli(home, ['plugin', 'config', 'recorder', '{"tag":"configured","vetoWord":"hunter2"}', '--json']);
    expect(json<{ effective: object }>(conf).effective).toEqual({ tag: 'configured', vetoWord: 'hunter2' });
    const tagged = await cli(home, ['store', 'stored while the recorder is enabled', '--json']);
    expect(json<{ fact: { tags: string[] } }>(tagged).fact.tags).toEqual(['configured']);

    const removed = await cli(home, ['plugin', 'remove', 'recorder']);
    expect(removed.stdout).toBe('removed recorder\n');
    expect(pluginsDirEntries(home)).toEqual(['registry.json']);
    expect(JSON.parse(readFileSync(join(home, 'plugins/registry.json'), 'utf8'))).toEqual({ version: 1, plugins: [] });
    expect((await cli(home, ['plugin', 'list'])).stdout).toMatch(/^no plugins installed/);
  });

  it('--disabled installs without enabling; --plugin-config sets the config; without --npm/--local an existing folder is local', async () => {
    const home = scratch();
    const r = await cli(home, ['plugin', 'install', fixture('recorder'), '--disabled', '--plugin-config', '{"tag":"x"}', '--json']);
    expect(json<{ installed: { enabled: boolean; config: object; source: { kind: string } } }>(r).installed).toMatchObject({ enabled: false, config: { tag: 'x' }, source: { kind: 'local' } });
  });
});

describe('plugin commands in several processes at once', () => {
  it('lose no registry write: concurrent installs and config changes all land', async () => {
    const home = scratch();
    expect((await cli(home, ['plugin', 'install', fixture('recorder'), '--local'])).code).toBe(0);
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
    const jobs = [
      ['plugin', 'install', fixture('grabby'), '--local'],
      ['plugin', 'install', fixture('misbehaving'), '--local', '--disabled'],
      ['plugin', 'config', 'recorder', '{"tag":"from-a"}'],
      ['plugin', 'disable', 'recorder'],
      ['plugin', 'config', 'recorder', '{"tag":"from-b"}'],
    ].map((argv) => runProcess(process.execPath, [BIN, ...argv], env));
    for (const r of await Promise.all(jobs)) expect(r.code, r.stderr).toBe(0);
    const list = json<{ plugins: { id: string; enabled: boolean; config: { tag?: string } }[] }>(await cli(home, ['plugin', 'list', '--json'])).plugins;
    expect(list.map((p) => p.id).sort()).toEqual(['grabby', 'misbehaving', 'recorder']);
    const recorder = list.find((p) => p.id === 'recorder');
    expect(recorder?.enabled).toBe(false);
    expect(['from-a', 'from-b']).toContain(recorder?.config.tag);
    expect(list.find((p) => p.id === 'misbehaving')?.enabled).toBe(false);
    expect(pluginsDirEntries(home)).toEqual(['grabby', 'misbehaving', 'recorder', 'registry.json']);
  }, 60_000);
});

describe('install from a packed tarball (npm pack, then npm install)', () => {
  let tarball = '';
  beforeAll(() => {
    const out = scratch('hybrid-mem-plugin-pack-');
    const packed = spawnSync('npm', ['pack', fixture('recorder'), '--pack-destination', out, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(packed.status, packed.stderr).toBe(0);
    tarball = join(out, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename ?? '');
    expect(existsSync(tarball)).toBe(true);
  }, 60_000);

  it('installs into <data dir>/plugins/<id>/node_modules, loads and runs from there', async () => {
    const home = scratch();
    const r = await cli(home, ['plugin', 'install', tarball, '--npm', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const installed = json<{ installed: { id: string; source: object; dir: string } }>(r).installed;
    expect(installed).toMatchObject({ id: 'recorder', source: { kind: 'npm', spec: tarball } });
    expect(installed.dir).toBe(join(home, 'plugins/recorder/node_modules/hybrid-mem-plugin-recorder'));
    expect(pluginsDirEntries(home)).toEqual(['recorder', 'registry.json']);
    const stored = await cli(home, ['store', 'installed with npm', '--json']);
    expect(json<{ fact: { tags: string[] } }>(stored).fact.tags).toEqual(['seen-by-recorder']);
    const ran = await cli(home, ['plugin', 'run', 'recorder', 'calls']);
    expect(ran).toMatchObject({ code: 0, stdout: '0 calls; args []\n' });
  }, 60_000);

  it('a relative tarball path resolves against the working directory; installing it twice is an id clash', async () => {
    const home = scratch();
    const rel = await cli(home, ['plugin', 'install', `./${tarball.split('/').pop() ?? ''}`, '--npm'], resolve(tarball, '..'));
    expect(rel.code, rel.stderr).toBe(0);
    const again = await cli(home, ['plugin', 'install', tarball, '--npm']);
    expectUserError(again, 'MEM_ERR_PLUGIN_EXISTS', /a plugin with id recorder is already installed .*nothing was installed/);
    expect(pluginsDirEntries(home)).toEqual(['recorder', 'registry.json']);
  }, 60_000);
});

describe('errors are typed and leave nothing half-installed', () => {
  it('an unknown id: remove, enable, disable, info, config and run say MEM_ERR_PLUGIN_NOT_FOUND', async () => {
    const home = scratch();
    await cli(home, ['plugin', 'install', fixture('recorder')]);
    for (const argv of [['remove', 'nope'], ['enable', 'nope'], ['disable', 'nope'], ['info', 'nope'], ['config', 'nope'], ['run', 'nope', 'calls']]) {
      expectUserError(await cli(home, ['plugin', ...argv]), 'MEM_ERR_PLUGIN_NOT_FOUND', /no installed plugin "nope" \(installed: recorder\)/);
    }
    expectUserError(await cli(home, ['plugin', 'run', 'recorder', 'nope']), 'MEM_ERR_PLUGIN_NOT_FOUND', /plugin recorder has no command "nope" \(its commands: calls, count, similar, fail\)/);
  });

  it('a folder without a manifest, a bad manifest, a missing entry module: MEM_ERR_PLUGIN_MANIFEST, nothing kept', async () => {
    const home = scratch();
    await cli(home, ['plugin', 'install', fixture('recorder')]);
    const before = readFileSync(join(home, 'plugins/registry.json'), 'utf8');
    expectUserError(await cli(home, ['plugin', 'install', fixture('no-manifest'), '--local']), 'MEM_ERR_PLUGIN_MANIFEST', /hybridMem: expected an object, received nothing/);
    const bad = await cli(home, ['plugin', 'install', fixture('bad-manifest'), '--local', '--json']);
    expect(bad.code).toBe(1);
    const err = (JSON.parse(bad.stderr) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('MEM_ERR_PLUGIN_MANIFEST');
    expect(err.message).toContain('package.json.version: expected');
    expect(err.message).toContain('package.json.hybridMem.id: expected');
    expect(err.message).toContain('package.json.hybridMem.policy: expected one of "fail-open", "fail-closed", received "fail-sometimes"');
    const noEntry = fixture('recorder', (h) => {
      h.id = 'no-entry';
      h.entry = 'missing.js';
    });
    expectUserError(await cli(home, ['plugin', 'install', noEntry, '--local']), 'MEM_ERR_PLUGIN_MANIFEST', /the entry module missing\.js does not exist/);
    const escaping = fixture('recorder', (h) => {
      h.id = 'escaping';
      h.entry = '../recorder/index.js';
    });
    expectUserError(await cli(home, ['plugin', 'install', escaping, '--local']), 'MEM_ERR_PLUGIN_MANIFEST', /(outside the package|does not exist)/);
    expectUserError(await cli(home, ['plugin', 'install', join(home, 'no-such-folder'), '--local']), 'MEM_ERR_PLUGIN_INSTALL', /no folder .*no-such-folder.*nothing was installed/);
    expect(pluginsDirEntries(home)).toEqual(['recorder', 'registry.json']);
    expect(readFileSync(join(home, 'plugins/registry.json'), 'utf8')).toBe(before);
  });

  it('an id clash from another package: MEM_ERR_PLUGIN_EXISTS; the installed plugin is untouched', async () => {
    const home = scratch();
    await cli(home, ['plugin', 'install', fixture('recorder')]);
    const clone = fixture('recorder', (_h, pkg) => {
      pkg.name = 'another-recorder';
      pkg.version = '9.9.9';
    });
    expectUserError(await cli(home, ['plugin', 'install', clone, '--local']), 'MEM_ERR_PLUGIN_EXISTS');
    expect((await cli(home, ['plugin', 'list'])).stdout).toMatch(/^recorder {2}enabled {3}1\.2\.3/);
    expect(pluginsDirEntries(home)).toEqual(['recorder', 'registry.json']);
  });

  it('npm failures (a missing tarball, a tarball whose manifest is bad) are MEM_ERR_PLUGIN_INSTALL / MEM_ERR_PLUGIN_MANIFEST with nothing left', async () => {
    const home = scratch();
    expectUserError(await cli(home, ['plugin', 'install', './missing-1.0.0.tgz', '--npm']), 'MEM_ERR_PLUGIN_INSTALL', /no such file .*missing-1\.0\.0\.tgz; nothing was installed/);
    const out = scratch('hybrid-mem-plugin-pack-');
    const packed = spawnSync('npm', ['pack', fixture('bad-manifest'), '--pack-destination', out], { encoding: 'utf8', timeout: 60_000 });
    // npm itself refuses to pack "version": "one"; pack the no-manifest package instead when it does.
    const which = packed.status === 0 ? 'bad-manifest' : 'no-manifest';
    if (which === 'no-manifest') expect(spawnSync('npm', ['pack', fixture('no-manifest'), '--pack-destination', out], { encoding: 'utf8' }).status).toBe(0);
    const tgz = readdirSync(out).find((f) => f.endsWith('.tgz')) ?? '';
    expectUserError(await cli(home, ['plugin', 'install', join(out, tgz), '--npm']), 'MEM_ERR_PLUGIN_MANIFEST');
    expect(pluginsDirEntries(home)).toEqual([]);
    expectUserError(await cli(home, ['plugin', 'install', fixture('recorder'), '--npm', '--local']), 'MEM_ERR_USAGE', /give --npm or --local, not both/);
  }, 60_000);

  it('a bad --plugin-config or plugin config value is MEM_ERR_INVALID_INPUT and changes nothing', async () => {
    const home = scratch();
    expectUserError(await cli(home, ['plugin', 'install', fixture('recorder'), '--plugin-config', '[1,2]']), 'MEM_ERR_INVALID_INPUT', /--plugin-config: expected a JSON object/);
    expect(pluginsDirEntries(home)).toEqual([]);
    await cli(home, ['plugin', 'install', fixture('recorder')]);
    expectUserError(await cli(home, ['plugin', 'config', 'recorder', 'not json']), 'MEM_ERR_INVALID_INPUT');
    expect(json<{ effective: object }>(await cli(home, ['plugin', 'config', 'recorder', '--json'])).effective).toEqual({ tag: 'seen-by-recorder' });
  });

  it('a plugin whose code says another id is reported as not loaded; a fail-open one does not stop a store', async () => {
    const home = scratch();
    const liar = fixture('recorder', (h) => {
      h.id = 'liar';
    });
    await cli(home, ['plugin', 'install', liar]);
    const info = await cli(home, ['plugin', 'info', 'liar', '--load']);
    expect(info.stdout).toMatch(/loaded: no \(plugin liar could not load: MEM_ERR_PLUGIN_MANIFEST: .*the plugin says its id is "recorder" but its manifest says "liar"\)/);
    const stored = await cli(home, ['store', 'still stored']);
    expect(stored.code).toBe(0);
    expect(stored.stderr).toMatch(/^hybrid-mem: plugin liar: init failed \(MEM_ERR_PLUGIN_FAILED: .*fail-open: it is skipped\n$/);
  });
});

describe('the write commands run the enabled plugins', () => {
  it('store, edit, delete, recall and maintenance fire the hooks; a veto exits 1 with MEM_ERR_PLUGIN_VETO and writes nothing', async () => {
    const home = scratch();
    // The sandbox lets the plugin write only in its own folder, and only with the fs capability.
    const shutdownFile = join(home, 'plugins', 'recorder', 'hooks-of-last-command.json');
    const lastHooks = (): string[] => (JSON.parse(readFileSync(shutdownFile, 'utf8')) as { hooks: string[] }).hooks;
    const config = { vetoWord: 'hunter2', keepWord: 'KEEP', hideWord: 'hidden', shutdownFile };
    const granted = fixture('recorder', (h) => {
      h.capabilities = { ...(h.capabilities as object), fs: true };
    });
    await cli(home, ['plugin', 'install', granted, '--plugin-config', JSON.stringify(config)]);
    const a = json<{ fact: { id: string; tags: string[] } }>(await cli(home, ['store', 'KEEP the audit trail', '--json'])).fact;
    expect(a.tags).toEqual(['seen-by-recorder']);
    expectUserError(await cli(home, ['store', 'the root password is hunter2']), 'MEM_ERR_PLUGIN_VETO', /plugin recorder refused the store: the text mentions hunter2/);
    const edited = json<{ fact: { id: string; text: string } }>(await cli(home, ['edit', a.id, '--text', 'KEEP the whole audit trail', '--json'])).fact;
    expectUserError(await cli(home, ['delete', edited.id]), 'MEM_ERR_PLUGIN_VETO', /plugin recorder refused the delete/);
    const b = json<{ fact: { id: string } }>(await cli(home, ['store', 'a hidden scratch note about the audit', '--json'])).fact;
    expect(lastHooks()).toEqual(['beforeFactStore', 'afterFactStore', 'onShutdown']);
    const recall = json<{ results: { fact: { id: string } }[] }>(await cli(home, ['recall', 'audit', '--json']));
    expect(recall.results.map((h) => h.fact.id)).toEqual([edited.id]);
    expect(lastHooks()).toEqual(['beforeSearch', 'afterSearch', 'onShutdown']);
    expect((await cli(home, ['delete', b.id])).code).toBe(0);
    expect(lastHooks()).toEqual(['beforeFactDelete', 'afterFactDelete', 'onShutdown']);
    expect((await cli(home, ['maintenance'])).code).toBe(0);
    expect(lastHooks()).toEqual(['onMaintenance', 'onShutdown']);
    // Commands that hook nothing do not load plugins.
    expect((await cli(home, ['list'])).code).toBe(0);
    expect(lastHooks()).toEqual(['onMaintenance', 'onShutdown']);
    const stats = json<{ totalFacts: number }>(await cli(home, ['stats', '--json']));
    expect(stats.totalFacts).toBe(1);
  });

  it('plugin run through the real bin: output, exit code and --json; arguments after -- pass through', () => {
    const home = scratch();
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
    const bin = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
    expect(bin('plugin', 'install', fixture('recorder')).status).toBe(0);
    expect(bin('store', 'one fact').status).toBe(0);
    const calls = bin('plugin', 'run', 'recorder', 'calls', '--', '--verbose', 'x');
    expect([calls.status, calls.stdout]).toEqual([0, '0 calls; args ["--verbose","x"]\n']);
    const count = bin('plugin', 'run', 'recorder', 'count');
    expect([count.status, count.stdout]).toEqual([0, 'facts: 1\n']);
    const fail = bin('plugin', 'run', 'recorder', 'fail');
    expect([fail.status, fail.stdout]).toEqual([3, 'failing on purpose\n']);
    const asJson = bin('plugin', 'run', 'recorder', 'calls', '--json');
    expect(JSON.parse(asJson.stdout)).toMatchObject({ plugin: 'recorder', command: 'calls', exitCode: 0, output: '0 calls; args []', result: { calls: 0, args: [], inits: 1 } });
  }, 60_000);

  it('zero cost without plugins: with none installed a store imports nothing of the plugin layer but presence.ts; with one disabled, no host or worker', () => {
    const home = scratch();
    const trace = join(home, 'imports.log');
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1', IMPORT_TRACE_FILE: trace };
    const traced = (...args: string[]): string[] => {
      rmSync(trace, { force: true });
      const r = spawnSync(process.execPath, ['--import', resolve(__dirname, 'fixtures/import-tracer.mjs'), BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return existsSync(trace) ? [...new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((u) => u.replace(/^.*\/src\//, '')))].sort() : [];
    };
    expect(traced('store', 'nothing installed')).toEqual(['plugins/presence.ts']);
    expect(traced('list')).toEqual(['plugins/presence.ts']);
    expect(spawnSync(process.execPath, [BIN, 'plugin', 'install', fixture('recorder'), '--disabled'], { env, encoding: 'utf8' }).status).toBe(0);
    const disabled = traced('store', 'one installed, disabled');
    expect(disabled).toContain('plugins/load.ts');
    expect(disabled.filter((m) => /host|worker|client|facade/.test(m))).toEqual([]);
    expect(spawnSync(process.execPath, [BIN, 'plugin', 'enable', 'recorder'], { env, encoding: 'utf8' }).status).toBe(0);
    expect(traced('store', 'one enabled')).toEqual(expect.arrayContaining(['plugins/host.ts', 'actors/plugins/client.ts']));
  }, 60_000);
});
