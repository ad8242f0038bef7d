/**
 * The rows of a VectorCore in WASM linear memory, and the memory layout around them (byte offsets, all
 * 16-aligned; one private memory per core):
 *
 *   [query f32: dim*4][query i8: dim][norms or scales: cap*4][rows: cap*stride][scratch: per call]
 *
 * f32 rows keep their values and a norm each; i8 rows keep unit-normalised int8 codes and a dequantization
 * scale each (in the norms slot). Growing the capacity moves the rows region up (memmove, so the regions
 * may overlap) and leaves the norms in place; the norms region simply extends into the old rows bytes.
 */
import { invalidInput } from '../core/errors.js';
import { align16, type WasmArena } from './arena.js';

/** f32 keeps rows as given (exact cosine); i8 keeps unit-normalised int8 codes + one scale per row (4x smaller). */
export type Precision = 'f32' | 'i8';

/** Scratch used to stage incoming rows (i8 quantization, replacements). */
const STAGE_BYTES = 1 << 20;

function slice(v: ArrayLike<number>, start: number, end: number): ArrayLike<number> {
  return ArrayBuffer.isView(v) ? (v as Float32Array).subarray(start, end) : (Array.prototype.slice.call(v, start, end) as number[]);
}

/** Checks a row index against the live rows. */
export function rowIndex(path: string, row: unknown, size: number): number {
  if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= size) {
    throw invalidInput(path, `a row index in [0, ${size})`, row);
  }
  return row;
}

export class RowStore {
  readonly arena: WasmArena;
  readonly dim: number;
  readonly precision: Precision;
  /** Bytes per row. */
  readonly stride: number;
  /** Where a query is staged: as f32, and (i8 precision) as codes. */
  readonly qF32: number;
  readonly qI8: number;
  /** One f32 per row: its norm (f32) or its scale (i8). */
  readonly norms: number;
  #rows: number;
  #cap: number;
  size = 0;

  constructor(arena: WasmArena, dim: number, precision: Precision, capacity: number) {
    this.arena = arena;
    this.dim = dim;
    this.precision = precision;
    this.stride = precision === 'f32' ? dim * 4 : dim;
    this.qF32 = arena.base;
    this.qI8 = align16(this.qF32 + dim * 4);
    this.norms = align16(this.qI8 + dim);
    this.#cap = capacity;
    this.#rows = align16(this.norms + capacity * 4);
    arena.ensure(this.#scratchBase());
  }

  get capacity(): number {
    return this.#cap;
  }
  /** Start of the rows region (it moves when the capacity grows). */
  get rows(): number {
    return this.#rows;
  }
  rowPtr(row: number): number {
    return this.#rows + row * this.stride;
  }
  normAt(row: number): number {
    return this.arena.f32[(this.norms >>> 2) + row] as number;
  }
  #scratchBase(): number {
    return align16(this.#rows + this.#cap * this.stride);
  }
  /** `bytes` of scratch past the rows, valid until the next call that may grow the memory. */
  scratch(bytes: number): number {
    const at = this.#scratchBase();
    this.arena.ensure(at + bytes);
    return at;
  }

  /** Makes room for `rows` rows, at least doubling the capacity. */
  reserve(rows: number): void {
    if (rows <= this.#cap) return;
    const cap = Math.max(rows, this.#cap * 2);
    const to = align16(this.norms + cap * 4);
    this.arena.ensure(align16(to + cap * this.stride));
    this.arena.u8.copyWithin(to, this.#rows, this.#rows + this.size * this.stride);
    this.#rows = to;
    this.#cap = cap;
  }

  /**
   * Writes n = vectors.length / dim rows at row `at` (an existing row, or `size` after reserve). Rows
   * are checked through their norms before they count, so a NaN or Infinity anywhere rejects the call
   * and leaves the store unchanged: appended rows land past `size` (nothing live there) and the caller
   * moves `size` only after this returns; a replaced row is staged in scratch first.
   */
  write(at: number, vectors: ArrayLike<number>, path: string): number {
    const { dim } = this;
    if (vectors.length === 0 || vectors.length % dim !== 0) {
      throw invalidInput(path, `a non-empty multiple of ${dim} values`, `${vectors.length} values`);
    }
    const n = vectors.length / dim;
    if (this.precision === 'f32' && at >= this.size) {
      this.arena.writeF32(this.rowPtr(at), vectors);
      this.#checkNorms(this.rowPtr(at), n, this.norms + at * 4, path, 0);
      return n;
    }
    // Through scratch in chunks, so a bulk i8 add does not leave a scratch as large as its f32 input.
    const chunk = Math.max(1, Math.floor(STAGE_BYTES / (dim * 4)));
    for (let first = 0; first < n; first += chunk) {
      const c = Math.min(chunk, n - first);
      const stage = this.scratch(c * dim * 4 + c * 4);
      const norms = stage + c * dim * 4;
      this.arena.writeF32(stage, slice(vectors, first * dim, (first + c) * dim));
      this.#checkNorms(stage, c, norms, path, first);
      const dst = this.rowPtr(at + first);
      if (this.precision === 'f32') {
        this.arena.u8.copyWithin(dst, stage, stage + c * this.stride);
        this.arena.f32.copyWithin((this.norms >>> 2) + at + first, norms >>> 2, (norms >>> 2) + c);
      } else {
        for (let r = 0; r < c; r++) this.arena.fn.l2Normalize(stage + r * dim * 4, dim);
        this.arena.fn.quantizeRows(stage, c, dim, dst, this.norms + (at + first) * 4);
      }
    }
    return n;
  }

  /** Row norms of n staged rows into `out`; throws naming the first row that is not finite. */
  #checkNorms(rows: number, n: number, out: number, path: string, firstRow: number): void {
    this.arena.fn.rowNorms(rows, n, this.dim, 0, out);
    const f32 = this.arena.f32;
    for (let r = 0; r < n; r++) {
      if (!Number.isFinite(f32[(out >>> 2) + r])) {
        throw invalidInput(`${path}[row ${firstRow + r}]`, 'finite numbers', 'NaN, Infinity or an overflowing value');
      }
    }
  }

  /** A copy of a row (i8: the dequantized unit vector). */
  read(row: number): Float32Array {
    if (this.precision === 'f32') return this.arena.readF32(this.rowPtr(row), this.dim);
    const scale = this.normAt(row);
    const codes = this.arena.i8.subarray(this.rowPtr(row), this.rowPtr(row) + this.dim);
    return Float32Array.from(codes, (c) => c * scale);
  }

  /** Moves the last row into `row` and drops the last; returns the moved row's old index, or null. */
  swapRemove(row: number): number | null {
    const last = this.size - 1;
    this.size = last;
    if (row === last) return null;
    this.arena.u8.copyWithin(this.rowPtr(row), this.rowPtr(last), this.rowPtr(last) + this.stride);
    const f32 = this.arena.f32;
    f32[(this.norms >>> 2) + row] = f32[(this.norms >>> 2) + last] as number;
    return last;
  }
}
