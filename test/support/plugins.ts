/** Plugin test helpers: fixture plugins (copied to temp dirs when a test changes their manifest), and a service with plugins attached. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MemoryService } from '../../src/memory/service.js';
import { PluginHost } from '../../src/plugins/host.js';
import { readManifest } from '../../src/plugins/manifest.js';
import { openService, tempHome, type TestHome } from '../helpers.js';

export const FIXTURES = resolve(__dirname, '../fixtures/plugins');
export const SECRET_GUARD = resolve(__dirname, '../../plugins/secret-guard');

const temps: string[] = [];

/** The fixture `name`, as is, or copied to a temp dir with its `hybridMem` section changed by `patch`. */
export function fixture(name: string, patch?: (hybridMem: Record<string, unknown>, pkg: Record<string, unknown>) => void): string {
  const dir = join(FIXTURES, name);
  if (!patch) return dir;
  const copy = mkdtempSync(join(tmpdir(), `hybrid-mem-plugin-${name}-`));
  temps.push(copy);
  cpSync(dir, copy, { recursive: true });
  const file = join(copy, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  patch(pkg.hybridMem as Record<string, unknown>, pkg);
  writeFileSync(file, JSON.stringify(pkg, null, 2));
  return copy;
}

export function cleanupFixtures(): void {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
}

export interface PluggedService {
  readonly home: TestHome;
  readonly svc: MemoryService;
  readonly host: PluginHost;
  readonly clock: { now: number; advance(ms: number): void };
  readonly lines: string[];
  close(): Promise<void>;
}

/** A fresh service (real SQLite in a temp dir) with the plugins in `dirs` (each with its config, or a config made from the home) loaded and attached. */
export async function pluggedService(
  plugins: readonly { dir: string; config?: Record<string, unknown> | ((home: TestHome) => Record<string, unknown>) }[],
  userConfig: unknown = { embedding: { enabled: false } },
): Promise<PluggedService> {
  const home = tempHome(userConfig);
  const { svc, clock } = openService(home);
  const lines: string[] = [];
  const host = await PluginHost.start({
    svc,
    plugins: plugins.map((p) => {
      const manifest = readManifest(p.dir);
      return { manifest, config: { ...manifest.config, ...(typeof p.config === 'function' ? p.config(home) : p.config) } };
    }),
    log: (line) => lines.push(line),
  });
  svc.attachPlugins(host);
  return {
    home,
    svc,
    host,
    clock,
    lines,
    close: async () => {
      await svc.close();
      home.cleanup();
    },
  };
}
