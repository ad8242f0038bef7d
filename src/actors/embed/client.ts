/**
 * The main-thread handle of the embedding actor. It owns two pools over the same worker file:
 * `interactive` for query embeddings on an agent's turn and `background` for fact embeddings, backfill
 * and reindexing. Each pool has its own threads and queue, so a turn's query never waits behind a
 * backfill of thousands of facts. Both default to one thread (the machines have two cores; the main
 * thread keeps one), and each of their workers loads the model once, on its first call or on `warm()`.
 */
import { MemoryError, invalidInput } from '../../core/errors.js';
import { ActorPool, bulkThreads } from '../runtime/pool.js';
import { EMBEDDING_PROVIDERS, type EmbedderInfo, type EmbedderSpec } from './contract.js';

/** Query embeddings kept (a 512-d vector is 2 KB, so ~2 MB at this size). */
export const QUERY_CACHE_SIZE = 1000;
/** Texts per worker call in `embedMany`: big enough to amortise the model's per-call cost, small enough to keep a call short. */
export const EMBED_BATCH = 32;
/** Default deadline per call. Generous because a fresh worker loads the model inside its first call. */
export const EMBED_TIMEOUT_MS = 30_000;

export interface EmbedClientOptions {
  /** Threads of the interactive pool (default 1). */
  readonly interactiveThreads?: number;
  /** Threads of the background pool (default bulkThreads(): every core, up to 4). */
  readonly backgroundThreads?: number;
  /** Deadline per worker call (default EMBED_TIMEOUT_MS); past it the worker is replaced. */
  readonly timeoutMs?: number;
  /** Entries of the query-embedding cache (default QUERY_CACHE_SIZE; 0 turns it off). */
  readonly queryCacheSize?: number;
  /** Texts per worker call in `embedMany` (default EMBED_BATCH). */
  readonly batchSize?: number;
}

export interface EmbedCallOptions {
  /** Overrides the client's deadline for each worker call. */
  readonly timeoutMs?: number;
}

export interface EmbedManyOptions extends EmbedCallOptions {
  /** Run on the background pool (fact embeddings, backfill, reindex). Default false: the interactive pool. */
  readonly background?: boolean;
}

/** The cache key of a query: NFC, whitespace runs collapsed, trimmed. Case is kept (USE-lite is case-sensitive). */
export function normalizeQuery(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** A least-recently-used map on insertion order: a hit moves its entry to the back. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    if (this.size <= 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }
  delete(key: string, value: V): void {
    if (this.map.get(key) === value) this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
}

function checkSpec(spec: EmbedderSpec): EmbedderSpec {
  if (!EMBEDDING_PROVIDERS.includes(spec?.provider)) throw invalidInput('embedding.provider', EMBEDDING_PROVIDERS.join(' | '), spec?.provider);
  if (spec.provider === 'onnx' && (!spec.modelDir || !spec.model)) throw invalidInput('embedding.model', 'modelDir and model for provider "onnx"', spec.model);
  return { provider: spec.provider, modelDir: spec.modelDir ?? null, model: spec.model ?? null, allowRemote: spec.allowRemote === true };
}

/** Splits n x dim floats into n rows, each with its own buffer (so each can be transferred on its own). */
function splitRows(flat: Float32Array, n: number): Float32Array[] {
  if (n === 0 || flat.length % n !== 0) throw new MemoryError('MEM_ERR_INTERNAL', `embed worker returned ${flat.length} floats for ${n} texts`);
  const dim = flat.length / n;
  return Array.from({ length: n }, (_, i) => flat.slice(i * dim, (i + 1) * dim));
}

export class EmbedClient {
  private readonly spec: EmbedderSpec;
  private readonly interactive: ActorPool;
  private readonly background: ActorPool;
  private readonly threads: { readonly interactive: number; readonly background: number };
  /** Query embeddings by normalised text; in-flight ones too, so concurrent equal queries share one call. */
  private readonly queries: Lru<Promise<Float32Array>>;
  private infoPromise: Promise<EmbedderInfo> | null = null;
  /** Resolved query embeddings, by their cached promise (dropped with it). */
  private readonly settled = new WeakMap<Promise<Float32Array>, Float32Array>();

  constructor(spec: EmbedderSpec, private readonly options: EmbedClientOptions = {}) {
    this.spec = checkSpec(spec);
    const worker = new URL('./worker.js', import.meta.url);
    const timeoutMs = options.timeoutMs ?? EMBED_TIMEOUT_MS;
    this.threads = { interactive: Math.max(1, options.interactiveThreads ?? 1), background: Math.max(1, options.backgroundThreads ?? bulkThreads()) };
    this.interactive = new ActorPool({ name: 'embed.interactive', worker, maxThreads: this.threads.interactive, timeoutMs });
    this.background = new ActorPool({ name: 'embed.background', worker, maxThreads: this.threads.background, timeoutMs });
    this.queries = new Lru(options.queryCacheSize ?? QUERY_CACHE_SIZE);
  }

  /** Provider, model id and width (loads the model in an interactive worker the first time). */
  /** Batches `embedMany` runs at once in the background (its pool's threads). */
  get backgroundLanes(): number {
    return this.threads.background;
  }

  info(): Promise<EmbedderInfo> {
    if (!this.infoPromise) {
      this.infoPromise = this.interactive.call<EmbedderInfo>('info', [this.spec]);
      this.infoPromise.catch(() => (this.infoPromise = null));
    }
    return this.infoPromise;
  }

  /** Loads the model in every worker of both pools, so the first real call does not pay for it. */
  async warm(): Promise<EmbedderInfo> {
    const calls = (pool: ActorPool, n: number) => Array.from({ length: n }, () => pool.call<EmbedderInfo>('info', [this.spec]));
    const [first] = await Promise.all([this.info(), ...calls(this.interactive, this.threads.interactive), ...calls(this.background, this.threads.background)]);
    return first;
  }

  /**
   * Compute and cache query embeddings ahead of need, on the background pool (never in front of a turn's
   * query). Texts already cached are skipped.
   */
  async prewarm(texts: readonly string[]): Promise<number> {
    const keys = [...new Set(texts.map((t) => (typeof t === 'string' ? normalizeQuery(t) : '')).filter((k) => k && !this.queries.get(k)))];
    if (keys.length === 0) return 0;
    const vectors = await this.embedMany(keys, { background: true });
    keys.forEach((key, i) => {
      const v = vectors[i];
      if (!v || this.queries.get(key)) return;
      const p = Promise.resolve(v);
      this.settled.set(p, v);
      this.queries.set(key, p);
    });
    return keys.length;
  }

  /**
   * The cached embedding of a query, synchronously, or null when it is not cached (or still computing).
   * Lets hybrid search post the vector search before running its full-text leg.
   */
  cachedQuery(text: string): Float32Array | null {
    const key = typeof text === 'string' ? normalizeQuery(text) : '';
    const p = key ? this.queries.get(key) : undefined;
    const v = p ? this.settled.get(p) : undefined;
    return v ? v.slice() : null;
  }

  /** One query's embedding (dim floats, unit length), from the cache when the same normalised text was embedded before. */
  async embedQuery(text: string, opts: EmbedCallOptions = {}): Promise<Float32Array> {
    if (typeof text !== 'string') throw invalidInput('text', 'a string', text);
    const key = normalizeQuery(text);
    if (!key) throw new MemoryError('MEM_ERR_QUERY_EMPTY', 'the query has no text to embed');
    let p = this.queries.get(key);
    if (!p) {
      const call = this.interactive.call<Float32Array>('embed', [this.spec, [key]], opts);
      p = call;
      this.queries.set(key, call);
      call.then(
        (v) => this.settled.set(call, v),
        () => this.queries.delete(key, call),
      );
    }
    // A copy: the caller may transfer or change it without touching the cached vector.
    return (await p).slice();
  }

  /** Embeddings of `texts`, in order, one unit-length row each, computed in batches of `batchSize`. */
  async embedMany(texts: readonly string[], opts: EmbedManyOptions = {}): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) throw invalidInput('texts', 'an array of strings', texts);
    const bad = texts.findIndex((t) => typeof t !== 'string');
    if (bad >= 0) throw invalidInput(`texts[${bad}]`, 'a string', texts[bad]);
    const size = Math.max(1, this.options.batchSize ?? EMBED_BATCH);
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += size) batches.push(texts.slice(i, i + size));
    const pool = opts.background ? this.background : this.interactive;
    const lanes = opts.background ? this.threads.background : this.threads.interactive;
    const out: Float32Array[][] = new Array<Float32Array[]>(batches.length);
    const callOpts = opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs };
    // As many batches in flight as the pool has threads: each call's deadline then measures its own
    // work, not time spent queued behind other batches. The first failure stops the remaining batches.
    let next = 0;
    let failed = false;
    const lane = async (): Promise<void> => {
      while (!failed && next < batches.length) {
        const i = next++;
        const batch = batches[i] as string[];
        try {
          out[i] = splitRows(await pool.call<Float32Array>('embed', [this.spec, batch], callOpts), batch.length);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, batches.length) }, lane));
    return out.flat();
  }

  /** Finishes running calls (for up to `graceMs`; 0: stop them now), then stops both pools. */
  async close(graceMs?: number): Promise<void> {
    this.queries.clear();
    await Promise.all([this.interactive.close(graceMs), this.background.close(graceMs)]);
  }
}
