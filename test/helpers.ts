/** Shared test helpers: a fresh data dir per test with a real SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type ResolvedConfig } from '../src/config/resolve.js';
import { MemoryError } from '../src/core/errors.js';
import { MemoryService } from '../src/memory/service.js';

export interface TestHome {
  readonly dir: string;
  readonly config: ResolvedConfig;
  readonly env: Record<string, string>;
  cleanup(): void;
}

export function tempHome(userConfig: unknown = {}): TestHome {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-test-'));
  const env = { HYBRID_MEM_HOME: dir };
  const config = resolveConfig(userConfig, { env });
  return { dir, config, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A service on a fresh database with a controllable clock. */
export function openService(home: TestHome, start = Date.UTC(2026, 0, 1)): { svc: MemoryService; clock: { now: number; advance(ms: number): void } } {
  const clock = {
    now: start,
    advance(ms: number) {
      this.now += ms;
    },
  };
  const svc = MemoryService.open({ config: home.config, env: home.env, now: () => clock.now });
  return { svc, clock };
}

/** The MemoryError `fn` throws (any other throw, or none, fails the test). */
export function errorOf(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (err) {
    if (err instanceof MemoryError) return err;
    throw err;
  }
  throw new Error('expected a MemoryError, nothing was thrown');
}
