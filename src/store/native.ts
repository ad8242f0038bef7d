/**
 * The SQLite driver for the running Node, chosen once per thread. Every connection is opened through it
 * (db.ts), so the choice lives here only.
 *
 * - Node >= 22: better-sqlite3 13.x (the `better-sqlite3-napi` alias). It is built on node-addon-api and
 *   ships prebuilt addons inside the package (linux, macOS, Windows; x64 and arm64; glibc and musl), so
 *   nothing compiles at install. Its Statement and Database objects are finalized safely by any GC, which
 *   is what Node 24 needs: better-sqlite3 <= 12 derives them from `node::ObjectWrap`, and Node 24's cleanup
 *   hook registration there aborts the process (`RemoveEnvironmentCleanupHook` assertion) when a statement
 *   is collected outside a JS context (idle GC, worker or process teardown).
 * - Node 20: better-sqlite3 12.x (an optional dependency, built by `npm install`). 13.x needs Node >= 22 and
 *   crashes on Node 20; 12.x has no such abort there.
 *
 * HYBRID_MEM_SQLITE_DRIVER names another better-sqlite3 install (a package name or a folder) for the cases
 * the default does not cover; 12.x is refused on Node 24. A driver that does not load fails with
 * MEM_ERR_NATIVE_UNAVAILABLE, whose message names the fix.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { MemoryError } from '../core/errors.js';

export type SqliteDriver = typeof BetterSqlite3;

const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package (or folder) that serves this Node. */
export function driverPackage(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HYBRID_MEM_SQLITE_DRIVER || (NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3');
}

/**
 * The probe connections, kept referenced for the life of the process. A host that loads this module more
 * than once (OpenClaw loads each plugin generation afresh) must not have a generation's probe finalized
 * while the host tears the generation down.
 */
const PROBES_KEY = Symbol.for('hybrid-mem.sqlite-probes');
const probes = ((globalThis as Record<symbol, unknown>)[PROBES_KEY] ??= []) as unknown[];

let resolved: SqliteDriver | null = null;

/** The better-sqlite3 constructor for this Node; throws MEM_ERR_NATIVE_UNAVAILABLE when it does not load. */
export function sqliteDriver(): SqliteDriver {
  if (resolved) return resolved;
  const name = driverPackage();
  let driver: SqliteDriver;
  let version: string;
  try {
    driver = require(name) as SqliteDriver;
    version = (require(isAbsolute(name) ? join(name, 'package.json') : `${name}/package.json`) as { version: string }).version;
  } catch (cause) {
    throw unavailable(cause, name);
  }
  if (NODE_MAJOR >= 24 && Number(version.split('.')[0]) < 13) {
    throw new MemoryError(
      'MEM_ERR_NATIVE_UNAVAILABLE',
      `better-sqlite3 ${version} (${name}) aborts the process on Node ${process.version} when the garbage collector finalizes a statement; ` +
        'use better-sqlite3 13 or later on Node 24: unset HYBRID_MEM_SQLITE_DRIVER to use the one hybrid-mem ships.',
    );
  }
  try {
    const db = new driver(':memory:');
    db.close();
    probes.push(db);
  } catch (cause) {
    throw unavailable(cause, name, version);
  }
  resolved = driver;
  return driver;
}

function unavailable(cause: unknown, name: string, version?: string): MemoryError {
  const message = cause instanceof Error ? cause.message : String(cause);
  const abi = /NODE_MODULE_VERSION (\d+)/.exec(message);
  const detail = abi ? `its build is for ABI ${abi[1]}` : message.split('\n')[0];
  const what = version ? `better-sqlite3 ${version} (${name})` : `the SQLite driver ${name}`;
  const fix =
    name === 'better-sqlite3'
      ? 'run "npm rebuild better-sqlite3" in the hybrid-mem folder with this Node (it needs python3, make and a C++ compiler)'
      : name === 'better-sqlite3-napi'
        ? `its prebuilt addons cover linux, macOS and Windows on x64 and arm64; elsewhere run "npx node-gyp rebuild" in node_modules/better-sqlite3-napi, or reinstall hybrid-mem with this Node`
        : 'point HYBRID_MEM_SQLITE_DRIVER at a better-sqlite3 install built for this Node, or unset it';
  return new MemoryError('MEM_ERR_NATIVE_UNAVAILABLE', `${what} does not load on Node ${process.version} (ABI ${process.versions.modules}, ${process.platform}-${process.arch}): ${detail}. Fix: ${fix}.`, { cause });
}
