/**
 * The labeled auth-turns sets (test/fixtures/auth-turns: real client output and documented service errors
 * in four gateway message shapes) through the real hook, real SQLite and the real recall worker: a
 * regression guard on the figures bench/auth-turns-eval.ts reports. The thresholds sit below the measured
 * figures of the sets the rules were tuned on (dev and holdout 1-5), so a change that breaks a class of
 * turns fails here; docs/auth-recall.md has the measured figures, test.jsonl's among them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../src/core/types.js';
import { MemoryService } from '../src/memory/service.js';
import { AuthRecallHook } from '../src/recall/hook.js';
import { tempHome, type TestHome } from './helpers.js';

interface LabeledFact { readonly key: string; readonly text: string; readonly category: Category; readonly entity?: string; readonly tags: readonly string[]; readonly kind: string }
interface LabeledTurn {
  readonly id: string;
  readonly turn: { readonly prompt: string; readonly messages: readonly unknown[] };
  readonly expected: { readonly detected: boolean; readonly target: string | null; readonly acceptTargets?: readonly string[]; readonly factKeys: readonly string[] };
}

const DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'auth-turns');
const SETS = [
  { split: 'dev', facts: 'facts.json', min: { f1: 0.97, target: 0.95, facts: 0.95 } },
  { split: 'holdout', facts: 'holdout-facts.json', min: { f1: 0.97, target: 0.95, facts: 0.95 } },
  { split: 'holdout2', facts: 'holdout2-facts.json', min: { f1: 0.97, target: 0.9, facts: 0.85 } },
  { split: 'holdout3', facts: 'holdout3-facts.json', min: { f1: 0.97, target: 0.9, facts: 0.9 } },
  { split: 'holdout4', facts: 'holdout4-facts.json', min: { f1: 0.97, target: 0.9, facts: 0.9 } },
  { split: 'holdout5', facts: 'holdout5-facts.json', min: { f1: 0.97, target: 0.9, facts: 0.9 } },
  // Scored blind once on the final rules and never tuned on: a guard with its blind figures' margins.
  { split: 'holdout6', facts: 'holdout6-facts.json', min: { f1: 0.95, target: 0.85, facts: 0.85 } },
] as const;

const lines = <T>(file: string): T[] => readFileSync(join(DIR, file), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

describe.each(SETS)('labeled turns: $split', ({ split, facts: factsFile, min }) => {
  let home: TestHome;
  let svc: MemoryService;
  let hook: AuthRecallHook;
  const ids = new Map<string, string>();
  const distractors = new Set<string>();

  beforeAll(() => {
    home = tempHome({});
    svc = MemoryService.open({ config: home.config, env: home.env });
    hook = new AuthRecallHook(svc, home.config, { detectTimeoutMs: 5000 });
    for (const f of JSON.parse(readFileSync(join(DIR, factsFile), 'utf8')) as LabeledFact[]) {
      const stored = svc.memoryStore({ text: f.text, category: f.category, entity: f.entity ?? null, tags: [...f.tags] }).fact;
      ids.set(f.key, stored.id);
      if (f.kind === 'distractor') distractors.add(stored.id);
    }
  });
  afterAll(async () => {
    await hook?.close();
    await svc?.close();
    home?.cleanup();
  });

  it(`detects failures, names the addressed host and lists the expected credential facts (F1 >= ${min.f1}, target >= ${min.target}, facts >= ${min.facts}), few distractors in hints`, async () => {
    let tp = 0, fp = 0, fn = 0, right = 0, failures = 0, wanted = 0, found = 0, leaked = 0;
    for (const t of lines<LabeledTurn>(`${split}.jsonl`)) {
      const r = await hook.evaluate({ prompt: t.turn.prompt, messages: [...t.turn.messages], sessionId: `s-${t.id}`, agentId: 'eval', role: 'orchestrator' });
      if (r.detected && t.expected.detected) tp++;
      else if (r.detected) fp++;
      else if (t.expected.detected) fn++;
      if (!t.expected.detected) continue;
      failures++;
      if (r.detected && [t.expected.target, ...(t.expected.acceptTargets ?? [])].includes(r.target)) right++;
      const want = t.expected.factKeys.map((k) => ids.get(k));
      wanted += want.length;
      found += want.filter((id) => id !== undefined && r.factIds.includes(id as never)).length;
      leaked += r.factIds.filter((id) => distractors.has(id)).length;
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    expect((2 * precision * recall) / (precision + recall)).toBeGreaterThanOrEqual(min.f1);
    expect(right / failures).toBeGreaterThanOrEqual(min.target);
    expect(found / wanted).toBeGreaterThanOrEqual(min.facts);
    // A distractor with a credential tag (the spec's `api`, `ssh`) still counts as a credential fact.
    expect(leaked).toBeLessThanOrEqual(Math.ceil(failures * 0.05));
  }, 60_000);
});
