/**
 * usearch has no structural check of its own: a damaged file whose manifest was made to match (size and
 * sha256 rewritten) aborts the whole process inside the native loader (`free(): corrupted unsorted
 * chunks`, exit 134), on every start. Two guards (issue 20):
 *
 * - **Probe**: a file this install did not write or load itself is first loaded in a separate, short-lived
 *   Node process with the same settings (load, size, dimension, one search). If that process dies, or
 *   answers wrong, the file is not loaded here: the index is rebuilt from SQLite. A file written or loaded
 *   here is remembered (`<index>.known`, its sha256), so a normal start pays nothing.
 * - **Breaker**: before the in-process load, `<index>.loading-<pid>` records the file's sha256; it is
 *   removed once the load returns. A marker left by a process that is gone means that load never returned:
 *   the process crashed, or exited on its own mid-load (a one-shot command does). A marker of a live process
 *   is a load in progress elsewhere (two processes on one data dir). Two loads of the same file that never
 *   returned, and the file is set aside, never loaded again: no file in the data dir can crash-loop.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { alive, discard } from './index-file.js';

const knownPath = (indexPath: string): string => `${indexPath}.known`;
const loadingPath = (indexPath: string, pid = process.pid): string => `${indexPath}.loading-${pid}`;
/** Loads of one file that never returned before it is set aside. */
const FAILED_LOADS = 2;

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** This install wrote or loaded the file with this sha256: no probe needed. */
export function isKnown(indexPath: string, sha256: string): boolean {
  return readText(knownPath(indexPath)) === sha256;
}

export function markKnown(indexPath: string, sha256: string): void {
  writeFileSync(knownPath(indexPath), `${sha256}\n`, { mode: 0o600 });
}

/** The markers of loads that never returned (their process is gone), by the sha256 they were loading. */
function unfinished(indexPath: string): { file: string; sha256: string | null }[] {
  const base = basename(indexPath);
  let names: string[] = [];
  try {
    names = readdirSync(dirname(indexPath));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const m = /^(.*)\.loading-(\d+)$/.exec(name);
    if (!m || m[1] !== base || Number(m[2]) === process.pid || alive(Number(m[2]))) return [];
    const file = join(dirname(indexPath), name);
    return [{ file, sha256: readText(file) }];
  });
}

/** Loads of this very file started and never returned, often enough to call it a crash loop. */
export function crashedBefore(indexPath: string, sha256: string): boolean {
  const left = unfinished(indexPath);
  // Markers of other files are stale: the file they were loading is gone.
  for (const u of left) if (u.sha256 !== sha256) discard(u.file);
  return left.filter((u) => u.sha256 === sha256).length >= FAILED_LOADS;
}

/** Set a file that crashed the loader aside (kept for a bug report, never loaded again). */
export function setAside(indexPath: string): void {
  try {
    renameSync(indexPath, `${indexPath}.damaged`);
  } catch {
    discard(indexPath);
  }
  for (const u of unfinished(indexPath)) discard(u.file);
}

/** Around the in-process load: the breaker is armed while `load` runs. */
export function guardedLoad<T>(indexPath: string, sha256: string, load: () => T): T {
  writeFileSync(loadingPath(indexPath), `${sha256}\n`, { mode: 0o600 });
  try {
    return load();
  } finally {
    discard(loadingPath(indexPath));
  }
}

/** What the probe process runs: plain CommonJS, usearch resolved by the parent. */
const PROBE = `
const [usearchPath, file, dim, count] = process.argv.slice(1);
const { Index, MetricKind, ScalarKind } = require(usearchPath);
const index = new Index({ dimensions: Number(dim), metric: MetricKind.Cos, quantization: ScalarKind.F32, connectivity: 0, expansion_add: 0, expansion_search: 0, multi: false });
index.load(file);
const size = Number(index.size());
if (size !== Number(count) || Number(index.dimensions()) !== Number(dim)) { process.stdout.write('size ' + size + ' dim ' + index.dimensions()); process.exit(3); }
if (size > 0) index.search(new Float32Array(Number(dim)).fill(1 / Math.sqrt(Number(dim))), Math.min(10, size), 0);
process.stdout.write('ok');
`;

/**
 * Load `file` in a separate process; null when it loaded, answered its size and dimension and searched,
 * else what went wrong (a signal, an exit code, a wrong size). Bounded: 2 minutes.
 */
export function probeIndexFile(file: string, dim: number, count: number): Promise<string | null> {
  const usearch = createRequire(import.meta.url).resolve('usearch');
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', PROBE, usearch, file, String(dim), String(count)], { timeout: 120_000, maxBuffer: 1 << 16, env: {} }, (err, stdout, stderr) => {
      if (!err && stdout === 'ok') return resolve(null);
      const e = err as (NodeJS.ErrnoException & { signal?: string | null; code?: number | string | null; killed?: boolean }) | null;
      const how = e?.killed ? 'timed out' : e?.signal ? `died of ${e.signal}` : e ? `exited with ${String(e.code)}` : `answered ${stdout}`;
      const said = `${stdout} ${stderr}`.trim().split('\n')[0]?.slice(0, 200) ?? '';
      resolve(`${how}${said ? `: ${said}` : ''}`);
    });
  });
}
