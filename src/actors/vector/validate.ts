/**
 * Checks at the worker's edge. Bad keys or vectors reaching usearch would throw deep in native code (or,
 * for NaN, silently poison distances), so they are refused here with what was expected and what arrived.
 */
import { MemoryError } from '../../core/errors.js';
import type { VectorInit } from './contract.js';

export const MAX_K = 1000;

function invalid(path: string, expected: string, received: string): MemoryError {
  return new MemoryError('MEM_ERR_INVALID_INPUT', `vector index: ${path} must be ${expected}, got ${received}`, { details: { path, expected, received } });
}

export function checkInit(cfg: VectorInit): VectorInit {
  for (const key of ['dbPath', 'indexPath', 'modelId'] as const) {
    if (typeof cfg?.[key] !== 'string' || cfg[key].length === 0) throw invalid(`init.${key}`, 'a non-empty string', String(cfg?.[key]));
  }
  if (!Number.isInteger(cfg.dim) || cfg.dim <= 0 || cfg.dim > 65_536) throw invalid('init.dim', 'an integer in 1..65536', String(cfg.dim));
  return { dbPath: cfg.dbPath, indexPath: cfg.indexPath, modelId: cfg.modelId, dim: cfg.dim };
}

/** Keys are fact seqs: distinct positive safe integers. */
export function checkKeys(keys: readonly number[]): readonly number[] {
  if (!Array.isArray(keys)) throw invalid('keys', 'an array of fact seqs', typeof keys);
  const seen = new Set<number>();
  for (const k of keys) {
    if (!Number.isSafeInteger(k) || k <= 0) throw invalid('keys', 'positive integers (fact seqs)', String(k));
    if (seen.has(k)) throw invalid('keys', 'distinct seqs', `${k} twice`);
    seen.add(k);
  }
  return keys;
}

/** `rows` vectors of `dim` finite floats, row-major. */
export function checkVectors(v: Float32Array, rows: number, dim: number, path: string): void {
  if (!(v instanceof Float32Array)) throw invalid(path, 'a Float32Array', Object.prototype.toString.call(v));
  if (v.length !== rows * dim) throw invalid(path, `${rows} x ${dim} = ${rows * dim} floats`, `${v.length}`);
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) throw invalid(path, 'finite numbers', `${v[i]} at ${i}`);
  }
}

export function checkK(k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw invalid('k', `an integer in 1..${MAX_K}`, String(k));
  return k;
}

/** A similarity threshold: a number in [-1, 1]. */
export function checkThreshold(t: number): number {
  if (typeof t !== 'number' || !Number.isFinite(t) || t < -1 || t > 1) throw invalid('threshold', 'a number in [-1, 1]', String(t));
  return t;
}

/** How many pairs to return: an integer in 1..MAX_PAIRS. */
export const MAX_PAIRS = 10_000;
export function checkLimit(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAIRS) throw invalid('limit', `an integer in 1..${MAX_PAIRS}`, String(n));
  return n;
}
