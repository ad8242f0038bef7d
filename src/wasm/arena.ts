/**
 * One instance of the core plus typed views over its linear memory. The views are re-created whenever
 * the memory grows: growing detaches the old ArrayBuffer, so never hold a view across a grow.
 */
import { MemoryError } from '../core/errors.js';
import type { CompiledCore, CoreExports } from './loader.js';

const PAGE = 65_536;
/** wasm32 linear memory tops out at 65536 pages (4 GiB). */
const MAX_BYTES = 65_536 * PAGE;

/** Rounds a byte offset up to 16 (one v128). */
export function align16(n: number): number {
  return (n + 15) & ~15;
}

export class WasmArena {
  readonly fn: CoreExports;
  /** First usable byte, 16-aligned, past the module's static data. */
  readonly base: number;
  #buffer: ArrayBuffer;
  #f32: Float32Array;
  #u32: Uint32Array;
  #u8: Uint8Array;
  #i8: Int8Array;

  constructor(compiled: CompiledCore) {
    this.fn = compiled.instantiate();
    this.base = align16(this.fn.heapBase());
    this.#buffer = this.fn.memory.buffer;
    this.#f32 = new Float32Array(this.#buffer);
    this.#u32 = new Uint32Array(this.#buffer);
    this.#u8 = new Uint8Array(this.#buffer);
    this.#i8 = new Int8Array(this.#buffer);
  }

  /** Bytes of linear memory currently available. */
  get byteLength(): number {
    return this.fn.memory.buffer.byteLength;
  }

  /**
   * Grows the memory so that bytes [0, end) exist, with 1/8 slack so that scratch growing by a few rows
   * does not grow the memory every call (VectorCore already doubles its row capacity; doubling here too
   * would reserve up to 4x the rows).
   */
  ensure(end: number): void {
    const have = this.fn.memory.buffer.byteLength;
    if (end <= have) return;
    const want = Math.min(MAX_BYTES, Math.max(end, have + Math.floor(have / 8)));
    if (end > MAX_BYTES) {
      throw new MemoryError('MEM_ERR_INTERNAL', `WASM vector core needs ${end} bytes, above the 4 GiB limit of wasm32 memory`);
    }
    try {
      this.fn.memory.grow(Math.ceil((want - have) / PAGE));
    } catch (err) {
      throw new MemoryError('MEM_ERR_INTERNAL', `WASM vector core could not grow its memory to ${want} bytes`, { cause: err });
    }
  }

  #refresh(): void {
    const buffer = this.fn.memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#f32 = new Float32Array(buffer);
    this.#u32 = new Uint32Array(buffer);
    this.#u8 = new Uint8Array(buffer);
    this.#i8 = new Int8Array(buffer);
  }

  /** Whole-memory views, indexed by element (byte offset / element size). */
  get f32(): Float32Array {
    this.#refresh();
    return this.#f32;
  }
  get u32(): Uint32Array {
    this.#refresh();
    return this.#u32;
  }
  get u8(): Uint8Array {
    this.#refresh();
    return this.#u8;
  }
  get i8(): Int8Array {
    this.#refresh();
    return this.#i8;
  }

  /** Copies `src` (numbers) into memory at byte offset `ptr` as f32. */
  writeF32(ptr: number, src: ArrayLike<number>): void {
    this.f32.set(src, ptr >>> 2);
  }

  /** A copy of `len` f32 values at byte offset `ptr`. */
  readF32(ptr: number, len: number): Float32Array {
    return this.f32.slice(ptr >>> 2, (ptr >>> 2) + len);
  }
}
