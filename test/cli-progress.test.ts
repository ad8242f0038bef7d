/**
 * Progress on long CLI work, as a user sees it: on a terminal (a real pseudo-terminal from `script`), import
 * and export draw one line redrawn in place with count, rate and time left; piped, or with --json, they
 * print no progress at all. The reporter itself is checked with a fake clock.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressReporter } from '../src/cli/progress.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../src/memory/transfer.js';

const BIN = join(fileURLToPath(new URL('..', import.meta.url)), 'bin', 'hybrid-mem.js');
const FACTS = 3000;

describe('import and export progress', () => {
  let dir: string;
  const env = () => ({ ...process.env, HYBRID_MEM_HOME: join(dir, 'home'), HYBRID_MEM_FROM_SOURCE: '1', TERM: 'dumb' });
  /** Run the CLI on a pseudo-terminal (stdout and stderr both on it). */
  const onTerminal = (args: string[]) => spawnSync('script', ['-qec', [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], { env: env(), encoding: 'utf8', timeout: 120_000 });
  const piped = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: env(), encoding: 'utf8', timeout: 120_000 });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hm-cli-progress-'));
    const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
    const facts = Array.from({ length: FACTS }, (_, i) => ({ text: `Worker ${i} drains queue q${i}`, createdAt: at, updatedAt: at, validFrom: at }));
    writeFileSync(join(dir, 'in.json'), JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: at, facts, links: [], vault: [] }));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('piped: the import prints its result and no progress', () => {
    const r = piped(['import', join(dir, 'in.json'), '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`imported ${FACTS} facts, 0 links (dry run: nothing was written)`);
    expect(r.stdout).not.toContain('importing [');
  });

  it('on a terminal: import and export draw a progress line that ends at the total', () => {
    const imported = onTerminal(['import', join(dir, 'in.json')]);
    expect(imported.status, imported.stdout).toBe(0);
    expect(imported.stdout).toMatch(new RegExp(`\\rimporting \\[#{30}\\] ${FACTS}/${FACTS} \\(\\d+/s\\)`));
    expect(imported.stdout).toContain(`imported ${FACTS} facts, 0 links`);
    const exported = onTerminal(['export', join(dir, 'out.json')]);
    expect(exported.status, exported.stdout).toBe(0);
    expect(exported.stdout).toMatch(new RegExp(`\\rexporting \\[#{30}\\] ${FACTS}/${FACTS} \\(\\d+/s\\)`));
    expect(exported.stdout).toContain(`exported ${FACTS} facts, 0 links, 0 vault pointers to ${join(dir, 'out.json')}`);
  });

  it('on a terminal with --json: the JSON only', () => {
    const r = onTerminal(['export', join(dir, 'out2.json'), '--json']);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).not.toContain('exporting [');
    expect(JSON.parse(r.stdout)).toMatchObject({ facts: FACTS, links: 0, vault: 0 });
  });
});

describe('the progress line', () => {
  const sink = (isTTY: boolean) => {
    const writes: string[] = [];
    return { out: { isTTY, write: (t: string) => writes.push(t) > 0 }, writes };
  };

  it('on a terminal: one redrawn line with count, rate and time left, ended by a newline', () => {
    let t = 0;
    const { out, writes } = sink(true);
    const report = progressReporter(out, 'embedding', () => t);
    report({ done: 0, total: 400 });
    t = 2000;
    report({ done: 100, total: 400 });
    t = 2050;
    report({ done: 110, total: 400 }); // within 100 ms of the last draw: skipped
    t = 8000;
    report({ done: 400, total: 400 });
    expect(writes).toHaveLength(3);
    expect(writes[1]).toMatch(/^\rembedding \[#{8}\.{22}\] 100\/400 \(50\/s, 6 s left\)/);
    expect(writes[2]?.endsWith('400/400 (50/s)\u001b[K\n')).toBe(true);
  });

  it('off a terminal (logs, CI, pipes): nothing', () => {
    const { out, writes } = sink(false);
    const report = progressReporter(out, 'importing');
    for (let done = 0; done <= 1000; done += 100) report({ done, total: 1000 });
    expect(writes).toEqual([]);
  });
});
