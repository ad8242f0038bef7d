/**
 * Is any plugin installed? The one check a CLI command pays when no plugin is installed: an existsSync
 * on `<data dir>/plugins/registry.json`, with nothing else of the plugin layer imported.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const registryPath = (dataDir: string): string => join(dataDir, 'plugins', 'registry.json');

export function hasRegistry(dataDir: string): boolean {
  return existsSync(registryPath(dataDir));
}
