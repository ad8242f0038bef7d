/**
 * What a plugin's process may touch (the mechanism is src/actors/plugins/launch.ts and guard.ts):
 *
 *   read    the plugin's folder: the package, or for an npm install the whole `<data dir>/plugins/<id>`
 *           (its dependencies sit beside it in node_modules); plus the `fs` capability's paths
 *   write   nothing; with `fs`, the same folder and paths
 *   network nothing; with `network`, everything (Node's permission model has no finer grain)
 *
 * The data dir is never granted: not the folder, not an ancestor of it (which would contain it), not a
 * path inside it other than the plugin's own folder (so never vault.key, memory.db or the registry). A
 * manifest asking for one is refused when the plugin loads (MEM_ERR_PLUGIN_MANIFEST), never narrowed in
 * silence. Node's permission model follows symbolic links, so a link inside a granted folder pointing
 * outside what is granted would open a way around it: such a link refuses the load too (a plugin cannot
 * make new links at run time; creating one needs full read and write permission).
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { SandboxSpec } from '../actors/plugins/contract.js';
import { MemoryError } from '../core/errors.js';
import type { PluginManifest } from './manifest.js';
import { pluginHome } from './registry.js';

/** Entries a folder walk looks at before it gives up (and refuses the load rather than guess). */
const MAX_ENTRIES = 100_000;

const real = (p: string): string => (existsSync(p) ? realpathSync(p) : resolve(p));
const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

function refused(m: PluginManifest, message: string, details?: Record<string, unknown>): MemoryError {
  return new MemoryError('MEM_ERR_PLUGIN_MANIFEST', `plugin ${m.id}: ${message}`, details ? { details } : undefined);
}

/** Refuse symbolic links under `root` that lead outside `granted`. */
function checkLinks(m: PluginManifest, root: string, granted: readonly string[]): void {
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return;
  const todo = [root];
  let seen = 0;
  while (todo.length > 0) {
    const dir = todo.pop() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES) throw refused(m, `${root} holds more than ${MAX_ENTRIES} files; the sandbox cannot check it for links out of it`);
      const path = join(dir, entry.name);
      if (entry.isDirectory()) todo.push(path);
      else if (entry.isSymbolicLink()) {
        // Where it points, even if nothing is there yet (a dangling link could be filled later).
        const target = real(resolve(dir, readlinkSync(path)));
        if (!granted.some((g) => within(target, g))) throw refused(m, `${path} is a symbolic link to ${target}, outside what the plugin may read; the sandbox would follow it, so the plugin is not loaded`, { path, target });
      }
    }
  }
}

/** The sandbox of plugin `m` in the data dir `dataDir` (throws MEM_ERR_PLUGIN_MANIFEST when it cannot be granted). */
export function sandboxFor(m: PluginManifest, dataDir: string): SandboxSpec {
  const data = real(dataDir);
  const home = real(pluginHome(dataDir, m.id));
  const forbidden = (p: string): boolean => within(data, p) || (within(p, data) && !within(p, home));
  const dir = real(m.dir);
  if (forbidden(dir)) throw refused(m, `its folder ${dir} is or contains the data dir ${data}; a plugin is never given access to it`);
  // An installed plugin's dependencies sit beside its package in <data dir>/plugins/<id>/node_modules.
  const folder = within(dir, home) ? home : dir;
  const extra = m.fsPaths.map(real);
  for (const p of extra) {
    if (forbidden(p)) throw refused(m, `the fs capability asks for ${p}, which is the data dir, inside it or contains it; a plugin is never given access to it`, { path: 'hybridMem.capabilities.fs', received: p });
  }
  const read = [folder, ...(m.capabilities.fs ? extra : [])];
  for (const r of read) checkLinks(m, r, read);
  return Object.freeze({ read, write: m.capabilities.fs ? read : [], network: m.capabilities.network });
}
