// Entry of the WASM vector core. The JS loader (../index.ts) owns the memory layout: it grows the
// exported memory and passes byte offsets; nothing here allocates, so the module uses the stub runtime.

/** Bumped whenever an export's signature or meaning changes; the loader refuses a mismatched .wasm. */
export function abiVersion(): i32 {
  return 2;
}

/** First byte the loader may use (past the module's static data). */
export function heapBase(): usize {
  return __heap_base;
}

export { dot, norm, cosine, l2Normalize, rowNorms, dotBatch, cosineBatch } from './f32';
export { quantizeI8, quantizeRows, dotI8, dotI8Batch } from './i8';
export { topK } from './topk';
export { packB, gemm, layerNorm, attention } from './encoder';
