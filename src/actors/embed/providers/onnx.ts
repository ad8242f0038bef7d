/**
 * A local ONNX sentence-embedding model run by @xenova/transformers 2.17 (`feature-extraction`, mean
 * pooling, L2-normalised), laid out as transformers.js expects under `modelDir`:
 * `<modelDir>/<model>/{config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx | onnx/model.onnx}`.
 *
 * Offline by default: with `allowRemote` off we check the files ourselves first and fail with
 * MEM_ERR_EMBEDDING_MODEL naming the missing path, before transformers.js is even imported; it is also
 * told `allowRemoteModels = false`, so it would not fetch either. Under Node, transformers.js runs
 * onnxruntime-node (native, CPU execution provider), not the WASM build: `env.backends.onnx.wasm.*`
 * (numThreads, wasmPaths) has no effect here, and the session's intra-op thread count is ONNX Runtime's
 * default (transformers.js 2.x passes no session options).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FeatureExtractionPipeline } from '@xenova/transformers';
import type { EmbedderSpec } from '../contract.js';
import { modelError, normalizeRows, type Embedder } from './types.js';

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;

/** The files a local model needs, and which .onnx file the pipeline will load. */
export function onnxModelFiles(modelDir: string, model: string): { readonly dir: string; readonly onnx: string; readonly quantized: boolean } {
  const dir = resolve(modelDir, model);
  const quantizedFile = join(dir, 'onnx', 'model_quantized.onnx');
  // transformers.js loads onnx/model_quantized.onnx when `quantized` (its default) and onnx/model.onnx
  // otherwise; take the quantized file when it is there.
  const quantized = existsSync(quantizedFile) || !existsSync(join(dir, 'onnx', 'model.onnx'));
  return { dir, onnx: quantized ? quantizedFile : join(dir, 'onnx', 'model.onnx'), quantized };
}

export async function loadOnnx(spec: EmbedderSpec): Promise<Embedder> {
  if (!spec.modelDir || !spec.model) throw modelError('onnx', 'embedding.modelDir / embedding.model', 'provider "onnx" needs modelDir and model');
  const root = resolve(spec.modelDir);
  const files = onnxModelFiles(root, spec.model);
  if (!spec.allowRemote) {
    for (const f of [...REQUIRED.map((r) => join(files.dir, r)), files.onnx]) {
      if (!existsSync(f)) throw modelError('onnx', f, 'model file missing; allowRemote is off, so nothing was downloaded');
    }
  }
  let extractor: FeatureExtractionPipeline;
  try {
    const { env, pipeline } = await import('@xenova/transformers');
    // transformers.js keeps these in one module-level object, read during the load below: callers load
    // one spec at a time per thread (the worker serialises loads).
    env.allowLocalModels = true;
    env.allowRemoteModels = spec.allowRemote;
    env.localModelPath = root;
    env.useBrowserCache = false;
    // A download (only with allowRemote) is cached where the local lookup finds it next time.
    env.useFSCache = spec.allowRemote;
    env.cacheDir = root;
    extractor = await pipeline('feature-extraction', spec.model, { quantized: files.quantized, local_files_only: !spec.allowRemote });
  } catch (err) {
    throw modelError('onnx', files.onnx, 'cannot load the model', err);
  }
  const run = async (texts: readonly string[]): Promise<Float32Array> => {
    let out: { data: ArrayLike<number>; dims: readonly number[] };
    try {
      out = (await extractor([...texts], { pooling: 'mean', normalize: true })) as unknown as typeof out;
    } catch (err) {
      throw modelError('onnx', files.onnx, `embedding ${texts.length} texts failed`, err);
    }
    const [n, dim] = out.dims;
    if (out.dims.length !== 2 || n !== texts.length || !dim) throw modelError('onnx', files.onnx, `expected ${texts.length} x dim output, the model gave [${out.dims.join(', ')}]`);
    return normalizeRows(out.data, n, dim);
  };
  // The model's width, from its output rather than config.json (which need not state it).
  const probe = await run(['dimension probe']);
  const info = { provider: 'onnx', modelId: `onnx:${spec.model}`, dim: probe.length } as const;
  return {
    info,
    source: files.dir,
    embed: (texts) => (texts.length === 0 ? Promise.resolve(new Float32Array(0)) : run(texts)),
    async dispose() {
      await extractor.dispose();
    },
  };
}
