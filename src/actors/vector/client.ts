/**
 * The main-thread side of the vector actor: typed methods over a LongLivedActor. A crashed or hung
 * worker is replaced and `init` is replayed, so the new worker reloads the saved index (or rebuilds it
 * from SQLite); calls that were pending fail with MEM_ERR_ACTOR_CRASHED / MEM_ERR_ACTOR_TIMEOUT.
 *
 * Vectors cross to the worker by transfer, not by copy (comlink's `transfer` marks the argument; our
 * envelope path passes arguments to the comlink proxy untouched). A Float32Array that is a view into a
 * larger buffer is copied first, so the rest of that buffer is neither detached nor shipped.
 *
 * The index is persisted once it has been quiet for `persistAfterMs` after a change (a write, a rebuild,
 * a fresh worker whose init rebuilt), at the latest every `persistEveryMs` under a steady stream of
 * changes, and on close. A short-lived host that exits without closing (a one-shot agent turn) thus still
 * leaves the index and its manifest on disk, and the next start loads them instead of rebuilding.
 */
import { transfer } from 'comlink';
import { MemoryError } from '../../core/errors.js';
import { LongLivedActor } from '../runtime/long-lived.js';
import type { VectorFilter, VectorHit, VectorInit, VectorInitResult, VectorPair } from './contract.js';

export interface VectorClientOptions {
  readonly init: VectorInit;
  /** Deadline of ordinary calls (search, upsert, remove, stats). Default 10 s. */
  readonly timeoutMs?: number;
  /** Deadline of init (load or rebuild) and of rebuild(). 100k x 512 rebuilds in ~1.5 min on 2 cores. Default 15 min. */
  readonly rebuildTimeoutMs?: number;
  /** Deadline of persist(). Default 2 min. */
  readonly persistTimeoutMs?: number;
  /** Longest time a change waits for a persist under a steady stream of changes; 0 disables background persists (close still persists). Default 30 s. */
  readonly persistEveryMs?: number;
  /** Quiet time after the last change before the index is persisted. Default 1 s. */
  readonly persistAfterMs?: number;
  readonly onRestart?: (reason: string) => void;
  /** Failures of the background persist (the service keeps running; the next tick tries again). */
  readonly onError?: (err: MemoryError) => void;
}

export interface PersistResult {
  readonly written: boolean;
  readonly count: number;
}

export interface VectorStats {
  readonly count: number;
  readonly dim: number;
  readonly modelId: string;
  readonly dirty: boolean;
}

export class VectorClient {
  private readonly actor: LongLivedActor;
  /** The pending background persist, and when the oldest change it covers was made. */
  private settle: { timer: NodeJS.Timeout; since: number } | null = null;
  /** The worker may hold changes not on disk (a write, a rebuild, or an init that rebuilt). */
  private maybeDirty = false;
  /** A worker answered since the last restart. Persisting is pointless otherwise: a worker started just
   * to persist would only rebuild from SQLite, which the next start does anyway. */
  private up = false;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: VectorClientOptions) {
    const rebuildMs = options.rebuildTimeoutMs ?? 15 * 60_000;
    this.actor = new LongLivedActor({
      name: 'vector',
      worker: new URL('./worker.js', import.meta.url),
      timeoutMs: options.timeoutMs ?? 10_000,
      init: { method: 'init', args: [options.init], timeoutMs: rebuildMs },
      onRestart: (reason) => {
        this.up = false;
        options.onRestart?.(reason);
      },
    });
  }

  /** Note a change the file does not have yet, and (re)schedule the background persist. */
  private changed(): void {
    this.maybeDirty = true;
    const every = this.options.persistEveryMs ?? 30_000;
    if (every <= 0 || this.closing) return;
    const now = Date.now();
    const since = this.settle?.since ?? now;
    if (this.settle) clearTimeout(this.settle.timer);
    const wait = Math.max(0, Math.min(this.options.persistAfterMs ?? 1000, since + every - now));
    const timer = setTimeout(() => {
      this.settle = null;
      void this.tick();
    }, wait);
    timer.unref();
    this.settle = { timer, since };
  }

  /** Start the worker (if needed) and report how its index came to be: loaded, rebuilt (why), or empty. */
  ready(): Promise<VectorInitResult> {
    return this.call<VectorInitResult>('initResult', []);
  }

  private async call<T>(method: string, args: readonly unknown[], options: { timeoutMs?: number } = {}): Promise<T> {
    const result = await this.actor.call<T>(method, args, options);
    if (!this.up) {
      // A fresh worker ran init, which may have rebuilt: its index may differ from the file.
      this.up = true;
      this.changed();
    }
    return result;
  }

  /** How many times the worker was replaced. */
  get restarts(): number {
    return this.actor.restartCount;
  }

  /**
   * Add or replace vectors: keys[i] owns vectors[i*dim .. (i+1)*dim). The array is transferred (left
   * detached) unless `keep` is set, in which case a copy travels.
   */
  upsert(keys: readonly number[], vectors: Float32Array, options: { keep?: boolean } = {}): Promise<number> {
    this.changed();
    return this.call<number>('upsert', [[...keys], movable(vectors, options.keep ?? false)]);
  }

  remove(keys: readonly number[]): Promise<number> {
    this.changed();
    return this.call<number>('remove', [[...keys]]);
  }

  /**
   * Top-k visible facts by cosine similarity, the filter applied before k is cut. The index holds current
   * facts only, so `includeSuperseded` cannot bring back old versions. The query array is left intact.
   */
  search(query: Float32Array, k: number, filter: VectorFilter, options: { timeoutMs?: number } = {}): Promise<VectorHit[]> {
    return this.call<VectorHit[]>('search', [movable(query, true), k, filter], options);
  }

  /**
   * Pairs of visible facts (seqs, a < b) with cosine >= threshold, best first, at most `limit`: the
   * pairwise scan behind suggested links, over the newest 3000 visible facts with a vector.
   */
  suggestPairs(filter: VectorFilter, threshold: number, limit: number, options: { timeoutMs?: number } = {}): Promise<VectorPair[]> {
    return this.call<VectorPair[]>('suggestPairs', [filter, threshold, limit], options);
  }

  /** Write the index to disk (atomically, with its manifest) if it changed since the last write. */
  async persist(): Promise<PersistResult> {
    const was = this.maybeDirty;
    this.maybeDirty = false;
    try {
      return await this.call<PersistResult>('persist', [], { timeoutMs: this.options.persistTimeoutMs ?? 120_000 });
    } catch (err) {
      this.maybeDirty = this.maybeDirty || was;
      throw err;
    }
  }

  /** Drop the index and rebuild it from SQLite (searches keep answering from the old one meanwhile). */
  rebuild(options: { timeoutMs?: number } = {}): Promise<VectorInitResult> {
    this.changed();
    return this.call<VectorInitResult>('rebuild', [], { timeoutMs: options.timeoutMs ?? this.options.rebuildTimeoutMs ?? 15 * 60_000 });
  }

  stats(): Promise<VectorStats> {
    return this.call<VectorStats>('stats', []);
  }

  private async tick(): Promise<void> {
    if (!this.maybeDirty || !this.up || this.closing) return;
    try {
      await this.persist();
    } catch (err) {
      this.options.onError?.(err instanceof MemoryError ? err : new MemoryError('MEM_ERR_VECTOR_INDEX', String(err), { cause: err }));
    }
  }

  /** Persist (best effort: a failure is reported to onError), then stop the worker. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.settle) clearTimeout(this.settle.timer);
      this.settle = null;
      try {
        if (this.maybeDirty && this.up) await this.persist();
      } catch (err) {
        if ((err as MemoryError).code !== 'MEM_ERR_ACTOR_CLOSED') this.options.onError?.(err as MemoryError);
      } finally {
        await this.actor.close();
      }
    })();
    return this.closing;
  }
}

/** The array marked for transfer: itself when it owns its whole buffer (and may be given away), else a copy. */
function movable(v: Float32Array, copy: boolean): Float32Array {
  if (!(v instanceof Float32Array)) return v;
  const owns = v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
  const out = copy || !owns ? v.slice() : v;
  return transfer(out, [out.buffer as ArrayBuffer]);
}
