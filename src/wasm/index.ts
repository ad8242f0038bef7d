/**
 * The WASM vector core: SIMD kernels (AssemblyScript, ./assembly) for exact dot/cosine, batch scoring,
 * exact top-k, L2 normalisation and int8 scalar quantization, plus the plain-JS reference versions used
 * as the baseline in tests and benches. See README.md in this folder.
 */
export { compileCore, CORE_ABI_VERSION, DEFAULT_WASM_PATH, type CompiledCore, type CoreExports } from './loader.js';
export { VectorKernels, type KernelOptions } from './kernels.js';
export { VectorCore, type Precision, type VectorCoreOptions } from './vector-core.js';
export {
  allowedRows, cosineFrom, refCosine, refCosineMany, refDot, refDotI8, refDotMany, refNorm, refNormalize, refPairwise,
  refQuantizeI8, refRowNorms, refSearchExact, refTopK, sortPairs,
  type QuantizedVector, type RowFilter, type RowPair, type ScoredRow,
} from './reference.js';
