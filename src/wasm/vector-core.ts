/**
 * VectorCore: a matrix of rows kept in WASM linear memory, searched exactly with the SIMD kernels.
 * Used beside usearch: exact brute force for small or heavily filtered sets, exact re-rank of approximate
 * candidates (cosineMany), and suggested-link scans (pairwise). Rows are addressed by index 0..size-1;
 * removal swaps the last row into the hole, so callers that map keys to rows must follow `remove`'s answer.
 * Layout and storage: ./row-store.ts.
 */
import { invalidInput } from '../core/errors.js';
import { WasmArena } from './arena.js';
import { compileCore, type CompiledCore } from './loader.js';
import { allowedRows, sortPairs, type RowFilter, type RowPair, type ScoredRow } from './reference.js';
import { RowStore, rowIndex, type Precision } from './row-store.js';

export type { Precision } from './row-store.js';

export interface VectorCoreOptions {
  readonly dim: number;
  /** Default 'f32'. */
  readonly precision?: Precision;
  /** Rows to reserve up front (default 1024); the arena doubles when it fills. */
  readonly initialCapacity?: number;
  /** A .wasm other than the one beside this module. */
  readonly wasmPath?: string;
  /** An already compiled core, to share one compile between several cores. */
  readonly compiled?: CompiledCore;
}

export class VectorCore {
  readonly dim: number;
  readonly precision: Precision;
  readonly #s: RowStore;

  private constructor(options: VectorCoreOptions) {
    const { dim, precision = 'f32', initialCapacity = 1024 } = options;
    if (!Number.isInteger(dim) || dim < 1) throw invalidInput('dim', 'a positive integer', dim);
    if (precision !== 'f32' && precision !== 'i8') throw invalidInput('precision', "'f32' or 'i8'", precision);
    if (!Number.isInteger(initialCapacity) || initialCapacity < 1) throw invalidInput('initialCapacity', 'a positive integer', initialCapacity);
    this.dim = dim;
    this.precision = precision;
    this.#s = new RowStore(new WasmArena(options.compiled ?? compileCore(options.wasmPath)), dim, precision, initialCapacity);
  }

  /** Loads the core synchronously; throws MEM_ERR_INTERNAL naming the file if it is missing or invalid. */
  static create(options: VectorCoreOptions): VectorCore {
    return new VectorCore(options);
  }

  get size(): number {
    return this.#s.size;
  }
  /** Rows that fit before the next grow. */
  get capacity(): number {
    return this.#s.capacity;
  }
  /** Bytes of WASM memory reserved (rows, norms and scratch). */
  get memoryBytes(): number {
    return this.#s.arena.byteLength;
  }

  /** Appends one vector; returns its row index. */
  add(vector: ArrayLike<number>): number {
    if (vector.length !== this.dim) throw invalidInput('vector', `${this.dim} values`, `${vector.length} values`);
    return this.addMany(vector);
  }

  /** Appends rows from a flat row-major array (all or none); returns the index of the first new row. */
  addMany(vectors: ArrayLike<number>): number {
    const s = this.#s;
    const first = s.size;
    s.reserve(first + Math.ceil(vectors.length / this.dim));
    s.size += s.write(first, vectors, 'vectors');
    return first;
  }

  /** Replaces row `row` in place. */
  set(row: number, vector: ArrayLike<number>): void {
    rowIndex('row', row, this.#s.size);
    if (vector.length !== this.dim) throw invalidInput('vector', `${this.dim} values`, `${vector.length} values`);
    this.#s.write(row, vector, 'vector');
  }

  /** A copy of row `row` (i8: the dequantized unit vector, not the original magnitude). */
  get(row: number): Float32Array {
    return this.#s.read(rowIndex('row', row, this.#s.size));
  }

  /**
   * Removes row `row` by moving the last row into its place. Returns the old index of the row that moved
   * (size - 1 before the call), or null when the removed row was the last one.
   */
  remove(row: number): number | null {
    return this.#s.swapRemove(rowIndex('row', row, this.#s.size));
  }

  /** Drops every row (the memory stays reserved). */
  clear(): void {
    this.#s.size = 0;
  }

  /** Stages and checks a query; returns the pointer the kernels read it from and its i8 scale. */
  #query(query: ArrayLike<number>): { ptr: number; scale: number } {
    if (query.length !== this.dim) throw invalidInput('query', `${this.dim} values`, `${query.length} values`);
    const s = this.#s;
    const fn = s.arena.fn;
    s.arena.writeF32(s.qF32, query);
    if (!Number.isFinite(fn.norm(s.qF32, this.dim))) throw invalidInput('query', 'finite numbers', 'NaN, Infinity or an overflowing value');
    if (this.precision === 'f32') return { ptr: s.qF32, scale: 0 };
    fn.l2Normalize(s.qF32, this.dim);
    return { ptr: s.qI8, scale: fn.quantizeI8(s.qF32, this.dim, s.qI8) };
  }

  /** Cosine of the query at q.ptr against m rows (idx != 0: the row ids listed there), into out. */
  #cosines(q: { ptr: number; scale: number }, m: number, idx: number, out: number): void {
    const s = this.#s;
    if (this.precision === 'f32') s.arena.fn.cosineBatch(q.ptr, s.rows, m, this.dim, s.norms, idx, out);
    else s.arena.fn.dotI8Batch(q.ptr, q.scale, s.rows, m, this.dim, s.norms, idx, out);
  }

  /** Writes a row list to scratch (with `extra` bytes after it); returns its offset. */
  #rowList(rows: ArrayLike<number>, extra: number): number {
    const at = this.#s.scratch(rows.length * 4 + extra);
    this.#s.arena.u32.set(rows, at >>> 2);
    return at;
  }

  /**
   * Exact top-k rows by cosine, best first (equal scores: lower row first). `allowed` restricts the
   * candidates (a predicate on the row index, or a set of row indices; indices outside the rows are ignored).
   */
  searchExact(query: ArrayLike<number>, k: number, allowed?: RowFilter): ScoredRow[] {
    if (!Number.isInteger(k) || k < 0) throw invalidInput('k', 'a non-negative integer', k);
    const q = this.#query(query);
    const rows = allowed ? allowedRows(allowed, this.#s.size) : null;
    const m = rows ? rows.length : this.#s.size;
    const kk = Math.min(k, m);
    if (kk === 0) return [];
    const idx = rows ? this.#rowList(rows, m * 4 + kk * 8) : 0;
    const scores = rows ? idx + m * 4 : this.#s.scratch(m * 4 + kk * 8);
    const outIdx = scores + m * 4;
    const outScores = outIdx + kk * 4;
    this.#cosines(q, m, idx, scores);
    const count = this.#s.arena.fn.topK(scores, m, kk, idx, outIdx, outScores);
    const { u32, f32 } = this.#s.arena;
    const res: ScoredRow[] = [];
    for (let i = 0; i < count; i++) res.push({ row: u32[(outIdx >>> 2) + i] as number, score: f32[(outScores >>> 2) + i] as number });
    return res;
  }

  /** Cosine of the query against each listed row, in list order (exact re-rank of approximate candidates). */
  cosineMany(query: ArrayLike<number>, rows: readonly number[]): Float32Array {
    rows.forEach((r, i) => rowIndex(`rows[${i}]`, r, this.#s.size));
    const q = this.#query(query);
    if (rows.length === 0) return new Float32Array(0);
    const idx = this.#rowList(rows, rows.length * 4);
    const out = idx + rows.length * 4;
    this.#cosines(q, rows.length, idx, out);
    return this.#s.arena.readF32(out, rows.length);
  }

  /** Every pair among `rows` (distinct indices) with cosine >= threshold, highest first (suggested links). */
  pairwise(rows: readonly number[], threshold: number): RowPair[] {
    if (!Number.isFinite(threshold)) throw invalidInput('threshold', 'a finite number', threshold);
    const seen = new Set<number>();
    rows.forEach((r, i) => {
      if (seen.has(rowIndex(`rows[${i}]`, r, this.#s.size))) throw invalidInput(`rows[${i}]`, 'distinct row indices', r);
      seen.add(r);
    });
    const m = rows.length;
    if (m < 2) return [];
    const s = this.#s;
    const idx = this.#rowList(rows, m * 4);
    const scores = idx + m * 4;
    const pairs: RowPair[] = [];
    for (let i = 0; i < m - 1; i++) {
      const a = rows[i] as number;
      // The row itself is the query: no copy, it is already in the arena in the right form.
      this.#cosines({ ptr: s.rowPtr(a), scale: this.precision === 'i8' ? s.normAt(a) : 0 }, m - i - 1, idx + (i + 1) * 4, scores);
      const f32 = s.arena.f32;
      for (let j = i + 1; j < m; j++) {
        const score = f32[(scores >>> 2) + j - i - 1] as number;
        if (score >= threshold) pairs.push({ a, b: rows[j] as number, score });
      }
    }
    return sortPairs(pairs);
  }

  /** The query's score against every row, in row order: cosine, or (f32 only) the raw dot product. */
  scoreAll(query: ArrayLike<number>, metric: 'cosine' | 'dot' = 'cosine', out?: Float32Array): Float32Array {
    if (metric === 'dot' && this.precision === 'i8') throw invalidInput('metric', "'cosine' (an i8 core stores unit vectors)", metric);
    const n = this.#s.size;
    if (out && out.length < n) throw invalidInput('out', `a Float32Array of at least ${n} values`, `${out.length} values`);
    const q = this.#query(query);
    const scores = this.#s.scratch(n * 4);
    if (metric === 'dot') this.#s.arena.fn.dotBatch(q.ptr, this.#s.rows, n, this.dim, 0, scores);
    else this.#cosines(q, n, 0, scores);
    const view = this.#s.arena.f32.subarray(scores >>> 2, (scores >>> 2) + n);
    if (!out) return view.slice();
    out.set(view);
    return out;
  }
}
