/**
 * Vector search: usearch HNSW (in-process, and through VectorClient's worker with its SQL filter)
 * against exact brute-force search of the same vectors in the same run: latency p50/p99 (tinybench) and
 * recall@10 (share of the exact top-10 found). Data: clustered synthetic embeddings (vectors-synthetic.ts;
 * uniform random vectors would make recall meaningless), queries are perturbed points.
 *
 * The SQLite file and the index are cached under os.tmpdir(), keyed by the parameters, so only the first
 * run pays for the build (the worker's own init: rebuild from SQLite, then persist); later runs load the
 * verified file (init source 'loaded').
 *
 * Run: node --import tsx bench/vector.bench.ts   (VECTOR_BENCH_N, VECTOR_BENCH_DIM to change the size)
 */
import type { Database } from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { exactSearch, MetricKind, type BatchMatches } from 'usearch';
import { VectorClient } from '../src/actors/vector/client.js';
import type { VectorFilter } from '../src/actors/vector/contract.js';
import { newIndex } from '../src/actors/vector/hnsw.js';
import { discard, verifyIndexFile } from '../src/actors/vector/index-file.js';
import { eligibleDigest } from '../src/actors/vector/rows.js';
import { visibility } from '../src/core/scope.js';
import { OPERATOR } from '../src/core/types.js';
import { openDatabase } from '../src/store/db.js';
import { clusteredVectors, perturbedQueries, type SyntheticSet } from './vectors-synthetic.js';

const N = Number(process.env.VECTOR_BENCH_N ?? 100_000);
const DIM = Number(process.env.VECTOR_BENCH_DIM ?? 512);
const QUERIES = 200;
const K = 10;
const SEED = 42;
const MODEL = 'synthetic-clustered';
const AGENTS = 10;

/** Every 5th fact is agent-scoped (10 agents); the rest are global. Fact seq = row index + 1. */
const agentOf = (seq: number): string | null => (seq % 5 === 0 ? `agent-${Math.floor(seq / 5) % AGENTS}` : null);
/** Every 500th fact is a decision: a category filter that keeps 0.2% of the index (the selective case, answered by an exact scan). */
const categoryOf = (seq: number): string => (seq % 500 === 0 ? 'decision' : 'fact');

const ms = (t: number): number => performance.now() - t;
const fmt = (x: number | undefined): string => (x === undefined ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(1));

function ensureDatabase(dir: string, set: SyntheticSet): string {
  const dbPath = join(dir, 'memory.db');
  if (existsSync(join(dir, 'complete'))) return dbPath;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  const db = openDatabase(dbPath);
  const fact = db.prepare(`INSERT INTO facts (seq, id, text, category, importance, confidence, decay_class, scope_kind, scope_agent, lineage_id, version,
    created_at, updated_at, valid_from, source, dedupe_key) VALUES (?, ?, ?, ?, 0.5, 0.8, 'stable', ?, ?, ?, 1, 1, 1, 1, 'bench', ?)`);
  const vec = db.prepare('INSERT INTO fact_vectors (fact_seq, model_id, dim, vector, created_at) VALUES (?, ?, ?, ?, 1)');
  for (let start = 0; start < set.count; start += 5000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(set.count, start + 5000); i++) {
        const seq = i + 1;
        const agent = agentOf(seq);
        fact.run(seq, `fact_${seq}`, `synthetic fact ${seq} in cluster ${set.labels[i]}`, categoryOf(seq), agent ? 'agent' : 'global', agent, `lin_${seq}`, `dk_${seq}`);
        vec.run(seq, MODEL, DIM, Buffer.from(set.vectors.buffer, i * DIM * 4, DIM * 4));
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  writeFileSync(join(dir, 'complete'), '');
  console.log(`wrote ${set.count} facts + vectors to ${dbPath} in ${(ms(t) / 1000).toFixed(1)} s`);
  return dbPath;
}

/** Exact top-K seqs per query over the rows for which `keep(seq)` holds. */
function exactTruth(set: SyntheticSet, queries: Float32Array, keep: (seq: number) => boolean): number[][] {
  const seqs: number[] = [];
  for (let i = 0; i < set.count; i++) if (keep(i + 1)) seqs.push(i + 1);
  const data = seqs.length === set.count ? set.vectors : new Float32Array(seqs.length * DIM);
  if (data !== set.vectors) seqs.forEach((s, r) => data.set(set.vectors.subarray((s - 1) * DIM, s * DIM), r * DIM));
  const m = exactSearch(data, queries, DIM, K, MetricKind.Cos, 0) as BatchMatches;
  return Array.from({ length: QUERIES }, (_, q) => Array.from(m.keys.subarray(q * K, (q + 1) * K), (key) => seqs[Number(key)] as number));
}

function recall(found: readonly (readonly number[])[], truth: readonly (readonly number[])[]): number {
  let hit = 0;
  found.forEach((f, q) => {
    const t = new Set(truth[q]);
    for (const s of f.slice(0, K)) if (t.has(s)) hit++;
  });
  return hit / (truth.length * K);
}

async function loadInProcess(indexPath: string, db: Database): Promise<{ index: ReturnType<typeof newIndex>; verifyMs: number; loadMs: number }> {
  let t = performance.now();
  const v = await verifyIndexFile(indexPath, { modelId: MODEL, dim: DIM, vectorsHash: eligibleDigest(db, MODEL, DIM).toString() });
  if (!v.ok) throw new Error(`cached index did not verify: ${v.reason}`);
  const verifyMs = ms(t);
  t = performance.now();
  const index = newIndex(DIM);
  index.load(v.file);
  discard(v.file);
  return { index, verifyMs, loadMs: ms(t) };
}

export async function main(): Promise<void> {
  const dir = join(tmpdir(), `hybrid-mem-vector-bench-${N}x${DIM}-seed${SEED}-v2`);
  let t = performance.now();
  const set = clusteredVectors({ count: N, dim: DIM, seed: SEED });
  const queries = perturbedQueries(set, QUERIES, 0.01, SEED + 1);
  console.log(`\nvector bench: ${N} x ${DIM} f32 cosine, ${QUERIES} queries, k=${K}; data generated in ${(ms(t) / 1000).toFixed(1)} s; cache ${dir}`);
  const dbPath = ensureDatabase(dir, set);
  const indexPath = join(dir, 'vectors.usearch');

  t = performance.now();
  const client = new VectorClient({ init: { dbPath, indexPath, modelId: MODEL, dim: DIM }, persistEveryMs: 0, timeoutMs: 60_000, rebuildTimeoutMs: 3_600_000 });
  const state = await client.ready();
  const initMs = ms(t);
  t = performance.now();
  const persisted = await client.persist();
  const persistMs = ms(t);
  const db = openDatabase(dbPath, { readonly: true });
  const { index, verifyMs, loadMs } = await loadInProcess(indexPath, db);
  console.log(
    `worker init: ${state.source}${state.reason ? ` (${state.reason})` : ''}, ${state.count} vectors in ${(initMs / 1000).toFixed(1)} s` +
      `${state.source === 'rebuilt' ? ` = ${Math.round(state.count / (initMs / 1000))} vectors/s` : ''}; persist ${persisted.written ? `${(persistMs / 1000).toFixed(1)} s` : 'not needed'}; ` +
      `index file ${(statSync(indexPath).size / 2 ** 20).toFixed(0)} MiB, verify (size + sha256) ${verifyMs.toFixed(0)} ms, usearch load ${loadMs.toFixed(0)} ms`,
  );

  const operator: VectorFilter = { visibility: visibility(OPERATOR), includeSuperseded: false };
  const specialist: VectorFilter = { visibility: visibility({ role: 'specialist', agentId: 'agent-3', sessionId: null }), includeSuperseded: false };
  const q = (i: number): Float32Array => queries.subarray((i % QUERIES) * DIM, ((i % QUERIES) + 1) * DIM);
  t = performance.now();
  const truthAll = exactTruth(set, queries, () => true);
  const truthSpec = exactTruth(set, queries, (s) => agentOf(s) === null || agentOf(s) === 'agent-3');
  const decisions: VectorFilter = { ...operator, category: 'decision' };
  const truthDecisions = exactTruth(set, queries, (s) => categoryOf(s) === 'decision');
  console.log(`exact ground truth for ${QUERIES} queries x 3 filters: ${(ms(t) / 1000).toFixed(1)} s (all threads)`);

  const found = {
    hnsw: Array.from({ length: QUERIES }, (_, i) => Array.from(index.search(q(i), K, 1).keys, Number)),
    operator: [] as number[][],
    specialist: [] as number[][],
    decisions: [] as number[][],
  };
  for (let i = 0; i < QUERIES; i++) {
    found.operator.push((await client.search(q(i), K, operator)).map((h) => h.seq));
    found.specialist.push((await client.search(q(i), K, specialist)).map((h) => h.seq));
    found.decisions.push((await client.search(q(i), K, decisions)).map((h) => h.seq));
  }

  const bench = new Bench({ time: 2000, warmupTime: 300 });
  let n = 0;
  bench
    .add('exact brute force (baseline, 1 thread)', () => void exactSearch(set.vectors, q(n++), DIM, K, MetricKind.Cos, 1))
    .add('usearch HNSW in-process', () => void index.search(q(n++), K, 1))
    .add('VectorClient.search, operator', async () => void (await client.search(q(n++), K, operator)))
    .add('VectorClient.search, specialist (82% visible)', async () => void (await client.search(q(n++), K, specialist)))
    .add('VectorClient.search, category filter (0.2% visible)', async () => void (await client.search(q(n++), K, decisions)));
  await bench.run();
  const lat = (name: string) => {
    const r = bench.getTask(name)?.result;
    return r && 'latency' in r ? r.latency : undefined;
  };
  const base = lat('exact brute force (baseline, 1 thread)');
  const rows: [string, number][] = [
    ['exact brute force (baseline, 1 thread)', 1],
    ['usearch HNSW in-process', recall(found.hnsw, truthAll)],
    ['VectorClient.search, operator', recall(found.operator, truthAll)],
    ['VectorClient.search, specialist (82% visible)', recall(found.specialist, truthSpec)],
    ['VectorClient.search, category filter (0.2% visible)', recall(found.decisions, truthDecisions)],
  ];
  console.log(`\nvector search latency in ms and recall@${K} against exact search (same run)`);
  console.table(
    rows.map(([name, r]) => {
      const l = lat(name);
      return { case: name, p50: fmt(l?.p50), p99: fmt(l?.p99), 'p50 vs exact': l && base ? (l.p50 / base.p50).toFixed(4) : '-', [`recall@${K}`]: r.toFixed(3) };
    }),
  );
  db.close();
  await client.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
