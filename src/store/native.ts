/**
 * better-sqlite3's native addon for the running Node. `npm install` builds one, for the Node that ran it;
 * when that one does not load here (another Node version: another ABI), a side-by-side build from
 * `npm run build:native` (<native dir>/better-sqlite3/node-v<ABI>-<platform>-<arch>.node, the native dir being
 * HYBRID_MEM_NATIVE_DIR or the package's native/) is used. With neither,
 * opening a database fails with MEM_ERR_NATIVE_UNAVAILABLE, whose message names the command that fixes it.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../config/package.js';
import { MemoryError } from '../core/errors.js';

/** Where a side-by-side build for this Node would be: under HYBRID_MEM_NATIVE_DIR, else <package>/native. */
export function sideBySidePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const dir = env.HYBRID_MEM_NATIVE_DIR || join(PACKAGE_ROOT, 'native');
  return join(dir, 'better-sqlite3', `node-v${process.versions.modules}-${process.platform}-${process.arch}.node`);
}

/** undefined: the default addon loads; a path: the side-by-side addon. Resolved once per thread. */
let resolved: { binding: string | undefined } | null = null;

/**
 * The probe connections, kept referenced for the life of the process. A host that loads this module more
 * than once (OpenClaw loads each plugin generation afresh) may garbage-collect a generation while its
 * native handles are finalized outside any Node environment, which aborts the process; a probe that is
 * never collected cannot be finalized at such a moment.
 */
const PROBES_KEY = Symbol.for('hybrid-mem.sqlite-probes');
const probes = ((globalThis as Record<symbol, unknown>)[PROBES_KEY] ??= []) as unknown[];

function probe(nativeBinding?: string): void {
  const db = new Database(':memory:', nativeBinding ? { nativeBinding } : {});
  db.close();
  probes.push(db);
}

function isWrongBuild(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  return e?.code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|Could not locate the bindings file|invalid ELF header|undefined symbol/.test(message);
}

/** The `nativeBinding` option for `new Database`: undefined for the default build. */
export function sqliteBinding(): string | undefined {
  if (resolved) return resolved.binding;
  try {
    probe();
    resolved = { binding: undefined };
  } catch (err) {
    if (!isWrongBuild(err)) throw err;
    const path = sideBySidePath();
    if (!existsSync(path)) throw unavailable(err, path);
    try {
      probe(path);
    } catch (cause) {
      throw unavailable(cause, path);
    }
    resolved = { binding: path };
  }
  return resolved.binding;
}

function unavailable(cause: unknown, path: string): MemoryError {
  const message = cause instanceof Error ? cause.message : String(cause);
  const abi = /NODE_MODULE_VERSION (\d+)/.exec(message);
  const detail = abi ? `the installed build is for ABI ${abi[1]}` : message.split('\n')[0];
  return new MemoryError(
    'MEM_ERR_NATIVE_UNAVAILABLE',
    `better-sqlite3 has no build for Node ${process.version} (ABI ${process.versions.modules}) in this install (${detail}). ` +
      `Fix: run "npm run build:native" with this Node in the hybrid-mem folder (it keeps a build per Node version; this one goes to ${path}), ` +
      `or "npm rebuild better-sqlite3" with this Node (replaces the build for the Node that installed it).`,
    { cause },
  );
}
