/**
 * Hybrid against its better leg, query by query: for each group (all, each kind, each query type) the mean
 * of the per-query differences in R@5 and MRR between hybrid and the better of full text and the vector leg
 * in that group, with a 95% paired bootstrap interval. A group of 5 to 60 queries moves by a whole query's
 * worth (0.02 to 0.2) when one rank changes, so "worse" is a difference whose whole interval is below 0;
 * one whose interval holds 0 is not told apart from noise by this many queries.
 */
import { mulberry32 } from '../../test/support/prng.js';
import { QUERY_TYPES, type QueryOutcome, type Retriever } from './harness.js';

type Metric = 'R@5' | 'MRR';

function perQuery(o: QueryOutcome, metric: Metric): number {
  const gold = Object.entries(o.query.evidence)
    .filter(([, g]) => g === 2)
    .map(([id]) => id);
  if (metric === 'R@5') return gold.filter((id) => o.ranked.slice(0, 5).includes(id)).length / gold.length;
  const first = o.ranked.findIndex((id) => gold.includes(id));
  return first < 0 ? 0 : 1 / (first + 1);
}

export interface Paired {
  readonly group: string;
  readonly metric: Metric;
  readonly against: Retriever;
  readonly n: number;
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/** Mean difference and its 95% bootstrap interval (2,000 resamples of the queries). */
export function bootstrap(diffs: readonly number[], resamples = 2000, seed = 18): { mean: number; low: number; high: number } {
  const n = diffs.length;
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  // Seeded (test/support/prng.ts), so that a run's intervals are the same every time.
  const next = mulberry32(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(next() * n)] as number;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * resamples)] as number, high: means[Math.ceil(0.975 * resamples) - 1] as number };
}

/** Hybrid minus the better leg, per group and metric. */
export function versusBetterLeg(outcomes: readonly QueryOutcome[]): Paired[] {
  const key = (o: QueryOutcome): string => `${o.set}/${o.query.id}`;
  const by = (r: Retriever): Map<string, QueryOutcome> => new Map(outcomes.filter((o) => o.retriever === r).map((o) => [key(o), o]));
  const hybrid = by('hybrid');
  const legs = { fulltext: by('fulltext'), vector: by('vector') };
  const groups: [string, (o: QueryOutcome) => boolean][] = [
    ['all', () => true],
    ...(['chat', 'agent', 'tech'] as const).map((k): [string, (o: QueryOutcome) => boolean] => [`kind ${k}`, (o) => o.kind === k]),
    ...QUERY_TYPES.map((t): [string, (o: QueryOutcome) => boolean] => [`type ${t}`, (o) => o.query.type === t]),
  ];
  const out: Paired[] = [];
  for (const [group, keep] of groups) {
    const queries = [...hybrid.values()].filter(keep);
    if (queries.length === 0) continue;
    for (const metric of ['R@5', 'MRR'] as const) {
      const sum = (leg: 'fulltext' | 'vector'): number => queries.reduce((a, q) => a + perQuery(legs[leg].get(key(q)) as QueryOutcome, metric), 0);
      const against = sum('vector') > sum('fulltext') ? 'vector' : 'fulltext';
      const diffs = queries.map((q) => perQuery(q, metric) - perQuery(legs[against].get(key(q)) as QueryOutcome, metric));
      out.push({ group, metric, against, n: queries.length, ...bootstrap(diffs) });
    }
  }
  return out;
}

export function formatPaired(rows: readonly Paired[]): string {
  const f = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  const lines = ['| group | metric | better leg | n | hybrid - leg | 95% interval | verdict |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const verdict = r.high < 0 ? 'worse' : r.low > 0 ? 'better' : r.mean < 0 ? 'lower, within noise' : 'same or better, within noise';
    lines.push(`| ${r.group} | ${r.metric} | ${r.against} | ${r.n} | ${f(r.mean)} | ${f(r.low)} .. ${f(r.high)} | ${verdict} |`);
  }
  return lines.join('\n');
}
