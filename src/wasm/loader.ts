/**
 * Synchronous loader of the WASM vector core: reads vector-core.wasm from beside this module (src/wasm
 * under tsx, dist/wasm after `npm run build`), compiles it and instantiates it with its own memory.
 * The module is ~6 KB and has no imports, so a synchronous compile costs well under a millisecond.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MemoryError } from '../core/errors.js';

/** The ABI the loader speaks; must equal `abiVersion()` in assembly/index.ts. */
export const CORE_ABI_VERSION = 2;

/** Where the loader looks by default: vector-core.wasm next to this file. */
export const DEFAULT_WASM_PATH = fileURLToPath(new URL('./vector-core.wasm', import.meta.url));

/** The raw exports of vector-core.wasm. Pointers are byte offsets into `memory`; `idx` 0 means "no index list". */
export interface CoreExports {
  readonly memory: WasmMemory;
  abiVersion(): number;
  heapBase(): number;
  dot(a: number, b: number, dim: number): number;
  norm(a: number, dim: number): number;
  cosine(a: number, b: number, dim: number): number;
  l2Normalize(a: number, dim: number): number;
  rowNorms(base: number, n: number, dim: number, idx: number, out: number): void;
  dotBatch(q: number, base: number, n: number, dim: number, idx: number, out: number): void;
  cosineBatch(q: number, base: number, n: number, dim: number, norms: number, idx: number, out: number): void;
  quantizeI8(src: number, dim: number, dst: number): number;
  quantizeRows(src: number, n: number, dim: number, dst: number, scales: number): void;
  dotI8(a: number, b: number, dim: number): number;
  dotI8Batch(q: number, qScale: number, base: number, n: number, dim: number, scales: number, idx: number, out: number): void;
  topK(scores: number, n: number, k: number, idx: number, outIdx: number, outScores: number): number;
  // Sentence-encoder kernels (assembly/encoder.ts).
  packB(src: number, dst: number, k: number, n: number): void;
  gemm(a: number, lda: number, b: number, bias: number, c: number, ldc: number, m: number, k: number, n: number, mode: number): void;
  layerNorm(x: number, out: number, rows: number, dim: number, scale: number, bias: number, eps: number): void;
  attention(qkv: number, out: number, len: number, dim: number, heads: number, scale: number, scores: number): void;
}

/** The part of WebAssembly.Memory we use. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

/** A compiled core, instantiable many times (each instance owns a separate memory). */
export interface CompiledCore {
  readonly path: string;
  instantiate(): CoreExports;
}

// @types/node 20 does not declare the WebAssembly global (TypeScript has it only in lib.dom), so the few
// members used here are typed locally instead of pulling DOM types into the whole project.
interface WasmGlobal {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: Record<string, never>) => { readonly exports: Record<string, unknown> };
}
const WASM = (globalThis as unknown as { readonly WebAssembly: WasmGlobal }).WebAssembly;

const FUNCTIONS = [
  'abiVersion', 'heapBase', 'dot', 'norm', 'cosine', 'l2Normalize', 'rowNorms', 'dotBatch', 'cosineBatch',
  'quantizeI8', 'quantizeRows', 'dotI8', 'dotI8Batch', 'topK', 'packB', 'gemm', 'layerNorm', 'attention',
] as const satisfies readonly Exclude<keyof CoreExports, 'memory'>[];

function fail(path: string, what: string, cause?: unknown): MemoryError {
  return new MemoryError(
    'MEM_ERR_INTERNAL',
    `WASM vector core at ${path} ${what}; rebuild it with \`npm run build:wasm\` (dist builds copy it with \`npm run build\`)`,
    cause === undefined ? undefined : { cause },
  );
}

/** Reads and compiles the core synchronously; throws MEM_ERR_INTERNAL naming the path on any failure. */
export function compileCore(path: string = DEFAULT_WASM_PATH): CompiledCore {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw fail(path, missing ? 'is missing' : 'cannot be read', err);
  }
  let module: object;
  try {
    module = new WASM.Module(bytes);
  } catch (err) {
    throw fail(path, 'is not a valid WebAssembly module', err);
  }
  return { path, instantiate: () => instantiate(path, module) };
}

function instantiate(path: string, module: object): CoreExports {
  let exports: Record<string, unknown>;
  try {
    exports = new WASM.Instance(module, {}).exports;
  } catch (err) {
    throw fail(path, 'cannot be instantiated', err);
  }
  for (const name of FUNCTIONS) {
    if (typeof exports[name] !== 'function') throw fail(path, `lacks the export ${name}()`);
  }
  const memory = exports['memory'] as Partial<WasmMemory> | undefined;
  if (!memory || !(memory.buffer instanceof ArrayBuffer) || typeof memory.grow !== 'function') {
    throw fail(path, 'does not export its memory');
  }
  const core = exports as unknown as CoreExports;
  const abi = core.abiVersion();
  if (abi !== CORE_ABI_VERSION) throw fail(path, `speaks ABI ${abi}, this loader expects ${CORE_ABI_VERSION}`);
  return core;
}
