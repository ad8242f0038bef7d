/**
 * Vitest global set-up: every test run gets its own temp folder (TMPDIR, inherited by the test processes and
 * everything they start), and at the end of the run that folder must be empty but for the caches named in
 * CACHES. Anything else a test left behind fails the run, by name; the folder is then removed either way,
 * so a run never leaves anything in the machine's temp folder.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_BROWSER_DIR } from './browser.js';

/**
 * Shared across the run on purpose: the unpacked bundled browser, tsx's compile cache (tsx-<uid>), and
 * Node's own compile cache (node-compile-cache: tools that call module.enableCompileCache() on Node >= 22,
 * as vite, eslint and the openclaw launcher do, keep it in the temp folder).
 */
const CACHES = [new RegExp(`^${BUNDLED_BROWSER_DIR}$`), /^tsx-[\w-]+$/, /^node-compile-cache$/];

/** What a run left in `dir` besides the caches, sorted. */
export function leftovers(dir: string, caches: readonly RegExp[] = CACHES): string[] {
  return readdirSync(dir)
    .filter((name) => !caches.some((c) => c.test(name)))
    .sort();
}

export function setup(): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-test-run-'));
  process.env.TMPDIR = dir;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    const left = leftovers(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length === 0) return;
    process.stderr.write(`\nFAIL: tests left ${left.length} item(s) in the temp folder (every test removes what it creates):\n${left.map((n) => `  ${n}`).join('\n')}\n`);
    process.exitCode = 1;
  };
}
