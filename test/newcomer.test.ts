/**
 * A newcomer's first commands, as the README gives them, in a clean clone with no browser on PATH:
 * `npm install`, then `npm start` (the service on its embedded default database, ~/.hybrid-mem, serving
 * the graph app), then the README's test command on the graph app's end-to-end tests (the browser must
 * come from the npm package, since none is on PATH). The clone is of the committed tree (HEAD): what a
 * newcomer gets. HOME is a folder of the test's (so ~/.hybrid-mem is too); npm keeps the real npm cache, so
 * packages come from the cache or the registry, as for anyone who installed once before.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemBrowser } from './support/browser.js';
import { ROOT, supported } from './support/runtimes.js';

const INSTALL_MS = 10 * 60_000;

/** Our environment minus what marks a test runner or our settings, with PATH cleared of every browser. */
function newcomerEnv(dir: string): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('HYBRID_MEM') && !['NODE_ENV', 'TEST', 'CHROME_PATH'].includes(k)),
  ) as Record<string, string>;
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d && systemBrowser({ PATH: d }) === null)
    .join(delimiter);
  mkdirSync(join(dir, 'home'), { recursive: true });
  return { ...inherited, PATH: path, HOME: join(dir, 'home'), npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'), npm_config_audit: 'false', npm_config_fund: 'false' };
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeout = INSTALL_MS) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 * 2 ** 20 });
  return { status: r.status, signal: r.signal, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

describe.skipIf(!supported)('a newcomer in a clean clone: npm install, npm start, npm test (no browser on PATH)', () => {
  let dir: string;
  let clone: string;
  let env: Record<string, string>;
  let server: ChildProcess | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hm-newcomer-'));
    clone = join(dir, 'hybrid-mem');
    env = newcomerEnv(dir);
    expect(systemBrowser(env)).toBeNull();
    const cloned = run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], dir, env, 60_000);
    expect(cloned.status, cloned.out).toBe(0);
  }, 90_000);

  afterAll(() => {
    server?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('npm install: dependencies, the build and the graph app, with every install script reviewed', () => {
    const r = run('npm', ['install'], clone, env);
    expect(r.status, r.out.slice(-4000)).toBe(0);
    expect(r.out).not.toMatch(/not yet covered by allowScripts/);
    for (const f of ['dist/main.js', 'app/dist/index.html', 'src/wasm/vector-core.wasm']) expect(existsSync(join(clone, f)), f).toBe(true);
  }, INSTALL_MS);

  it('npm start: serves the graph app on the default database (~/.hybrid-mem) and stops on Ctrl-C', async () => {
    // Port 0 (the config's dashboard.port is what `serve --port` sets): 7700 may be in use on this machine.
    server = spawn('npm', ['start', '--', '--port', '0'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    server.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    server.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 60_000;
    let url: string | undefined;
    while (!url && Date.now() < deadline) {
      url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (!url) await new Promise((r) => setTimeout(r, 100));
    }
    expect(url, out).toBeDefined();
    const page = await fetch(`${url}/graph`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    expect(existsSync(join(dir, 'home', '.hybrid-mem', 'memory.db'))).toBe(true);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => server?.on('close', (code, signal) => done({ code, signal })));
    // Ctrl-C reaches the whole foreground group: npm and the service under it. The service stops cleanly
    // (its last line); npm itself ends as a shell's program does on Ctrl-C, by the signal or with 0.
    process.kill(-(server.pid as number), 'SIGINT');
    const end = await exited;
    expect([0, 'SIGINT'], out).toContain(end.code ?? end.signal);
    expect(out).toMatch(/hybrid-mem stopped\n/);
    expect(out).not.toMatch(/MEM_ERR|Error/);
    server = undefined;
  }, 90_000);

  it("npm test (the graph app's end-to-end tests): the browser comes from the npm package", () => {
    // token-and-placeholder launches whatever browser the machine has (test/support/browser.ts): here, none on PATH.
    const r = run('npm', ['test', '--', 'test/e2e/bundled-browser.test.ts', 'test/e2e/token-and-placeholder.test.ts'], clone, env, 5 * 60_000);
    expect(r.status, r.out.slice(-4000)).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(r.out.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Test Files +2 passed/);
  }, 5 * 60_000);
});
