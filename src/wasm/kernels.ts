/**
 * One-off SIMD kernels over vectors that live in JS: each call copies its inputs into a private WASM
 * memory, runs the kernel and copies the result out. For repeated search over a stable set of rows use
 * VectorCore, which keeps the rows in WASM memory.
 */
import { invalidInput } from '../core/errors.js';
import { align16, WasmArena } from './arena.js';
import { compileCore, type CompiledCore } from './loader.js';
import type { QuantizedVector, ScoredRow } from './reference.js';

export interface KernelOptions {
  /** A .wasm other than the one beside this module (tests use it to check the loader's errors). */
  readonly wasmPath?: string;
  /** An already compiled core, to share one compile between several instances. */
  readonly compiled?: CompiledCore;
}

function sameLength(a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) throw invalidInput('b', `a vector of ${a.length} values (the length of a)`, `${b.length} values`);
}

function matrixRows(query: ArrayLike<number>, matrix: ArrayLike<number>): number {
  const dim = query.length;
  if (dim === 0 || matrix.length % dim !== 0) {
    throw invalidInput('matrix', `a multiple of the query length (${dim}) of values`, `${matrix.length} values`);
  }
  return matrix.length / dim;
}

/** Stateless-looking SIMD kernels; the instance only keeps a scratch memory between calls. */
export class VectorKernels {
  readonly #arena: WasmArena;

  private constructor(arena: WasmArena) {
    this.#arena = arena;
  }

  /** Loads the core synchronously; throws MEM_ERR_INTERNAL naming the file if it is missing or invalid. */
  static load(options: KernelOptions = {}): VectorKernels {
    return new VectorKernels(new WasmArena(options.compiled ?? compileCore(options.wasmPath)));
  }

  /** Copies the inputs one after another from the arena base; returns their byte offsets. */
  #stage(f32s: readonly ArrayLike<number>[], extraBytes = 0): number[] {
    const ptrs: number[] = [];
    let at = this.#arena.base;
    for (const v of f32s) {
      ptrs.push(at);
      at = align16(at + v.length * 4);
    }
    ptrs.push(at);
    this.#arena.ensure(at + extraBytes);
    f32s.forEach((v, i) => this.#arena.writeF32(ptrs[i] as number, v));
    return ptrs;
  }

  dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
    sameLength(a, b);
    const [pa, pb] = this.#stage([a, b]) as [number, number];
    return this.#arena.fn.dot(pa, pb, a.length);
  }

  /** Cosine similarity in [-1, 1]; 0 when either vector is zero. */
  cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
    sameLength(a, b);
    const [pa, pb] = this.#stage([a, b]) as [number, number];
    return this.#arena.fn.cosine(pa, pb, a.length);
  }

  norm(a: ArrayLike<number>): number {
    const [pa] = this.#stage([a]) as [number];
    return this.#arena.fn.norm(pa, a.length);
  }

  /** A unit-length copy (a zero vector stays zero). */
  normalize(a: ArrayLike<number>): Float32Array {
    const [pa] = this.#stage([a]) as [number];
    this.#arena.fn.l2Normalize(pa, a.length);
    return this.#arena.readF32(pa, a.length);
  }

  /** query . row for every row of a flat row-major matrix (row length = query length). */
  dotMany(query: ArrayLike<number>, matrix: ArrayLike<number>): Float32Array {
    const n = matrixRows(query, matrix);
    const [pq, pm, out] = this.#stage([query, matrix], n * 4) as [number, number, number];
    this.#arena.fn.dotBatch(pq, pm, n, query.length, 0, out);
    return this.#arena.readF32(out, n);
  }

  /** cosine(query, row) for every row of a flat row-major matrix. */
  cosineMany(query: ArrayLike<number>, matrix: ArrayLike<number>): Float32Array {
    const n = matrixRows(query, matrix);
    const [pq, pm, out] = this.#stage([query, matrix], n * 4) as [number, number, number];
    this.#arena.fn.cosineBatch(pq, pm, n, query.length, 0, 0, out);
    return this.#arena.readF32(out, n);
  }

  /** The best min(k, n) scores, best first; equal scores by lower index. */
  topK(scores: ArrayLike<number>, k: number): ScoredRow[] {
    if (!Number.isInteger(k) || k < 0) throw invalidInput('k', 'a non-negative integer', k);
    const m = Math.min(k, scores.length);
    const [ps, outIdx] = this.#stage([scores], m * 8) as [number, number];
    const outScores = outIdx + m * 4;
    const count = this.#arena.fn.topK(ps, scores.length, m, 0, outIdx, outScores);
    const u32 = this.#arena.u32;
    const f32 = this.#arena.f32;
    const res: ScoredRow[] = [];
    for (let i = 0; i < count; i++) res.push({ row: u32[(outIdx >>> 2) + i] as number, score: f32[(outScores >>> 2) + i] as number });
    return res;
  }

  /** Per-vector int8 quantization: x[i] ≈ codes[i] * scale. */
  quantizeI8(v: ArrayLike<number>): QuantizedVector {
    const [pv, dst] = this.#stage([v], v.length) as [number, number];
    const scale = this.#arena.fn.quantizeI8(pv, v.length, dst);
    return { codes: this.#arena.i8.slice(dst, dst + v.length), scale };
  }

  /** Exact integer dot product of two int8 code vectors (i32 accumulation). */
  dotI8(a: Int8Array, b: Int8Array): number {
    sameLength(a, b);
    const pa = this.#arena.base;
    const pb = align16(pa + a.length);
    this.#arena.ensure(pb + b.length);
    const i8 = this.#arena.i8;
    i8.set(a, pa);
    i8.set(b, pb);
    return this.#arena.fn.dotI8(pa, pb, a.length);
  }
}
