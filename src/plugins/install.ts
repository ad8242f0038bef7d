/**
 * The plugin operations behind `hybrid-mem plugin ...`: list, install, remove, enable, disable, info and
 * config. Install never leaves anything half-installed: the package is put together in a temp folder
 * inside `<data dir>/plugins` (a local folder copied, or `npm install --prefix <tmp> <spec>` for a
 * registry name or a packed tarball), its manifest is checked, and only then is the folder renamed into
 * place and the registry written; any failure removes the temp folder and leaves the registry as it was.
 * Changes apply to processes started afterwards (restart `hybrid-mem serve`).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { readManifest, type PluginManifest } from './manifest.js';
import { changeRegistry, findEntry, packageDirOf, pluginHome, pluginsDir, readRegistry, updateEntry, type RegistryEntry } from './registry.js';

export interface InstallOptions {
  /** 'local': copy a folder; 'npm': npm install a registry name or a tarball. */
  readonly from: 'local' | 'npm';
  /** Resolve relative paths against this folder. */
  readonly cwd: string;
  /** Install it disabled (default: enabled). */
  readonly disabled?: boolean;
  readonly config?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The npm command (default 'npm'). */
  readonly npm?: string;
  readonly now?: number;
}

export interface InstalledPlugin {
  readonly entry: RegistryEntry;
  readonly manifest: PluginManifest;
}

export interface ListedPlugin {
  readonly entry: RegistryEntry;
  /** null when the installed package's manifest no longer reads (then `error` says why). */
  readonly manifest: PluginManifest | null;
  readonly error: string | null;
}

const installError = (message: string, cause?: unknown): MemoryError => new MemoryError('MEM_ERR_PLUGIN_INSTALL', `${message}; nothing was installed`, cause === undefined ? undefined : { cause });

/** A spec npm should read as a file: an existing path (a packed .tgz or a folder). */
function npmSpec(spec: string, cwd: string): string {
  const looksLikePath = /^(?:\.{1,2}[\\/]|[\\/]|~)/.test(spec) || /\.(?:tgz|tar\.gz|tar)$/.test(spec);
  if (!looksLikePath) return spec;
  const abs = resolve(cwd, spec);
  if (!existsSync(abs)) throw installError(`no such file ${abs}`);
  return abs;
}

function runNpm(npm: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  return new Promise((done, fail) => {
    execFile(npm, [...args], { cwd, env: { ...env } as NodeJS.ProcessEnv, timeout: 5 * 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (!err) return done();
      const lines = String(stderr).split('\n').filter((l) => l.trim() !== '' && !/^npm warn/i.test(l) && !/complete log of this run/i.test(l));
      const tail = lines.slice(0, 3).join(' | ');
      fail(installError(`npm install failed (${(err as NodeJS.ErrnoException).code ?? 'exit'}): ${tail || err.message}`, err));
    });
  });
}

/** Build the package in `stage`: its path inside the plugin folder ('' or node_modules/<name>) and the source to record. */
async function stagePackage(spec: string, stage: string, o: InstallOptions): Promise<{ packagePath: string; source: string }> {
  if (o.from === 'local') {
    const src = resolve(o.cwd, spec);
    if (!existsSync(src) || !statSync(src).isDirectory()) throw installError(`no folder ${src} (--local installs a plugin folder; --npm a package name or a packed .tgz)`);
    cpSync(src, stage, { recursive: true, filter: (path) => !relative(src, path).split(sep).includes('.git') });
    return { packagePath: '', source: src };
  }
  mkdirSync(stage);
  // A package.json of its own, so npm does not take a parent folder's project for ours.
  writeFileSync(join(stage, 'package.json'), '{ "private": true }\n');
  const what = npmSpec(spec, o.cwd);
  await runNpm(o.npm ?? 'npm', ['install', '--prefix', stage, '--no-audit', '--no-fund', '--ignore-scripts', '--omit=dev', what], stage, o.env ?? process.env);
  const deps = Object.keys((JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {});
  if (deps.length !== 1) throw installError(`npm install ${spec} did not install exactly one package (found ${deps.length})`);
  return { packagePath: join('node_modules', deps[0] as string), source: what };
}

export async function installPlugin(dataDir: string, spec: string, o: InstallOptions): Promise<InstalledPlugin> {
  if (spec.trim() === '') throw new MemoryError('MEM_ERR_INVALID_INPUT', 'plugin install: expected a package name or a path, received ""');
  const root = pluginsDir(dataDir);
  mkdirSync(root, { recursive: true });
  const tmp = mkdtempSync(join(root, '.install-'));
  try {
    const stage = join(tmp, 'package');
    const { packagePath, source } = await stagePackage(spec, stage, o);
    const manifest = readManifest(join(stage, packagePath));
    const entry: RegistryEntry = {
      id: manifest.id,
      enabled: o.disabled !== true,
      source: { kind: o.from, spec: source },
      packagePath,
      installedAt: o.now ?? Date.now(),
      config: { ...o.config },
    };
    const home = pluginHome(dataDir, manifest.id);
    let moved = false;
    try {
      changeRegistry(dataDir, (registry) => {
        if (registry.plugins.some((p) => p.id === manifest.id)) {
          throw new MemoryError('MEM_ERR_PLUGIN_EXISTS', `a plugin with id ${manifest.id} is already installed (hybrid-mem plugin remove ${manifest.id} first); nothing was installed`);
        }
        rmSync(home, { recursive: true, force: true }); // a leftover of an interrupted remove: not in the registry
        renameSync(stage, home);
        moved = true;
        return { registry: { version: 1, plugins: [...registry.plugins, entry] }, result: null };
      });
    } catch (err) {
      // The registry was not written: the folder must not stay behind either.
      if (moved) rmSync(home, { recursive: true, force: true });
      throw err;
    }
    return { entry, manifest: readManifest(packageDirOf(dataDir, entry)) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Uninstall: the registry entry goes first (a crash then leaves only an unused folder), then the folder. */
export function removePlugin(dataDir: string, id: string): RegistryEntry {
  const entry = changeRegistry(dataDir, (registry) => ({ registry: { version: 1, plugins: registry.plugins.filter((p) => p.id !== id) }, result: findEntry(registry, id) }));
  rmSync(pluginHome(dataDir, id), { recursive: true, force: true });
  return entry;
}

function changeEntry(dataDir: string, id: string, change: (e: RegistryEntry) => RegistryEntry): RegistryEntry {
  return changeRegistry(dataDir, (registry) => {
    const next = updateEntry(registry, id, change);
    return { registry: next, result: findEntry(next, id) };
  });
}

export function setEnabled(dataDir: string, id: string, enabled: boolean): RegistryEntry {
  return changeEntry(dataDir, id, (e) => ({ ...e, enabled }));
}

/** Replace the plugin's config overlay (the manifest's defaults stay underneath). */
export function setPluginConfig(dataDir: string, id: string, config: Readonly<Record<string, unknown>>): RegistryEntry {
  return changeEntry(dataDir, id, (e) => ({ ...e, config: { ...config } }));
}

function listed(dataDir: string, entry: RegistryEntry): ListedPlugin {
  try {
    return { entry, manifest: readManifest(packageDirOf(dataDir, entry)), error: null };
  } catch (err) {
    return { entry, manifest: null, error: err instanceof Error ? err.message : String(err) };
  }
}

export function listPlugins(dataDir: string): ListedPlugin[] {
  return readRegistry(dataDir).plugins.map((e) => listed(dataDir, e));
}

export function pluginInfo(dataDir: string, id: string): ListedPlugin {
  return listed(dataDir, findEntry(readRegistry(dataDir), id));
}
