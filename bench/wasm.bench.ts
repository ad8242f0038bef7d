/**
 * WASM vector core (src/wasm): N x dim (default 100k x 384 and 512) in the same run,
 *   1. batch dot products of one query against every row: WASM SIMD vs plain JS (the baseline; goal >= 4x),
 *      plus the int8 cosine batch;
 *   2. exact top-10 search by cosine: WASM f32 and WASM i8 vs plain JS exact (baseline, precomputed norms
 *      as the WASM side has), and vs usearch's approximate HNSW search (default parameters, as
 *      src/actors/vector uses them, one thread), with recall@10 against the exact answer.
 * Data: clustered gaussian vectors (random uniform vectors make recall figures meaningless); queries are
 * fresh points drawn from the same clusters. The usearch index takes minutes to build on 2 cores, so it is
 * cached under os.tmpdir() (atomic write + sha256 sidecar, verified before load: a damaged usearch file
 * aborts the process) keyed by the parameters; only the first run pays for it.
 *
 * Run: node --import tsx bench/wasm.bench.ts
 *   WASM_BENCH_N (default 100000), WASM_BENCH_DIMS (default "384,512"), WASM_BENCH_SPREAD (default 2.0),
 *   WASM_BENCH_USEARCH=0 to skip usearch.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { compileCore, refDotMany, refRowNorms, refSearchExact, VectorCore } from '../src/wasm/index.js';
import { seededRandom } from './vectors-synthetic.js';

const K = 10;
const QUERIES = 100;
const CLUSTERS = 1000;
/**
 * Point spread around a centre (centres ~ N(0, 1)). At 2.0 cluster mates sit at cosine ≈ 0.2 (1 / (1 + 2^2))
 * and HNSW recall@10 drops to ~0.92, the regime stack.md reports; at 1.0 (cosine ≈ 0.5) the clusters are
 * so well separated that every method finds everything.
 */
const SPREAD = Number(process.env.WASM_BENCH_SPREAD ?? 2.0);
const SEED = 7;

/** Seeded uniforms and standard normals, shared with the other benches. */
const seeded = seededRandom;

/** `n` points around CLUSTERS gaussian centres: centre + SPREAD * N(0, 1), the centre picked uniformly. */
function clustered(n: number, dim: number, centres: Float32Array, seed: number): Float32Array {
  const r = seeded(seed);
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(r.uniform() * CLUSTERS);
    for (let d = 0; d < dim; d++) out[i * dim + d] = (centres[c * dim + d] as number) + SPREAD * r.gaussian();
  }
  return out;
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The usearch index over `m`, from the tmpdir cache when its checksum verifies, else built and cached. */
function usearchIndex(m: Float32Array, n: number, dim: number): { index: Index; note: string } {
  const path = join(tmpdir(), `hybrid-mem-wasm-bench-usearch-${n}x${dim}-c${CLUSTERS}-sp${SPREAD}-s${SEED}-v1.usearch`);
  const make = (): Index => new Index({ dimensions: dim, metric: MetricKind.Cos, quantization: ScalarKind.F32, connectivity: 0, expansion_add: 0, expansion_search: 0, multi: false });
  if (existsSync(path) && existsSync(`${path}.sha256`) && sha256(path) === readFileSync(`${path}.sha256`, 'utf8')) {
    const index = make();
    index.load(path);
    if (index.size() === n) return { index, note: `loaded from ${path}` };
  }
  const index = make();
  const t = performance.now();
  index.add(BigUint64Array.from({ length: n }, (_, i) => BigInt(i)), m, 0);
  const buildS = (performance.now() - t) / 1000;
  const tmp = `${path}.${process.pid}.tmp`;
  index.save(tmp);
  writeFileSync(`${path}.sha256`, sha256(tmp));
  renameSync(tmp, path);
  return { index, note: `built in ${buildS.toFixed(0)} s (all threads), cached at ${path}` };
}

function recall(found: readonly (readonly number[])[], truth: readonly (readonly number[])[]): number {
  let hit = 0;
  found.forEach((f, i) => {
    const t = new Set(truth[i]);
    hit += f.filter((r) => t.has(r)).length;
  });
  return hit / (truth.length * K);
}

const fmt = (x: number | undefined): string => (x === undefined ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(1));

async function runDim(n: number, dim: number, withUsearch: boolean): Promise<void> {
  let t = performance.now();
  const centres = Float32Array.from({ length: CLUSTERS * dim }, seeded(SEED * 31 + dim).gaussian);
  const m = clustered(n, dim, centres, SEED + dim);
  const queries = clustered(QUERIES, dim, centres, SEED + dim + 1);
  const q = (i: number): Float32Array => queries.subarray((i % QUERIES) * dim, ((i % QUERIES) + 1) * dim);
  const compiled = compileCore();
  const f32 = VectorCore.create({ dim, compiled });
  const i8 = VectorCore.create({ dim, precision: 'i8', compiled });
  f32.addMany(m);
  i8.addMany(m);
  const norms = refRowNorms(m, dim);
  console.log(`\n${n} x ${dim}, ${CLUSTERS} clusters, spread ${SPREAD}: data + cores ready in ${((performance.now() - t) / 1000).toFixed(1)} s; WASM memory f32 ${(f32.memoryBytes / 2 ** 20).toFixed(0)} MiB, i8 ${(i8.memoryBytes / 2 ** 20).toFixed(0)} MiB`);

  const truth = Array.from({ length: QUERIES }, (_, i) => f32.searchExact(q(i), K).map((h) => h.row));
  const us = withUsearch ? usearchIndex(m, n, dim) : null;
  if (us) console.log(`usearch HNSW (connectivity/expansion defaults, f32, cos): ${us.note}`);
  const found = {
    js: Array.from({ length: QUERIES }, (_, i) => refSearchExact(m, dim, q(i), K, undefined, norms).map((h) => h.row)),
    i8: Array.from({ length: QUERIES }, (_, i) => i8.searchExact(q(i), K).map((h) => h.row)),
    usearch: us ? Array.from({ length: QUERIES }, (_, i) => Array.from(us.index.search(q(i), K, 1).keys, Number)) : [],
  };

  const out = new Float32Array(n);
  let c = 0;
  const bench = new Bench({ time: 1500, iterations: 8, warmupTime: 300, warmupIterations: 3 });
  const names = {
    jsDot: `JS dot x${n} (baseline)`, wasmDot: `WASM SIMD f32 dot x${n}`, i8Cos: `WASM SIMD i8 cosine x${n}`,
    jsTop: 'JS exact top-10 (baseline)', wasmTop: 'WASM f32 exact top-10', i8Top: 'WASM i8 exact top-10', usTop: 'usearch HNSW top-10 (approx, 1 thread)',
  };
  bench
    .add(names.jsDot, () => void refDotMany(q(c++), m, dim, out))
    .add(names.wasmDot, () => void f32.scoreAll(q(c++), 'dot', out))
    .add(names.i8Cos, () => void i8.scoreAll(q(c++), 'cosine', out))
    .add(names.jsTop, () => void refSearchExact(m, dim, q(c++), K, undefined, norms))
    .add(names.wasmTop, () => void f32.searchExact(q(c++), K))
    .add(names.i8Top, () => void i8.searchExact(q(c++), K));
  if (us) bench.add(names.usTop, () => void us.index.search(q(c++), K, 1));
  t = performance.now();
  await bench.run();
  const lat = (name: string): { mean: number; p50?: number; p99?: number } | undefined => {
    const r = bench.getTask(name)?.result;
    return r && 'latency' in r ? r.latency : undefined;
  };
  const row = (name: string, base: string, rec?: number): Record<string, string> => {
    const l = lat(name);
    const b = lat(base);
    return {
      case: name, 'mean ms': fmt(l?.mean), 'p99 ms': fmt(l?.p99),
      'speed-up vs baseline': l && b ? `${(b.mean / l.mean).toFixed(2)}x` : '-',
      ...(rec === undefined ? {} : { [`recall@${K}`]: rec.toFixed(3) }),
    };
  };
  console.log(`\n${n} x ${dim}: batch scoring, one query against every row (ms per query; bench ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  console.table([row(names.jsDot, names.jsDot), row(names.wasmDot, names.jsDot), row(names.i8Cos, names.jsDot)]);
  console.log(`${n} x ${dim}: top-${K} search by cosine (recall against the exact answer, ${QUERIES} queries)`);
  console.table([
    row(names.jsTop, names.jsTop, recall(found.js, truth)),
    row(names.wasmTop, names.jsTop, 1),
    row(names.i8Top, names.jsTop, recall(found.i8, truth)),
    ...(us ? [row(names.usTop, names.jsTop, recall(found.usearch, truth))] : []),
  ]);
}

export async function main(): Promise<void> {
  const n = Number(process.env.WASM_BENCH_N ?? 100_000);
  const dims = (process.env.WASM_BENCH_DIMS ?? '384,512').split(',').map(Number);
  const withUsearch = process.env.WASM_BENCH_USEARCH !== '0';
  for (const dim of dims) await runDim(n, dim, withUsearch);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
