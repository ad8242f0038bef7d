/**
 * Embedding throughput (sentences/s): the provider called in this thread (the baseline) against the same
 * provider behind EmbedClient (the actor: a piscina worker, envelope, transferred Float32Array), with the
 * same sentences in the same order, one sentence per call and 32 per call. Goal: actor overhead < 10%.
 * The shipped USE-lite model is the real case; the generated tiny ONNX model costs microseconds per call,
 * so its rows show the actor's fixed per-call cost rather than a meaningful ratio.
 * Run: node --import tsx bench/embed.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { EmbedClient } from '../src/actors/embed/client.js';
import type { EmbedderSpec } from '../src/actors/embed/contract.js';
import { loadEmbedder } from '../src/actors/embed/providers/index.js';
import { writeTinyOnnxModel } from '../test/fixtures/tiny-onnx.js';

const SUBJECTS = ['the prod database', 'our staging cluster', 'the billing service', 'the backup job', 'the VPN gateway', 'the mail relay', 'the CI runner', 'the metrics stack'];
const FACTS = ['runs on port 5432 behind the bastion host', 'rotates its credentials every thirty days', 'was migrated to the new region last week', 'needs an SSH key from the vault to log in', 'pages the on-call engineer when disk is full', 'keeps nightly snapshots for two weeks'];

/** 256 distinct sentences, cycled; each measured path walks them from the start. */
const SENTENCES = Array.from({ length: 256 }, (_, i) => `Note ${i}: ${SUBJECTS[i % SUBJECTS.length]} ${FACTS[(i * 5) % FACTS.length]}.`);

function cycler(batch: number): () => string[] {
  let at = 0;
  return () => {
    const out = Array.from({ length: batch }, (_, k) => SENTENCES[(at + k) % SENTENCES.length] as string);
    at = (at + batch) % SENTENCES.length;
    return out;
  };
}

interface Row {
  readonly case: string;
  readonly 'in-process sent/s': number;
  readonly 'actor sent/s': number;
  readonly 'in-process ms/sent': string;
  readonly 'actor ms/sent': string;
  readonly 'actor / in-process': string;
  readonly 'per-round range': string;
}

type Path = 'in-process' | 'actor';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * The two paths are measured in many short alternating rounds (a tinybench run of a few calls each, the
 * order flipped every round); the figures are medians over rounds. The machine is shared (two cores,
 * other jobs running): back-to-back blocks of seconds drift by tens of percent, and whichever path ran
 * in the slower block would carry that drift; pairing each round's two runs cancels it.
 */
async function measure(name: string, n: number, paths: Record<Path, (texts: string[]) => Promise<unknown>>, rounds: number, iterations: number): Promise<Row> {
  const lat: Record<Path, number[]> = { 'in-process': [], actor: [] };
  const ratios: number[] = [];
  const next = { 'in-process': cycler(n), actor: cycler(n) };
  for (let r = 0; r < rounds; r++) {
    const bench = new Bench({ time: 1, iterations, warmup: r === 0, warmupIterations: iterations });
    const order: readonly Path[] = r % 2 ? ['actor', 'in-process'] : ['in-process', 'actor'];
    for (const k of order) bench.add(k, async () => void (await paths[k](next[k]())));
    await bench.run();
    const mean = (k: Path): number => {
      const res = bench.getTask(k)?.result;
      if (!res || !('latency' in res)) throw new Error(`${name}: ${k} did not run`);
      return res.latency.mean;
    };
    lat['in-process'].push(mean('in-process'));
    lat.actor.push(mean('actor'));
    ratios.push(mean('in-process') / mean('actor'));
  }
  const perSent = (k: Path) => median(lat[k]) / n;
  return {
    case: `${name}, ${n}/call`,
    'in-process sent/s': Math.round(1000 / perSent('in-process')),
    'actor sent/s': Math.round(1000 / perSent('actor')),
    'in-process ms/sent': perSent('in-process').toFixed(3),
    'actor ms/sent': perSent('actor').toFixed(3),
    'actor / in-process': median(ratios).toFixed(3),
    'per-round range': `${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}`,
  };
}

/** `plan`: batch size -> [rounds, calls per path per round]. */
async function compare(name: string, spec: EmbedderSpec, plan: ReadonlyMap<number, readonly [number, number]>): Promise<Row[]> {
  const local = await loadEmbedder(spec);
  const client = new EmbedClient(spec);
  await client.warm();
  const rows: Row[] = [];
  for (const [n, [rounds, iterations]] of plan) {
    rows.push(await measure(name, n, { 'in-process': (t) => local.embed(t), actor: (t) => client.embedMany(t) }, rounds, iterations));
  }
  await Promise.all([client.close(), local.dispose()]);
  return rows;
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-embed-bench-'));
  try {
    const tiny = writeTinyOnnxModel(dir);
    const rows = [
      ...(await compare('use-lite', { provider: 'use-lite', modelDir: null, model: null, allowRemote: false }, new Map([[1, [15, 8]], [32, [15, 2]]]))),
      ...(await compare('tiny onnx', { provider: 'onnx', modelDir: tiny.modelDir, model: tiny.model, allowRemote: false }, new Map([[1, [15, 200]], [32, [15, 100]]]))),
    ];
    console.log('\nembedding throughput: provider in this thread (baseline) vs through EmbedClient (actor); medians over alternating rounds');
    console.table(rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
