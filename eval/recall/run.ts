/**
 * `npm run eval:recall [-- --split dev|test|all] [--set NAME] [--config JSON]`: the retrieval-quality harness over the
 * labeled sets; prints R@5/10/20, MRR and latency per kind of memory and per query type for full text, the
 * vector leg and hybrid, in one run, then hybrid against its better leg per group with a paired bootstrap
 * interval (eval/recall/paired.ts). Tune on dev; report test. `--config '{"search":{"vectorWeight":0.4}}'`
 * runs the sets with that configuration. `--imported`: every memory stored at one time, as a benchmark's bulk
 * load stores them (no time of each memory to rank by).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatTable, loadSets, runSet, table, type QueryOutcome, type Split } from './harness.js';
import { formatPaired, versusBetterLeg } from './paired.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, set: { type: 'string' }, misses: { type: 'boolean', default: false }, dump: { type: 'string' }, config: { type: 'string', default: '{}' }, imported: { type: 'boolean', default: false } } });
const userConfig = JSON.parse(values.config) as Record<string, unknown>;
const splits: Split[] = values.split === 'all' ? ['dev', 'test'] : [values.split as Split];
const outcomes: QueryOutcome[] = [];
for (const set of loadSets().filter((s) => !values.set || s.name === values.set)) {
  const t = Date.now();
  outcomes.push(...(await runSet(set, splits, 20, values.dump !== undefined, userConfig, values.imported ? 'import' : 'memory')));
  process.stderr.write(`${set.name}: ${set.memories.length} memories, ${set.queries.filter((q) => splits.includes(q.split)).length} queries, ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}
if (values.dump) writeFileSync(values.dump, JSON.stringify(outcomes));
console.log(`split: ${splits.join('+')}${values.imported ? '; every memory stored at one time (--imported)' : ''}\n`);
console.log(formatTable(table(outcomes)));
console.log(`\nhybrid against its better leg, query by query (95% paired bootstrap interval):\n\n${formatPaired(versusBetterLeg(outcomes))}`);
if (values.misses) {
  for (const o of outcomes.filter((x) => x.retriever === 'hybrid')) {
    const gold = Object.entries(o.query.evidence).filter(([, g]) => g === 2).map(([id]) => id);
    const first = o.ranked.findIndex((id) => gold.includes(id));
    if (first < 0 || first >= 5) console.log(`${o.set} ${o.query.id} [${o.query.type}] rank ${first < 0 ? '-' : first + 1}: ${o.query.query}`);
  }
}
