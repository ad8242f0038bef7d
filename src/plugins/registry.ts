/**
 * The plugin registry: `<data dir>/plugins/registry.json`, the list of installed plugins (where each one
 * lives, whether it is enabled, its config). Installed packages live beside it in `<data dir>/plugins/<id>/`.
 * Written atomically (temp file, fsync, rename), so a crash leaves the old or the new list, never half.
 * No registry file means no plugin is installed: the one check every command pays (an existsSync).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues, issuesMessage } from '../config/issues.js';
import { MemoryError } from '../core/errors.js';
import { PLUGIN_ID_PATTERN } from '../core/plugin-names.js';
import { hasRegistry, registryPath } from './presence.js';

const entrySchema = z.strictObject({
  id: z.string().regex(PLUGIN_ID_PATTERN),
  enabled: z.boolean(),
  source: z.strictObject({ kind: z.enum(['local', 'npm']), spec: z.string().min(1) }),
  /** The package folder, relative to `<data dir>/plugins/<id>` ('' when the package is that folder). */
  packagePath: z.string().refine((p) => !p.split(/[\\/]/).includes('..'), 'a path inside the plugin folder'),
  installedAt: z.int().min(0),
  /** Overlaid on the manifest's default config. */
  config: z.record(z.string(), z.unknown()).default({}),
});

const registrySchema = z.strictObject({ version: z.literal(1), plugins: z.array(entrySchema) });

export type RegistryEntry = z.output<typeof entrySchema>;
export interface Registry {
  readonly version: 1;
  readonly plugins: readonly RegistryEntry[];
}

export const pluginsDir = (dataDir: string): string => join(dataDir, 'plugins');
export { hasRegistry, registryPath };
/** Where the plugin `id` is installed. */
export const pluginHome = (dataDir: string, id: string): string => join(pluginsDir(dataDir), id);
export const packageDirOf = (dataDir: string, e: RegistryEntry): string => join(pluginHome(dataDir, e.id), e.packagePath);

export function readRegistry(dataDir: string): Registry {
  const file = registryPath(dataDir);
  if (!existsSync(file)) return { version: 1, plugins: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new MemoryError('MEM_ERR_CONFIG_UNREADABLE', `the plugin registry ${file} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  const r = registrySchema.safeParse(doc);
  if (!r.success) throw new MemoryError('MEM_ERR_CONFIG_INVALID', `the plugin registry ${file} is damaged: ${issuesMessage(describeIssues(r.error, doc, 'registry', 'field'))}`);
  return r.data;
}

export function writeRegistry(dataDir: string, registry: Registry): void {
  mkdirSync(pluginsDir(dataDir), { recursive: true });
  const file = registryPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(registry, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

const LOCK_WAIT_MS = 15_000;
/** A lock older than this belongs to a process that died holding it. */
const LOCK_STALE_MS = 60_000;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Read, change and write the registry under an exclusive lock (registry.json.lock, created with O_EXCL),
 * so `plugin` commands running at once in several processes never lose each other's writes. `change`
 * may throw: nothing is written then. Waits up to 15 s for another holder (MEM_ERR_DB_BUSY after that).
 */
export function changeRegistry<T>(dataDir: string, change: (registry: Registry) => { registry: Registry; result: T }): T {
  mkdirSync(pluginsDir(dataDir), { recursive: true });
  const lock = `${registryPath(dataDir)}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | null = null;
  while (fd === null) {
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new MemoryError('MEM_ERR_DB_BUSY', `the plugin registry stayed locked by another hybrid-mem process for ${LOCK_WAIT_MS / 1000} s (${lock}; remove it if no plugin command is running)`);
      else pause(25);
    }
  }
  try {
    const { registry, result } = change(readRegistry(dataDir));
    writeRegistry(dataDir, registry);
    return result;
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/** The entry for `id`, or MEM_ERR_PLUGIN_NOT_FOUND. */
export function findEntry(registry: Registry, id: string): RegistryEntry {
  const e = registry.plugins.find((p) => p.id === id);
  if (!e) {
    const known = registry.plugins.map((p) => p.id);
    throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `no installed plugin ${JSON.stringify(id)} (${known.length ? `installed: ${known.join(', ')}` : 'none is installed'})`);
  }
  return e;
}

/** The registry with `id`'s entry replaced by `change(entry)`. */
export function updateEntry(registry: Registry, id: string, change: (e: RegistryEntry) => RegistryEntry): Registry {
  findEntry(registry, id);
  return { version: 1, plugins: registry.plugins.map((p) => (p.id === id ? change(p) : p)) };
}
