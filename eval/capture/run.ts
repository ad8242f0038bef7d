/**
 * `npm run eval:capture [-- --split dev|test|all] [--files a,b] [--rules] [--misses] [--isolated]`: auto-capture on the labeled
 * conversations (eval/capture/sets) as the service runs it: a real store (a temp dir) holding every
 * conversation's `existing` memory (stored global, so each conversation also meets the others' facts, as
 * a user's memory grows: replacing one of them counts as a wrong replacement), the real semantic layer (the shipped model in
 * its worker pools) for the sentence classifier, and `MemoryService.capture` in dry-run mode, so what memory
 * already has is strengthened, not counted as captured, and corrections are checked against the fact they
 * should replace. `--rules`: autoCapture.classifier off, the rules alone. `--isolated`: each conversation's
 * `existing` memory is stored in its own agent scope, so it meets only its own facts. Precision, recall and secrets
 * stored, overall, per rule and per kind, scored as eval/capture/sets/README.md says. Tune on dev; report test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../src/config/resolve.js';
import type { Category } from '../../src/core/types.js';
import { openMemory } from '../../src/main.js';
import { replacedBy } from '../../src/memory/capture.js';
import { emptyScore, f3, loadConversations, matches, precision, recall, scoreConversation } from './score.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, files: { type: 'string' }, rules: { type: 'boolean', default: false }, misses: { type: 'boolean', default: false }, isolated: { type: 'boolean', default: false } } });
/** `--files blind-35,blind-36`: only these set files (a round scored again after it was folded into dev). */
const files = values.files?.split(',').map((f) => `${f.trim().replace(/\.json$/, '')}.json`);
const splits = values.split === 'all' ? ['dev', 'test'] : [values.split ?? 'dev'];
const conversations = loadConversations(splits).filter((c) => !files || files.includes(c.file));

const dir = mkdtempSync(join(tmpdir(), 'hm-capture-eval-'));
const config = resolveConfig({ dataDir: dir, autoCapture: { classifier: !values.rules } }, { env: {} });
const svc = await openMemory({ config, env: {}, semantic: !values.rules });
const s = emptyScore();
const by = new Set<string>();
const memory = { strengthened: 0, repeats: 0, repeatsKept: 0, corrections: 0, correctionsRight: 0, wrongReplacements: 0 };
try {
  for (const c of conversations) {
    const caller = { role: 'specialist' as const, agentId: `eval-${c.id}`, sessionId: null };
    const ids = new Map<string, string>();
    // --isolated: each conversation's memory is its own (agent scope), as for a user with little memory yet.
    const scope = values.isolated ? { scope: 'agent' as const } : {};
    for (const e of c.existing ?? []) ids.set(e.id, svc.memoryStore({ text: e.text, entity: e.entity ?? null, category: (e.category ?? 'fact') as Category, ...scope }, caller).fact.id);
    const r = await svc.capture(c.turns, caller, { dryRun: true });
    by.add(r.by);
    const kept = r.decisions.filter((d) => d.action === 'stored' || d.action === 'superseded');
    memory.strengthened += r.decisions.filter((d) => d.action === 'strengthened').length;
    scoreConversation(s, c, kept.map((d) => d.found));
    // A restated fact is strengthened, not kept again; a correction replaces the fact it corrects.
    for (const id of c.repeats ?? []) {
      memory.repeats++;
      if (r.decisions.some((d) => d.action === 'strengthened' && d.fact?.id === ids.get(id))) memory.repeatsKept++;
      else if (values.misses) s.misses.push(`${c.id} NOT STRENGTHENED "${c.existing?.find((e) => e.id === id)?.text ?? '?'}" <- ${r.decisions.map((d) => `[${d.action}] ${d.found.text}`).join(' | ') || 'nothing found'}`);
    }
    // A replacement nobody asked for hides a fact that was still true.
    const wanted = new Set(c.keep.flatMap((k) => (k.supersedes ? [ids.get(k.supersedes)] : [])));
    const replaced = r.decisions.flatMap((d) => (d.action === 'superseded' ? replacedBy(d).map((f) => ({ d, f })) : []));
    for (const { d, f } of replaced.filter((x) => !wanted.has(x.f.id))) {
      memory.wrongReplacements++;
      if (values.misses) s.misses.push(`${c.id} WRONG REPLACEMENT "${f.text}" <- "${d.found.text}"`);
    }
    for (const k of c.keep.filter((x) => x.supersedes)) {
      memory.corrections++;
      if (replaced.some((x) => x.f.id === ids.get(k.supersedes ?? ''))) memory.correctionsRight++;
      else if (values.misses) {
        const d = r.decisions.find((x) => matches(x.found.text, k));
        const old = c.existing?.find((e) => e.id === k.supersedes);
        s.misses.push(`${c.id} NOT REPLACED [${d ? `${d.action}${d.replaces ? ` ${d.replaces.text}` : ''}` : 'not found'}] "${old?.text ?? '?'}" <- "${d?.found.text ?? k.match.join(' + ')}"`);
      }
    }
  }
} finally {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`split: ${splits.join('+')}; ${conversations.length} conversations, ${s.keep} facts to keep; decided by: ${[...by].join(', ')}\n`);
console.log(`| | captured | precision | keep items | recall | secrets stored |\n|---|---|---|---|---|---|`);
console.log(`| all | ${s.captured} | ${f3(precision(s))} | ${s.keep} | ${f3(recall(s))} | ${s.secretsStored} |`);
for (const [rule, r] of s.byRule) console.log(`| found by ${rule} | ${r.captured} | ${f3(r.matched / r.captured)} | | | |`);
for (const [kind, k] of s.byKind) console.log(`| kind ${kind} | | | ${k.keep} | ${f3(k.found / k.keep)} | |`);
// The writers never list a credential pointer as a fact to keep, though issue 19 asks for one: shown apart, never taken out of the headline.
console.log(`\ncredential pointers among the false positives (the value masked out): ${s.pointers}; precision if they were neither right nor wrong: ${f3(s.matched / (s.captured - s.pointers))}`);
console.log(`\nmemory: ${memory.strengthened} found facts strengthened a current one instead of being stored; restated facts strengthened ${memory.repeatsKept} / ${memory.repeats}; corrections replacing the fact they correct ${memory.correctionsRight} / ${memory.corrections}; facts replaced that should have stayed ${memory.wrongReplacements}`);
if (values.misses) console.log(`\n${s.misses.join('\n')}`);
