/**
 * Where plugins come into a process: `attachEnabledPlugins` reads the registry and, when some plugin is
 * enabled, starts the host and attaches it to the service. Without a registry file (nothing installed) it
 * costs one existsSync; with nothing enabled, one small JSON read. The host, its plugin processes and everything
 * they import are loaded only when some plugin is enabled.
 */
import { MemoryError } from '../core/errors.js';
import type { MemoryService } from '../memory/service.js';
import type { PluginHost } from './host.js';
import { readManifest } from './manifest.js';
import { hasRegistry, packageDirOf, readRegistry, type RegistryEntry } from './registry.js';

export interface AttachOptions {
  /** Load only this plugin (it must be enabled): `plugin run`, `plugin info --load`. */
  readonly only?: string;
  readonly log?: (line: string) => void;
  readonly logLevel?: 'warn' | 'info' | 'debug';
}

/** The enabled registry entries (all of them, or just `only`). */
export function enabledPlugins(dataDir: string, only?: string): RegistryEntry[] {
  if (!hasRegistry(dataDir)) return [];
  return readRegistry(dataDir).plugins.filter((e) => e.enabled && (only === undefined || e.id === only));
}

/**
 * Load the enabled plugins and attach them to `svc`; returns the host, or null when none is enabled.
 * A plugin whose manifest cannot be read is an error (MEM_ERR_PLUGIN_MANIFEST): it may be a guard, and an
 * operation must not go on unguarded because its folder went missing. `hybrid-mem plugin disable` fixes it.
 */
export async function attachEnabledPlugins(svc: MemoryService, options: AttachOptions = {}): Promise<PluginHost | null> {
  const entries = enabledPlugins(svc.config.dataDir, options.only);
  if (entries.length === 0) return null;
  const plugins = entries.map((e) => {
    const manifest = readManifest(packageDirOf(svc.config.dataDir, e));
    if (manifest.id !== e.id) throw new MemoryError('MEM_ERR_PLUGIN_MANIFEST', `the plugin installed as ${e.id} now says its id is ${manifest.id}`);
    return { manifest, config: Object.freeze({ ...manifest.config, ...e.config }) };
  });
  const { PluginHost } = await import('./host.js');
  const host = await PluginHost.start({ svc, plugins, log: options.log, logLevel: options.logLevel });
  svc.attachPlugins(host);
  return host;
}
