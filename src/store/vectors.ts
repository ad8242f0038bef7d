/** fact_vectors rows (the truth the vector index is derived from) and the meta table. */
import type { Database } from 'better-sqlite3';
import { prep } from './prepared.js';

export interface PendingFact {
  readonly seq: number;
  readonly text: string;
  readonly entity: string | null;
}

export class VectorRepo {
  constructor(private readonly db: Database) {}

  /** Store (or replace) one vector per fact. Call inside a transaction for batches. */
  put(seq: number, modelId: string, vector: Float32Array, at: number): void {
    const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
    prep(this.db, 'INSERT OR REPLACE INTO fact_vectors (fact_seq, model_id, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)').run(seq, modelId, vector.length, blob, at);
  }

  /** Current facts with no vector from `modelId`, oldest first, after `afterSeq`. */
  missing(modelId: string, afterSeq: number, limit: number): PendingFact[] {
    return prep(
      this.db,
      `SELECT f.seq, f.text, f.entity FROM facts f LEFT JOIN fact_vectors v ON v.fact_seq = f.seq AND v.model_id = ?
        WHERE f.valid_until IS NULL AND f.seq > ? AND v.fact_seq IS NULL ORDER BY f.seq LIMIT ?`,
    ).all(modelId, afterSeq, limit) as PendingFact[];
  }

  countMissing(modelId: string): number {
    return prep(
      this.db,
      `SELECT count(*) FROM facts f LEFT JOIN fact_vectors v ON v.fact_seq = f.seq AND v.model_id = ?
        WHERE f.valid_until IS NULL AND v.fact_seq IS NULL`,
    )
      .pluck()
      .get(modelId) as number;
  }

  /** The facts (by seq) that are still current. */
  current(seqs: readonly number[]): number[] {
    if (seqs.length === 0) return [];
    return prep(this.db, `SELECT seq FROM facts WHERE seq IN (${seqs.map(() => '?').join(',')}) AND valid_until IS NULL`)
      .pluck()
      .all(...seqs) as number[];
  }

  /** The vectors of `modelId` for these facts, by fact id (a fact without one is absent). */
  byFactIds(ids: readonly string[], modelId: string): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    if (ids.length === 0) return out;
    const rows = prep(
      this.db,
      `SELECT f.id, v.vector FROM facts f JOIN fact_vectors v ON v.fact_seq = f.seq AND v.model_id = ? WHERE f.id IN (SELECT value FROM json_each(?))`,
    ).all(modelId, JSON.stringify(ids)) as { id: string; vector: Buffer }[];
    for (const r of rows) {
      // A copy: the blob's bytes need not be 4-byte aligned.
      const bytes = new Uint8Array(r.vector.byteLength);
      bytes.set(r.vector);
      out.set(r.id, new Float32Array(bytes.buffer));
    }
    return out;
  }

  /** Vectors of other models (left behind by a provider change). */
  deleteOtherModels(modelId: string): number {
    return prep(this.db, 'DELETE FROM fact_vectors WHERE model_id <> ?').run(modelId).changes;
  }

  getMeta(key: string): string | null {
    const v = prep(this.db, 'SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
    return v ?? null;
  }

  setMeta(key: string, value: string): void {
    prep(this.db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }
}
