/**
 * The SQLite driver holds on every supported Node: the stress that aborted better-sqlite3 12 on Node 24
 * (50k one-off statements with forced GC, a worker torn down with its connection open, close, exit) runs
 * through hybrid-mem's database module on Node 20, 22 and 24 (the latter two from the npm registry, test
 * cache), three times each: exit status 0 every time, no abort, no assertion text.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTALL_TIMEOUT_MS, ROOT, nodeBinary, supported } from './support/runtimes.js';

const RUNS = 3;

describe.skipIf(!supported).each([[20], [22], [24]] as const)('on Node %i', (major) => {
  it(`survives ${RUNS} runs of open, 50k one-off statements, forced GC, worker teardown, close, exit`, () => {
    const node = nodeBinary(major);
    const expected = major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
    for (let run = 0; run < RUNS; run++) {
      const dir = mkdtempSync(join(tmpdir(), `hm-sqlite-stress-${major}-`));
      try {
        const r = spawnSync(node, ['--expose-gc', '--import', 'tsx', join(ROOT, 'test/support/sqlite-stress.ts'), dir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
        expect({ status: r.status, signal: r.signal }, r.stderr.slice(-2000)).toEqual({ status: 0, signal: null });
        expect(r.stderr).not.toMatch(/Assertion failed|RemoveEnvironmentCleanupHook|Segmentation/);
        const out = JSON.parse(r.stdout) as { node: string; driver: string; sum: number; workerSum: number };
        expect(out.node.startsWith(`v${major}.`)).toBe(true);
        expect(out.driver).toBe(expected);
        expect(out.sum).toBeGreaterThan(0);
        expect(out.workerSum).toBeGreaterThan(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, INSTALL_TIMEOUT_MS);
});
