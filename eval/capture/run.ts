/**
 * `npm run eval:capture [-- --split dev|test|all] [--misses]`: the auto-capture rules (src/core/capture.ts)
 * on the labeled conversations (eval/capture/sets): precision, recall and secrets stored, overall and per
 * rule, scored as eval/capture/sets/README.md says. The facts are those the rules find; a conversation's
 * `repeats` (restating a fact memory already has) are counted as false positives here, since the rules
 * alone cannot see memory (the service dedupes them: src/memory/capture.ts). Tune on dev; report test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { captureFacts, CAPTURE_RULES, type CapturedFact } from '../../src/core/capture.js';

interface Keep {
  readonly kind: string;
  readonly match: readonly string[];
}
interface Conversation {
  readonly id: string;
  readonly split: 'dev' | 'test';
  readonly turns: readonly { role: string; content: string }[];
  readonly keep: readonly Keep[];
  readonly secrets?: readonly string[];
}

const DIR = new URL('./sets/', import.meta.url).pathname;
const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, misses: { type: 'boolean', default: false } } });
const splits = values.split === 'all' ? ['dev', 'test'] : [values.split];
const conversations = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { conversations: Conversation[] }).conversations)
  .filter((c) => splits.includes(c.split));

const matches = (f: CapturedFact, k: Keep): boolean => k.match.every((m) => f.text.toLowerCase().includes(m.toLowerCase()));
const byRule = new Map<string, { captured: number; matched: number }>(CAPTURE_RULES.map((r) => [r, { captured: 0, matched: 0 }]));
const byKind = new Map<string, { keep: number; found: number }>();
let captured = 0;
let matched = 0;
let keep = 0;
let found = 0;
let secretsStored = 0;
const misses: string[] = [];
for (const c of conversations) {
  const facts = captureFacts(c.turns, { maxChars: 5000 });
  captured += facts.length;
  for (const f of facts) {
    const ok = c.keep.some((k) => matches(f, k));
    const r = byRule.get(f.rule) as { captured: number; matched: number };
    r.captured++;
    if (ok) {
      matched++;
      r.matched++;
    } else misses.push(`${c.id} FP [${f.rule}] ${f.text}`);
    for (const s of c.secrets ?? []) if (f.text.includes(s)) secretsStored++;
  }
  for (const k of c.keep) {
    keep++;
    const hit = facts.some((f) => matches(f, k));
    if (hit) found++;
    else misses.push(`${c.id} FN [${k.kind}] ${k.match.join(' + ')}`);
    const e = byKind.get(k.kind) ?? { keep: 0, found: 0 };
    e.keep++;
    if (hit) e.found++;
    byKind.set(k.kind, e);
  }
}
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');
console.log(`split: ${splits.join('+')}; ${conversations.length} conversations, ${keep} facts to keep\n`);
console.log(`| | captured | precision | keep items | recall | secrets stored |\n|---|---|---|---|---|---|`);
console.log(`| all | ${captured} | ${f3(matched / captured)} | ${keep} | ${f3(found / keep)} | ${secretsStored} |`);
for (const [rule, r] of byRule) console.log(`| rule ${rule} | ${r.captured} | ${f3(r.matched / r.captured)} | | | |`);
for (const [kind, k] of byKind) console.log(`| kind ${kind} | | | ${k.keep} | ${f3(k.found / k.keep)} | |`);
if (values.misses) console.log(`\n${misses.join('\n')}`);
