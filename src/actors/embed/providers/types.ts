/** What every embedding provider offers, and the helpers they share. */
import { MemoryError } from '../../../core/errors.js';
import type { EmbedderInfo, EmbeddingProvider } from '../contract.js';

/** A loaded model. `embed` returns n x dim floats, one L2-normalised row per text, in order. */
export interface Embedder {
  readonly info: EmbedderInfo;
  /** The folder the weights were read from (for logs and tests). */
  readonly source: string;
  embed(texts: readonly string[]): Promise<Float32Array>;
  /** Frees the model's native or WASM memory. */
  dispose(): Promise<void>;
}

/** MEM_ERR_EMBEDDING_MODEL naming the provider and the file, keeping the original error as `cause`. */
export function modelError(provider: EmbeddingProvider, file: string, what: string, cause?: unknown): MemoryError {
  const why = cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : String(cause)}`;
  return new MemoryError('MEM_ERR_EMBEDDING_MODEL', `${provider}: ${what} (${file})${why}`, {
    details: { provider, file },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Copies `rows` (n x dim, any array-like) into a fresh Float32Array with every row scaled to unit length.
 * A fresh buffer, so the caller may transfer it; a zero row stays zero (there is no direction to keep).
 */
export function normalizeRows(rows: ArrayLike<number>, n: number, dim: number): Float32Array {
  if (rows.length !== n * dim) throw new Error(`expected ${n} x ${dim} values, got ${rows.length}`);
  const out = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    const base = r * dim;
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      const v = rows[base + i] as number;
      sum += v * v;
    }
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < dim; i++) out[base + i] = (rows[base + i] as number) * scale;
  }
  return out;
}
