/**
 * `npm run eval:relevant [-- --split dev|test|all] [--dump FILE]`: the relevant-memories hook
 * (autoRecall.relevant) on the labeled sets. Each query is a turn's prompt against its own set's memories
 * (a hit: a grade-2 memory among those injected); queries of the other sets are off-topic prompts for the
 * same memories (anything injected is noise). Prints hit rate, memories injected per turn and the share of
 * off-topic turns that got a block, served as on the turn path (full text: the query embedding misses the
 * deadline) and with the vector leg (the embedding ready). Tune on dev; report test.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../src/config/resolve.js';
import { RelevantRecallHook } from '../../src/recall/relevant.js';
import { loadSet, loadSets, type LabeledSet, type Query, type Split } from './harness.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, dump: { type: 'string' }, negatives: { type: 'string', default: '40' } } });
const splits: Split[] = values.split === 'all' ? ['dev', 'test'] : [values.split as Split];
const NEGATIVES = Number(values.negatives);

interface Row {
  readonly mode: 'fulltext' | 'hybrid';
  readonly onTopic: boolean;
  readonly hit: boolean;
  readonly injected: number;
}

async function runSet(set: LabeledSet, others: readonly Query[], user: Record<string, unknown>): Promise<Row[]> {
  const { dir, config, hybrid, plain, byFact, close } = await loadSet(set, user);
  try {
    const hooks = { fulltext: new RelevantRecallHook(plain, config), hybrid: new RelevantRecallHook(hybrid, resolveConfig({ dataDir: dir, ...user, autoRecall: { relevant: { ...((user.autoRecall as { relevant?: object } | undefined)?.relevant ?? {}), vectorDeadlineMs: 5000 } } }, { env: {} })) };
    const rows: Row[] = [];
    const turns = [...set.queries.filter((q) => splits.includes(q.split)).map((q) => ({ q, onTopic: true })), ...others.slice(0, NEGATIVES).map((q) => ({ q, onTopic: false }))];
    for (const mode of ['fulltext', 'hybrid'] as const) {
      for (const { q, onTopic } of turns) {
        const r = await hooks[mode].evaluate({ prompt: q.query, sessionId: `${mode}-${set.name}-${q.id}-${onTopic}`, agentId: 'eval', role: 'orchestrator' });
        const gold = Object.entries(q.evidence).filter(([, g]) => g === 2).map(([id]) => id);
        const got = r.factIds.map((id) => byFact.get(id) ?? id);
        rows.push({ mode, onTopic, hit: onTopic && got.some((id) => gold.includes(id)), injected: got.length });
      }
    }
    return rows;
  } finally {
    await close();
  }
}

const sets = loadSets();
const user = process.env.HM_RELEVANT_CONFIG ? (JSON.parse(process.env.HM_RELEVANT_CONFIG) as Record<string, unknown>) : {};
const all: Row[] = [];
for (const set of sets) {
  // Off-topic prompts: the other sets' queries of the same split, in turn.
  const others = sets.filter((s) => s.name !== set.name).flatMap((s) => s.queries.filter((q) => splits.includes(q.split)));
  const spread = others.filter((_, i) => i % Math.max(1, Math.floor(others.length / NEGATIVES)) === 0);
  all.push(...(await runSet(set, spread, user)));
  process.stderr.write(`${set.name} done\n`);
}
if (values.dump) writeFileSync(values.dump, JSON.stringify(all));
console.log(`split: ${splits.join('+')}; config ${JSON.stringify(user)}\n`);
console.log('| mode | on-topic turns | hit rate | memories per on-topic turn | off-topic turns | off-topic turns with a block | memories per off-topic turn |');
console.log('|---|---|---|---|---|---|---|');
for (const mode of ['fulltext', 'hybrid'] as const) {
  const on = all.filter((r) => r.mode === mode && r.onTopic);
  const off = all.filter((r) => r.mode === mode && !r.onTopic);
  const avg = (xs: readonly number[]) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(2);
  console.log(`| ${mode} | ${on.length} | ${(on.filter((r) => r.hit).length / Math.max(1, on.length)).toFixed(3)} | ${avg(on.map((r) => r.injected))} | ${off.length} | ${(off.filter((r) => r.injected > 0).length / Math.max(1, off.length)).toFixed(3)} | ${avg(off.map((r) => r.injected))} |`);
}
