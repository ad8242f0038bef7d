/**
 * Auth-failure detection against REAL tool output: test/fixtures/auth/*.txt were captured by
 * scripts/capture-auth-fixtures.sh (real clients against real servers on 127.0.0.1; re-run it to
 * refresh them). manifest.json says for each file whether it is a failure (positive) and which target
 * the failure names.
 *
 * Each file is read as a tool result whose command is its first line (`$ <command>`), the way the hook
 * reads a turn. Positives must pass the prefilter, be detected, and yield the manifest's target (the host
 * the command addressed); negatives must not be detected. Fixtures the current patterns/extractor get wrong are listed
 * in KNOWN_GAPS and run as `it.fails`, so fixing the pattern turns them into a failing test that asks
 * for the entry to be removed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PATTERNS, prefilter } from '../src/core/auth/patterns.js';
import { analyzeTurn } from '../src/core/auth/turn-analysis.js';

interface ManifestEntry {
  readonly file: string;
  readonly positive: boolean;
  readonly target: string | null;
  readonly aliases?: readonly string[];
  readonly tool: string;
}

const DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'auth');
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as ManifestEntry[];

/** file -> why the current detector gets it wrong (reported to the pattern/target owner). */
const KNOWN_GAPS: Readonly<Record<string, string>> = {};

function load(file: string): string {
  return readFileSync(join(DIR, file), 'utf8');
}

describe('auth fixtures: manifest', () => {
  it('lists every captured fixture, with enough positives and negatives', () => {
    const positives = manifest.filter((e) => e.positive);
    const negatives = manifest.filter((e) => !e.positive);
    expect(positives.length).toBeGreaterThanOrEqual(8);
    expect(negatives.length).toBeGreaterThanOrEqual(4);
    for (const e of manifest) {
      expect(e.file.startsWith('negative-')).toBe(!e.positive);
      expect(load(e.file).startsWith('$ ')).toBe(true);
      if (e.positive) expect(e.target).not.toBeNull();
    }
  });
});

describe('auth fixtures: real tool output', () => {
  for (const entry of manifest) {
    const gap = KNOWN_GAPS[entry.file];
    const title = `${entry.positive ? 'detects' : 'ignores'} ${entry.file} (${entry.tool})${gap ? ` [known gap: ${gap}]` : ''}`;
    const test = gap ? it.fails : it;
    test(title, () => {
      const text = load(entry.file);
      const { detection, target } = analyzeTurn([{ role: 'result', text, call: null }], BUILTIN_PATTERNS, true);
      if (entry.positive) {
        expect(prefilter(text)).toBe(true);
        expect(detection, 'no built-in pattern matched').not.toBeNull();
        expect(target?.target ?? null).toBe(entry.target);
        // The name the agent addressed is the target; the address it resolved to widens the search as an alias.
        if (entry.aliases) expect(target?.aliases).toEqual(expect.arrayContaining([...entry.aliases]));
      } else {
        expect(detection, `matched ${detection?.patternId}: ${JSON.stringify(detection?.match)}`).toBeNull();
      }
    });
  }
});
