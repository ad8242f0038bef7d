/**
 * Full-text recall: latency (p50/p99, tinybench) of bounded FtsSearch against unbounded FTS5 bm25 in the
 * same run, by query kind (rare word, common word, prefix, phrase, multi-word mixed), on a 100k-fact
 * corpus with a Zipf vocabulary (bench/corpus.ts); plus the labelled-sample quality (recall@10, nDCG@10)
 * of both, their top-10 overlap, and first-call latency with empty caches.
 *
 * The corpus is built once and kept under os.tmpdir() (RECALL_BENCH_FACTS sets its size, default 100000).
 * Run: node --import tsx bench/recall.bench.ts
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Database } from 'better-sqlite3';
import { Bench } from 'tinybench';
import { visibility, type Visibility } from '../src/core/scope.js';
import { parseQuery, type QueryPart } from '../src/core/text.js';
import { OPERATOR } from '../src/core/types.js';
import { openDatabase } from '../src/store/db.js';
import { FtsSearch } from '../src/store/search.js';
import { buildCorpus, measureQuality, type LabelledQuery, type QueryKind } from './corpus.js';

/** Bump when bench/corpus.ts changes what it generates. */
const CORPUS_VERSION = 2;

interface Loaded {
  readonly db: Database;
  readonly queries: readonly LabelledQuery[];
}

export function openCorpus(facts: number): Loaded {
  const path = join(tmpdir(), `hybrid-mem-recall-v${CORPUS_VERSION}-${facts}.db`);
  const labels = `${path}.labels.json`;
  if (!existsSync(path) || !existsSync(labels)) {
    const building = `${path}.building`;
    for (const p of [building, `${building}-wal`, `${building}-shm`]) rmSync(p, { force: true });
    const started = performance.now();
    const db = openDatabase(building);
    const queries = buildCorpus(db, { facts, queriesPerKind: 10, relevantPerQuery: 8 });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    renameSync(building, path);
    writeFileSync(labels, JSON.stringify(queries));
    console.log(`built ${facts}-fact corpus in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path}`);
  }
  return { db: openDatabase(path), queries: JSON.parse(readFileSync(labels, 'utf8')) as LabelledQuery[] };
}

const fmt = (ms: number | undefined): string => (ms === undefined ? '-' : ms.toFixed(2));

function latencyOf(bench: Bench, name: string): { p50?: number; p99?: number } {
  const r = bench.getTask(name)?.result;
  return r && 'latency' in r ? { p50: r.latency.p50, p99: r.latency.p99 } : {};
}

interface Case {
  readonly label: string;
  readonly queries: readonly QueryPart[][];
  readonly v: Visibility;
}

/** The query kinds as operator, plus common words as a specialist (its scope filter in every leg). */
function cases(byKind: Map<QueryKind, QueryPart[][]>): Case[] {
  const operator = visibility(OPERATOR);
  const specialist = visibility({ role: 'specialist', agentId: 'agent-1', sessionId: 'session-1' });
  const out: Case[] = [...byKind].map(([kind, queries]) => ({ label: kind, queries, v: operator }));
  out.push({ label: 'common (specialist)', queries: byKind.get('common') ?? [], v: specialist });
  return out;
}

async function latency(db: Database, all: readonly Case[]): Promise<void> {
  const search = new FtsSearch(db);
  const bench = new Bench({ time: 1000, iterations: 64, warmupTime: 200 });
  for (const c of all) {
    for (const unbounded of [false, true]) {
      let i = 0;
      bench.add(`${c.label} ${unbounded ? 'unbounded' : 'bounded'}`, () => {
        search.search(c.queries[i++ % c.queries.length] as QueryPart[], c.v, { limit: 10, unbounded });
      });
    }
  }
  await bench.run();
  const rows = all.map((c) => {
    const b = latencyOf(bench, `${c.label} bounded`);
    const u = latencyOf(bench, `${c.label} unbounded`);
    const cold = coldLatency(search, c);
    return {
      kind: c.label,
      'bounded p50': fmt(b.p50),
      'bounded p99': fmt(b.p99),
      'unbounded p50': fmt(u.p50),
      'unbounded p99': fmt(u.p99),
      'p50 ratio b/u': b.p50 && u.p50 ? (b.p50 / u.p50).toFixed(3) : '-',
      'p99 ratio b/u': b.p99 && u.p99 ? (b.p99 / u.p99).toFixed(3) : '-',
      'cold median': fmt(cold.median),
      'cold max': fmt(cold.max),
    };
  });
  console.log('\nFTS search latency in ms (limit 10; cold = first call after clearCaches(), bounded)');
  console.table(rows);
}

/** Latency of each query right after FtsSearch.clearCaches() (df, expansion and entity/tags caches empty). */
function coldLatency(search: FtsSearch, c: Case): { median?: number; max?: number } {
  const times = c.queries.map((q) => {
    search.clearCaches();
    const t = performance.now();
    search.search(q, c.v, { limit: 10 });
    return performance.now() - t;
  });
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], max: times[times.length - 1] };
}

export async function main(): Promise<void> {
  const facts = Number(process.env.RECALL_BENCH_FACTS ?? 100_000);
  const { db, queries } = openCorpus(facts);
  const byKind = new Map<QueryKind, QueryPart[][]>();
  for (const q of queries) byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), parseQuery(q.query)]);
  console.log(`\nrecall bench: ${facts} facts, ${queries.length} labelled queries (${[...byKind.keys()].join(', ')})`);
  await latency(db, cases(byKind));
  const rows = measureQuality(new FtsSearch(db), queries);
  console.log('\nlabelled-sample quality @10 (overlap = share of unbounded top-10 also in bounded top-10)');
  console.table(
    rows.map((r) => ({
      kind: r.kind,
      'recall bounded': r.boundedRecall.toFixed(3),
      'recall unbounded': r.unboundedRecall.toFixed(3),
      'nDCG bounded': r.boundedNdcg.toFixed(3),
      'nDCG unbounded': r.unboundedNdcg.toFixed(3),
      'top-10 overlap': r.overlap.toFixed(3),
    })),
  );
  db.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
