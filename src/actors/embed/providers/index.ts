/**
 * Picks the provider a spec names. Each provider is imported on demand, so a worker running use-lite
 * never loads onnxruntime and one running onnx never loads TF.js.
 */
import { MemoryError } from '../../../core/errors.js';
import type { EmbedderSpec } from '../contract.js';
import type { Embedder } from './types.js';

export type { Embedder } from './types.js';

/** Loads the model a spec names (slow: seconds for a real model). Callers cache the result. */
export async function loadEmbedder(spec: EmbedderSpec): Promise<Embedder> {
  switch (spec.provider) {
    case 'use-lite':
      return (await import('./use-lite.js')).loadUseLite();
    case 'onnx':
      return (await import('./onnx.js')).loadOnnx(spec);
    default:
      throw new MemoryError('MEM_ERR_EMBEDDING_MODEL', `unknown embedding provider ${JSON.stringify((spec as { provider: unknown }).provider)}`);
  }
}

/** A key that is equal for specs that load the same model. */
export function specKey(spec: EmbedderSpec): string {
  return spec.provider === 'use-lite' ? 'use-lite' : JSON.stringify([spec.provider, spec.modelDir, spec.model, spec.allowRemote]);
}
