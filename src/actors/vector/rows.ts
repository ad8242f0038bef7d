/**
 * The rows the index is derived from, read on the worker's read-only SQLite connection.
 *
 * Which vectors are indexed: those in `fact_vectors` made by the configured model with the configured
 * dimension, whose fact is current (`valid_until IS NULL`). Superseded, deleted, expired and decayed
 * versions are never indexed, so `VectorFilter.includeSuperseded` only relaxes the filter (it can match
 * nothing the index does not hold).
 */
import type { Database } from 'better-sqlite3';
import { endianness } from 'node:os';
import { KeyDigest } from './key-digest.js';

export const ELIGIBLE = `FROM fact_vectors v JOIN facts f ON f.seq = v.fact_seq
  WHERE v.model_id = ? AND v.dim = ? AND f.valid_until IS NULL`;

/** Digest of the keys SQLite says the index should hold (one pass over the seqs, no vectors read). */
export function eligibleDigest(db: Database, modelId: string, dim: number): KeyDigest {
  const seqs = db.prepare(`SELECT v.fact_seq ${ELIGIBLE}`).pluck().iterate(modelId, dim) as IterableIterator<number>;
  return KeyDigest.of(seqs);
}

export interface RowPage {
  readonly keys: readonly number[];
  /** keys.length x dim, row-major. */
  readonly vectors: Float32Array;
}

/**
 * Eligible rows in pages of `size`, by ascending seq. Each page is its own short read (no snapshot held
 * across pages), so a long rebuild does not pin the WAL; rows changed meanwhile reach the index through
 * the upserts and removes the worker logs during a rebuild.
 */
export function* eligiblePages(db: Database, modelId: string, dim: number, size: number): Generator<RowPage> {
  const stmt = db.prepare(`SELECT v.fact_seq AS seq, v.vector AS vector ${ELIGIBLE} AND v.fact_seq > ? ORDER BY v.fact_seq LIMIT ?`);
  for (let after = 0; ; ) {
    const rows = stmt.all(modelId, dim, after, size) as { seq: number; vector: Buffer }[];
    if (rows.length === 0) return;
    const vectors = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => decodeInto(vectors, i * dim, r.vector));
    yield { keys: rows.map((r) => r.seq), vectors };
    after = rows[rows.length - 1]?.seq ?? after;
  }
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** Copy a float32-LE blob into `out` at element `offset` (any alignment, any host byte order). */
export function decodeInto(out: Float32Array, offset: number, blob: Uint8Array): void {
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer, out.byteOffset + offset * 4, blob.byteLength).set(blob);
    return;
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let j = 0; j < blob.byteLength / 4; j++) out[offset + j] = view.getFloat32(j * 4, true);
}
