/**
 * The in-memory usearch index plus what the worker needs around it: the digest of the keys it holds
 * (for the manifest), a version counter (dirty tracking across an async persist), and a chunked rebuild
 * that keeps serving searches from the old index and replays the writes that arrived meanwhile.
 *
 * While the index holds at most EXACT_MAX rows, a WASM mirror of its rows (exact.ts) answers searches
 * exactly; larger indexes are searched through HNSW, with an exact WASM scan of SQLite as the fallback.
 */
import type { Database } from 'better-sqlite3';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { MemoryError } from '../../core/errors.js';
import type { VectorPair, VectorFilter, VectorHit } from './contract.js';
import { EXACT_MAX, pairsOf, RowMirror } from './exact.js';
import { FilterQueries } from './filter.js';
import { KeyDigest } from './key-digest.js';
import { eligiblePages } from './rows.js';

/** Over-fetch: first ask usearch for k * OVERFETCH candidates, then x4 per round up to MAX_FETCH. */
const OVERFETCH = 4;
const MIN_FETCH = 32;
const MAX_FETCH = 4096;
const REBUILD_PAGE = 1024;
/** suggestPairs scans at most this many visible facts, the newest (3000 x 3000 / 2 = 4.5M cosines, ~0.3 s at 384 dims). */
export const PAIRS_MAX_ROWS = 3000;

type Write = { readonly op: 'upsert'; readonly keys: readonly number[]; readonly vectors: Float32Array } | { readonly op: 'remove'; readonly keys: readonly number[] };

export function newIndex(dim: number): Index {
  return new Index({ dimensions: dim, metric: MetricKind.Cos, quantization: ScalarKind.F32, connectivity: 0, expansion_add: 0, expansion_search: 0, multi: false });
}

const bigKeys = (keys: readonly number[]): BigUint64Array => BigUint64Array.from(keys, (k) => BigInt(k));

export class HnswIndex {
  private digestValue: KeyDigest;
  private changes = 0;
  private saved = 0;
  /** Writes that arrived during a rebuild, replayed onto the new index before it replaces the old. */
  private log: Write[] | null = null;
  private readonly filters: FilterQueries;
  /** Every row of the index while it is small (null once it outgrew EXACT_MAX, until the next rebuild). */
  private mirror: RowMirror | null;

  /** `digest` describes the keys `index` holds (loaded: SQLite's digest, verified against the manifest). */
  constructor(
    private index: Index,
    digest: KeyDigest,
    private readonly db: Database,
    private readonly modelId: string,
    private readonly dim: number,
  ) {
    this.digestValue = digest;
    this.filters = new FilterQueries(db);
    this.mirror = this.loadMirror();
  }

  /** A loaded index's rows come from SQLite: its keys were verified against SQLite's eligible rows. */
  private loadMirror(): RowMirror | null {
    const size = this.index.size();
    if (size > EXACT_MAX) return null;
    const mirror = new RowMirror(this.dim);
    if (size === 0) return mirror;
    for (const page of eligiblePages(this.db, this.modelId, this.dim, REBUILD_PAGE)) mirror.upsert(page.keys, page.vectors);
    return mirror.size === size ? mirror : null;
  }

  /** Whether searches are currently answered exactly from the WASM mirror. */
  get exact(): boolean {
    return this.mirror !== null && this.mirror.size === this.index.size();
  }

  get count(): number {
    return this.index.size();
  }

  get digest(): string {
    return this.digestValue.toString();
  }

  get dirty(): boolean {
    return this.changes !== this.saved;
  }

  /** Mark everything up to `version` as written to disk (see `version`). */
  markSaved(version: number): void {
    this.saved = version;
  }

  /** A counter that moves with every change; persist records it when it saves. */
  get version(): number {
    return this.changes;
  }

  /** The index object itself, for `save` (synchronous, so the digest read next to it matches). */
  get raw(): Index {
    return this.index;
  }

  upsert(keys: readonly number[], vectors: Float32Array): number {
    applyUpsert(this.index, this.digestValue, keys, vectors);
    this.mirror = follow(this.mirror, (m) => m.upsert(keys, vectors));
    this.log?.push({ op: 'upsert', keys, vectors });
    this.changes++;
    return keys.length;
  }

  remove(keys: readonly number[]): number {
    const removed = applyRemove(this.index, this.digestValue, keys);
    this.mirror = follow(this.mirror, (m) => m.remove(keys));
    this.log?.push({ op: 'remove', keys });
    if (removed > 0) this.changes++;
    return removed;
  }

  search(query: Float32Array, k: number, filter: VectorFilter): VectorHit[] {
    const size = this.index.size();
    if (size === 0) return [];
    if (this.mirror && this.mirror.size === size) return this.mirror.search(query, k, this.filters.allowedSeqs(this.mirror.seqs, filter));
    for (let fetch = Math.min(size, MAX_FETCH, Math.max(k * OVERFETCH, MIN_FETCH)); ; fetch = Math.min(size, MAX_FETCH, fetch * 4)) {
      const m = this.index.search(query, fetch, 1);
      const seqs = Array.from(m.keys, Number);
      const allowed = this.filters.allowedSeqs(seqs, filter);
      const hits: VectorHit[] = [];
      for (let i = 0; i < seqs.length && hits.length < k; i++) {
        const seq = seqs[i] as number;
        if (allowed.has(seq)) hits.push({ seq, similarity: 1 - (m.distances[i] as number) });
      }
      if (hits.length >= k || fetch >= size) return hits;
      if (fetch >= MAX_FETCH) return this.filters.exactTopK(this.modelId, this.dim, query, k, filter) ?? [];
      // A selective filter (about (found + 1) / fetch of the index visible): scoring every visible row
      // costs no more than the next round would fetch, and is exact where HNSW's far tail is not. The
      // estimate is checked: the scan gives up after `next` rows and the next round runs.
      const next = Math.min(size, MAX_FETCH, fetch * 4);
      if (((hits.length + 1) * size) / fetch <= next) {
        const exact = this.filters.exactTopK(this.modelId, this.dim, query, k, filter, next);
        if (exact) return exact;
      }
    }
  }

  /**
   * Pairs of the newest PAIRS_MAX_ROWS visible facts with cosine >= threshold, best first, cut to
   * `limit` (read from SQLite, the truth: only current facts with a vector of this model).
   */
  pairs(filter: VectorFilter, threshold: number, limit: number): VectorPair[] {
    const { seqs, vectors } = this.filters.newestVectors(this.modelId, this.dim, filter, PAIRS_MAX_ROWS);
    return pairsOf(this.dim, seqs, vectors, threshold, limit);
  }

  /**
   * Build a fresh index from SQLite page by page, yielding to the event loop between pages so searches
   * keep being answered from the current index; then replay the writes logged meanwhile and swap.
   */
  async rebuild(): Promise<number> {
    if (this.log) throw new MemoryError('MEM_ERR_VECTOR_INDEX', 'a rebuild is already running');
    this.log = [];
    try {
      const fresh = newIndex(this.dim);
      const digest = new KeyDigest();
      let mirror: RowMirror | null = new RowMirror(this.dim);
      for (const page of eligiblePages(this.db, this.modelId, this.dim, REBUILD_PAGE)) {
        fresh.add(bigKeys(page.keys), page.vectors, 0);
        for (const k of page.keys) digest.add(k);
        mirror = follow(mirror, (m) => m.upsert(page.keys, page.vectors));
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (const w of this.log) {
        if (w.op === 'upsert') applyUpsert(fresh, digest, w.keys, w.vectors);
        else applyRemove(fresh, digest, w.keys);
        mirror = follow(mirror, (m) => (w.op === 'upsert' ? m.upsert(w.keys, w.vectors) : m.remove(w.keys)));
      }
      this.index = fresh;
      this.mirror = mirror;
      this.digestValue = digest;
      this.changes++;
      return fresh.size();
    } finally {
      this.log = null;
    }
  }
}

/** Apply a change to the mirror; drop it when it outgrows EXACT_MAX (or, defensively, when the change fails). */
function follow(mirror: RowMirror | null, change: (m: RowMirror) => void): RowMirror | null {
  if (!mirror) return null;
  try {
    change(mirror);
  } catch {
    return null;
  }
  return mirror.size > EXACT_MAX ? null : mirror;
}

/** Remove-then-add: usearch refuses a duplicate key, and a re-embedded fact must replace its vector. */
function applyUpsert(index: Index, digest: KeyDigest, keys: readonly number[], vectors: Float32Array): void {
  if (keys.length === 0) return;
  applyRemove(index, digest, keys);
  index.add(bigKeys(keys), vectors, keys.length > 64 ? 0 : 1);
  for (const k of keys) digest.add(k);
}

function applyRemove(index: Index, digest: KeyDigest, keys: readonly number[]): number {
  if (keys.length === 0) return 0;
  const counts = index.remove(bigKeys(keys)) as number[];
  let removed = 0;
  keys.forEach((k, i) => {
    if ((counts[i] ?? 0) > 0) {
      digest.remove(k);
      removed++;
    }
  });
  return removed;
}
