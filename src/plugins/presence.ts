/**
 * Is any plugin installed? The one check a CLI command pays when no plugin is installed: an existsSync
 * on `<data dir>/plugins/registry.json`, with nothing else of the plugin layer imported.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryService } from '../memory/service.js';
import type { AttachOptions } from './load.js';

export const registryPath = (dataDir: string): string => join(dataDir, 'plugins', 'registry.json');

export function hasRegistry(dataDir: string): boolean {
  return existsSync(registryPath(dataDir));
}

/** Attach the data dir's enabled plugins to `svc`; with none installed, the plugin layer is not even imported. */
export async function attachInstalledPlugins(svc: MemoryService, options: AttachOptions): Promise<void> {
  if (!hasRegistry(svc.config.dataDir)) return;
  const { attachEnabledPlugins } = await import('./load.js');
  await attachEnabledPlugins(svc, options);
}
