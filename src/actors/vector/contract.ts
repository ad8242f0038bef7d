/**
 * The vector actor's contract (types only). One long-lived worker owns the usearch index. Keys are fact
 * `seq` numbers (SQLite rowids); SQLite's `fact_vectors` table is the truth, the index is derived data.
 */
import type { Visibility } from '../../core/scope.js';
import type { Category } from '../../core/types.js';

export interface VectorInit {
  /** The SQLite database (the worker opens its own read-only connection). */
  readonly dbPath: string;
  /** The index file; beside it `<indexPath>.manifest.json` (checksum, model, dim, count). */
  readonly indexPath: string;
  readonly modelId: string;
  readonly dim: number;
}

export interface VectorInitResult {
  /** How the index came to be: loaded from disk, rebuilt from SQLite (and why), or empty. */
  readonly source: 'loaded' | 'rebuilt' | 'empty';
  readonly reason: string | null;
  readonly count: number;
}

export interface VectorFilter {
  readonly visibility: Visibility;
  readonly includeSuperseded: boolean;
  readonly category?: Category;
  /** Only credential facts (spec's recall filter), for the auth-failure hook. */
  readonly credentialsOnly?: boolean;
}

export interface VectorHit {
  readonly seq: number;
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

/** Two facts (by seq, a < b) whose vectors are at least `threshold` similar (suggested links). */
export interface VectorPair {
  readonly a: number;
  readonly b: number;
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

export interface VectorWorkerApi {
  init(init: VectorInit): Promise<VectorInitResult>;
  /** Add or replace vectors: keys[i] owns vectors[i*dim .. (i+1)*dim). */
  upsert(keys: readonly number[], vectors: Float32Array): Promise<number>;
  remove(keys: readonly number[]): Promise<number>;
  /** Top-k visible facts by cosine similarity; the filter is applied before k is cut. */
  search(query: Float32Array, k: number, filter: VectorFilter): Promise<VectorHit[]>;
  /**
   * Pairs among the visible facts' vectors with cosine >= threshold, best first, at most `limit`. Reads the
   * newest PAIRS_MAX_ROWS (3000) visible facts with a vector of this model from SQLite (hnsw.ts).
   */
  suggestPairs(filter: VectorFilter, threshold: number, limit: number): Promise<VectorPair[]>;
  /** Write the index atomically (temp file, fsync, rename) with its manifest. */
  persist(): Promise<{ readonly written: boolean; readonly count: number }>;
  /** Drop the index and rebuild it from SQLite. */
  rebuild(): Promise<VectorInitResult>;
  stats(): Promise<{ readonly count: number; readonly dim: number; readonly modelId: string; readonly dirty: boolean }>;
}
