/**
 * A pool of stateless worker threads (piscina) behind a typed call interface. Every call has a deadline:
 * a worker past it is terminated (piscina replaces it) and the call fails with MEM_ERR_ACTOR_TIMEOUT; a
 * worker that dies fails its call with MEM_ERR_ACTOR_CRASHED and is replaced; calls during or after
 * shutdown fail with MEM_ERR_ACTOR_CLOSED. Workers answer with envelopes (envelope.ts), so typed errors
 * survive the thread boundary. Each thread starts in pool-entry.cjs, which import()s the worker module: a pool
 * closed while a thread is still loading must not abort the process (see that file).
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MessagePort, ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { MemoryError } from '../../core/errors.js';
import { unwrap, type Call, type Envelope } from './envelope.js';
import { locateWorker } from './locate.js';

export interface PoolOptions {
  /** For messages and logs: 'embed', 'recall', ... */
  readonly name: string;
  /** The worker module, as `new URL('./worker.js', import.meta.url)`. */
  readonly worker: URL;
  readonly maxThreads?: number;
  readonly minThreads?: number;
  /** Default deadline per call. */
  readonly timeoutMs: number;
  /** Plain data every worker receives (config, paths). */
  readonly workerData?: Readonly<Record<string, unknown>>;
  readonly idleTimeoutMs?: number;
  /** Heap limits per worker (plugin workers: a runaway plugin dies alone). */
  readonly resourceLimits?: ResourceLimits;
}

export interface CallOptions {
  readonly timeoutMs?: number;
  /** Moved, not copied: vector buffers, or a MessagePort handed to the worker. */
  readonly transfer?: readonly (ArrayBuffer | MessagePort)[];
  readonly signal?: AbortSignal;
}

/** Threads for a pool on this machine: leave a core for the main thread. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/**
 * Threads for bulk work (embedding a backlog): every core, up to 4. Only started while there is that much
 * work (one thread is kept; the others end after the pool's idle timeout).
 */
export function bulkThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export class ActorPool {
  private readonly piscina: Piscina;
  private closing = false;

  constructor(private readonly options: PoolOptions) {
    const where = locateWorker(options.worker);
    const max = options.maxThreads ?? defaultThreads();
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./pool-entry.cjs', import.meta.url)),
      name: 'default',
      minThreads: Math.min(options.minThreads ?? 1, max),
      maxThreads: max,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      workerData: { ...options.workerData, __entry: pathToFileURL(where.filename).href, __target: where.target },
      atomics: 'disabled',
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
  }

  get name(): string {
    return this.options.name;
  }

  /** Calls queued, waiting for a free worker. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  async call<T>(method: string, args: readonly unknown[], opts: CallOptions = {}): Promise<T> {
    if (this.closing) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', `${this.options.name}: pool is shut down`);
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
    const task: Call = { method, args };
    try {
      const result = (await this.piscina.run(task, { signal, transferList: opts.transfer as (ArrayBuffer | MessagePort)[] | undefined })) as Envelope<T>;
      return unwrap(result);
    } catch (err) {
      if (err instanceof MemoryError) throw err;
      throw this.failure(err, method, timeoutMs, deadline.aborted);
    }
  }

  private failure(err: unknown, method: string, timeoutMs: number, timedOut: boolean): MemoryError {
    const what = `${this.options.name}.${method}`;
    if (this.closing) return new MemoryError('MEM_ERR_ACTOR_CLOSED', `${what}: the pool shut down before the call finished`, { cause: err });
    if (timedOut) return new MemoryError('MEM_ERR_ACTOR_TIMEOUT', `${what}: no answer within ${timeoutMs} ms; the worker was replaced`, { cause: err });
    if ((err as { name?: string } | null)?.name === 'AbortError') return new MemoryError('MEM_ERR_ACTOR_CLOSED', `${what}: cancelled`, { cause: err });
    const message = err instanceof Error ? err.message : String(err);
    return new MemoryError('MEM_ERR_ACTOR_CRASHED', `${what}: the worker died (${message}); it was replaced`, { cause: err });
  }

  /** Finish queued and running calls, then stop the threads (force after `graceMs`; 0: force now). */
  async close(graceMs = 5000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (graceMs <= 0) return this.piscina.destroy();
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<void>((resolve) => {
      timer = setTimeout(() => resolve(this.piscina.destroy()), graceMs);
    });
    try {
      await Promise.race([this.piscina.close(), forced]);
    } finally {
      clearTimeout(timer);
    }
  }
}
