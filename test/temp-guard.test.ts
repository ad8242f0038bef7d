/** The run's temp-folder guard (test/support/temp-guard.ts): tests run inside it, and it names leftovers. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leftovers } from './support/temp-guard.js';

describe('temp-folder guard', () => {
  it('this test process, and what it starts, use the run folder', () => {
    expect(basename(tmpdir())).toMatch(/^hybrid-mem-test-run-/);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("os").tmpdir())'], { encoding: 'utf8' });
    expect(child.stdout).toBe(tmpdir());
  });

  it('names what was left behind, but not the shared caches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-'));
    try {
      mkdirSync(join(dir, 'hybrid-mem-chromium-153'));
      mkdirSync(join(dir, 'tsx-0'));
      mkdirSync(join(dir, 'node-compile-cache'));
      mkdirSync(join(dir, 'hybrid-mem-plugin-misbehaving-x1'));
      writeFileSync(join(dir, 'a.lock'), '');
      expect(leftovers(dir)).toEqual(['a.lock', 'hybrid-mem-plugin-misbehaving-x1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
