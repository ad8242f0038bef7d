/**
 * `npm run eval:conflicts [-- --split dev|test|all] [--misses]`: the service's conflict decision
 * (src/core/rules.ts `contradiction`, the pure function src/memory/write.ts calls for each current fact on
 * the new fact's entity) on the labeled pairs in eval/conflicts/pairs.json, `b` stored after `a`.
 * Prints precision, recall and F1 per split and per kind for the current rule and, side by side, the old
 * word-overlap rule (eval/conflicts/old-rule.ts). `--misses` lists the current rule's false positives and
 * false negatives with its reason. Tune on dev; report test.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { contradiction } from '../../src/core/rules.js';
import { oldContradiction } from './old-rule.js';

interface Side {
  readonly text: string;
  readonly category: string;
  readonly entity: string;
}
interface Pair {
  readonly id: string;
  readonly split: 'dev' | 'test';
  readonly a: Side;
  readonly b: Side;
  readonly contradiction: boolean;
  readonly kind: string;
  readonly note: string;
}
interface Tally {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const { values } = parseArgs({ options: { split: { type: 'string', default: 'all' }, misses: { type: 'boolean', default: false } } });
const splits = values.split === 'all' ? ['dev', 'test'] : [values.split ?? 'dev'];
const pairs = (JSON.parse(readFileSync(new URL('./pairs.json', import.meta.url), 'utf8')) as Pair[]).filter((p) => splits.includes(p.split));

const empty = (): Tally => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
const add = (t: Tally, said: boolean, truth: boolean): void => {
  if (said && truth) t.tp++;
  else if (said) t.fp++;
  else if (truth) t.fn++;
  else t.tn++;
};
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');
const prf = (t: Tally): string => {
  const p = t.tp / (t.tp + t.fp);
  const r = t.tp / (t.tp + t.fn);
  return `${f3(p)} | ${f3(r)} | ${f3((2 * p * r) / (p + r))}`;
};

const rows = new Map<string, { n: number; pos: number; now: Tally; old: Tally }>();
const row = (key: string): { n: number; pos: number; now: Tally; old: Tally } => {
  let r = rows.get(key);
  if (!r) rows.set(key, (r = { n: 0, pos: 0, now: empty(), old: empty() }));
  return r;
};
const misses: string[] = [];
for (const p of pairs) {
  const found = contradiction(p.b, p.a);
  const old = oldContradiction(p.b, p.a) !== null;
  for (const key of [`split ${p.split}`, `kind ${p.kind}`]) {
    const r = row(key);
    r.n++;
    if (p.contradiction) r.pos++;
    add(r.now, found !== null, p.contradiction);
    add(r.old, old, p.contradiction);
  }
  if ((found !== null) !== p.contradiction) {
    misses.push(`${found ? 'FP' : 'FN'} ${p.id} [${p.kind}] "${p.a.text}" / "${p.b.text}"${found ? ` -> ${found.reason}` : ''}`);
  }
}

console.log(`pairs: ${pairs.length} (${splits.join('+')}); a conflict raised for b stored after a: new rule vs old word-overlap rule\n`);
console.log('| split | pairs | contradictions | new P | new R | new F1 | old P | old R | old F1 |\n|---|---|---|---|---|---|---|---|---|');
const keys = [...rows.keys()].sort();
for (const k of keys.filter((x) => x.startsWith('split'))) {
  const r = rows.get(k) as { n: number; pos: number; now: Tally; old: Tally };
  console.log(`| ${k.slice(6)} | ${r.n} | ${r.pos} | ${prf(r.now)} | ${prf(r.old)} |`);
}
// A kind is all contradictions or all not: its recall (positives) or false-alarm rate (negatives) is the figure.
console.log('\n| kind | pairs | contradiction | new: raised | old: raised |\n|---|---|---|---|---|');
for (const k of keys.filter((x) => x.startsWith('kind'))) {
  const r = rows.get(k) as { n: number; pos: number; now: Tally; old: Tally };
  const raised = (t: Tally): string => `${t.tp + t.fp}/${r.n} (${f3((t.tp + t.fp) / r.n)})`;
  const label = r.pos === r.n ? 'yes' : r.pos === 0 ? 'no' : `${r.pos}/${r.n}`;
  console.log(`| ${k.slice(5)} | ${r.n} | ${label} | ${raised(r.now)} | ${raised(r.old)} |`);
}
if (values.misses) console.log(`\n${misses.join('\n')}`);
