/**
 * The vector actor's worker (reached by URL through VectorClient, never imported): owns the usearch index
 * and a read-only SQLite connection for filters and rebuilds. Implements VectorWorkerApi (contract.ts)
 * plus `initResult()`, which returns how the current index came to be (the client's `ready()`).
 *
 * init: verify the saved index (index-file.ts) against the manifest and SQLite's current keys, and load
 * it only if everything matches; otherwise rebuild from SQLite and say why. A missing, truncated,
 * bit-flipped, foreign-model or stale file is a reason, never a crash.
 */
import type { Database } from 'better-sqlite3';
import { MemoryError } from '../../core/errors.js';
import { openDatabase } from '../../store/db.js';
import { exposeActor } from '../runtime/expose.js';
import type { VectorFilter, VectorHit, VectorInit, VectorInitResult, VectorPair } from './contract.js';
import { HnswIndex, newIndex } from './hnsw.js';
import { discard, sweepTemps, verifyIndexFile, writeIndexFile } from './index-file.js';
import { KeyDigest } from './key-digest.js';
import { crashedBefore, guardedLoad, isKnown, markKnown, probeIndexFile, setAside } from './load-guard.js';
import { eligibleDigest } from './rows.js';
import { checkInit, checkK, checkKeys, checkLimit, checkThreshold, checkVectors } from './validate.js';

interface State {
  readonly cfg: VectorInit;
  readonly db: Database;
  readonly hnsw: HnswIndex;
  readonly result: VectorInitResult;
}

let state: State | null = null;
/** init, persist and rebuild run one at a time; searches and writes interleave with their awaits. */
let exclusive: Promise<unknown> = Promise.resolve();

function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = exclusive.then(fn, fn);
  exclusive = run.catch(() => undefined);
  return run;
}

function current(): State {
  if (!state) throw new MemoryError('MEM_ERR_VECTOR_INDEX', 'the vector worker was not initialised');
  return state;
}

async function init(raw: VectorInit): Promise<VectorInitResult> {
  const cfg = checkInit(raw);
  state?.db.close();
  state = null;
  const db = openDatabase(cfg.dbPath, { readonly: true });
  try {
    sweepTemps(cfg.indexPath);
    const expected = sqlite(() => eligibleDigest(db, cfg.modelId, cfg.dim));
    const loaded = await load(cfg, db, expected);
    if (loaded instanceof HnswIndex) {
      state = { cfg, db, hnsw: loaded, result: { source: 'loaded', reason: null, count: loaded.count } };
    } else {
      const hnsw = new HnswIndex(newIndex(cfg.dim), new KeyDigest(), db, cfg.modelId, cfg.dim);
      const count = await hnsw.rebuild().catch((e: unknown) => Promise.reject(asIndexError(e)));
      state = { cfg, db, hnsw, result: { source: count > 0 ? 'rebuilt' : 'empty', reason: loaded, count } };
    }
    return state.result;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** The verified saved index, or the reason it cannot be used. */
async function load(cfg: VectorInit, db: Database, expected: KeyDigest): Promise<HnswIndex | string> {
  const verdict = await verifyIndexFile(cfg.indexPath, { modelId: cfg.modelId, dim: cfg.dim, vectorsHash: expected.toString() });
  if (!verdict.ok) return verdict.reason;
  const { manifest, file } = verdict;
  try {
    // A file whose load took the process down before is never loaded again (load-guard.ts).
    if (crashedBefore(cfg.indexPath, manifest.sha256)) {
      setAside(cfg.indexPath);
      return 'loads of this index file ended the process twice without returning (a damaged file); it was set aside as vectors.usearch.damaged';
    }
    // A file this install did not write or load itself is loaded in a separate process first.
    if (!isKnown(cfg.indexPath, manifest.sha256)) {
      const failed = await probeIndexFile(file, cfg.dim, manifest.count);
      if (failed) {
        setAside(cfg.indexPath);
        return `the index file failed a load in a separate process (${failed}): damaged; it was set aside as vectors.usearch.damaged`;
      }
    }
    const index = newIndex(cfg.dim);
    guardedLoad(cfg.indexPath, manifest.sha256, () => index.load(file));
    if (index.size() !== manifest.count) return `index holds ${index.size()} vectors, the manifest says ${manifest.count}`;
    if (index.dimensions() !== cfg.dim) return `index file has dimension ${index.dimensions()}, not ${cfg.dim}`;
    markKnown(cfg.indexPath, manifest.sha256);
    return new HnswIndex(index, expected, db, cfg.modelId, cfg.dim);
  } catch (err) {
    return `usearch refused the index file: ${(err as Error).message}`;
  } finally {
    discard(file);
  }
}

/** Map a SQLite failure (e.g. a database without fact_vectors) to the vector index's error code. */
function asIndexError(cause: unknown): MemoryError {
  if (cause instanceof MemoryError) return cause;
  return new MemoryError('MEM_ERR_VECTOR_INDEX', `vector index: ${(cause as Error).message}`, { cause });
}

function sqlite<T>(fn: () => T): T {
  try {
    return fn();
  } catch (cause) {
    throw asIndexError(cause);
  }
}

function search(query: Float32Array, k: number, filter: VectorFilter): VectorHit[] {
  const s = current();
  checkVectors(query, 1, s.cfg.dim, 'query');
  return sqlite(() => s.hnsw.search(query, checkK(k), filter));
}

function suggestPairs(filter: VectorFilter, threshold: number, limit: number): VectorPair[] {
  const s = current();
  const t = checkThreshold(threshold);
  const n = checkLimit(limit);
  return sqlite(() => s.hnsw.pairs(filter, t, n));
}

function persist(): Promise<{ written: boolean; count: number }> {
  return serial(async () => {
    const s = current();
    const { hnsw, cfg } = s;
    if (!hnsw.dirty) return { written: false, count: hnsw.count };
    // Captured synchronously right before the (synchronous) save inside writeIndexFile: no write can land
    // between them, so the manifest's count and digest describe exactly the saved bytes.
    const version = hnsw.version;
    const meta = { modelId: cfg.modelId, dim: cfg.dim, count: hnsw.count, vectorsHash: hnsw.digest };
    const written = await writeIndexFile(cfg.indexPath, (tmp) => hnsw.raw.save(tmp), meta);
    markKnown(cfg.indexPath, written.sha256);
    hnsw.markSaved(version);
    return { written: true, count: meta.count };
  });
}

function rebuild(): Promise<VectorInitResult> {
  return serial(async () => {
    const s = current();
    const count = await s.hnsw.rebuild().catch((e: unknown) => Promise.reject(asIndexError(e)));
    return { source: count > 0 ? 'rebuilt' : 'empty', reason: 'rebuild requested', count };
  });
}

exposeActor({
  init: (cfg: VectorInit) => serial(() => init(cfg)),
  initResult: () => current().result,
  upsert: (keys: readonly number[], vectors: Float32Array) => {
    const s = current();
    checkKeys(keys);
    checkVectors(vectors, keys.length, s.cfg.dim, 'vectors');
    return s.hnsw.upsert(keys, vectors);
  },
  remove: (keys: readonly number[]) => current().hnsw.remove(checkKeys(keys)),
  search,
  suggestPairs,
  persist,
  rebuild,
  stats: () => {
    const { hnsw, cfg } = current();
    return { count: hnsw.count, dim: cfg.dim, modelId: cfg.modelId, dirty: hnsw.dirty };
  },
});
