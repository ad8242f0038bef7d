/**
 * A long-lived, stateful worker (e.g. the vector index) reached through comlink. The worker exposes an
 * object whose methods return envelopes. Every call has a deadline; a hung worker is terminated, a dead
 * one noticed, and in both cases every pending call is rejected with a typed error and a fresh worker is
 * started on the next call, replaying `init` so it rebuilds its state.
 */
import { wrap, type Remote } from 'comlink';
import { Worker } from 'node:worker_threads';
import { MemoryError } from '../../core/errors.js';
import { nodeEndpoint } from './comlink-node.js';
import { unwrap, type Envelope } from './envelope.js';
import { locateWorker } from './locate.js';

/** The worker's exposed API: every method returns an envelope. */
export type EnvelopeApi = Record<string, (...args: never[]) => Promise<Envelope<unknown>>>;

export interface LongLivedOptions {
  readonly name: string;
  readonly worker: URL;
  readonly timeoutMs: number;
  readonly workerData?: Readonly<Record<string, unknown>>;
  /** Called after each (re)start, before any other call: restore state. */
  readonly init?: { readonly method: string; readonly args: readonly unknown[]; readonly timeoutMs?: number };
  readonly onRestart?: (reason: string) => void;
}

interface Pending {
  readonly reject: (err: MemoryError) => void;
}

interface Live {
  readonly worker: Worker;
  readonly remote: Remote<EnvelopeApi>;
  readonly ready: Promise<void>;
  readonly isReady: () => boolean;
}

export class LongLivedActor {
  private live: Live | null = null;
  private readonly pending = new Set<Pending>();
  private closed = false;
  private restarts = 0;

  constructor(private readonly options: LongLivedOptions) {}

  /** How many times a worker was replaced (crash or hang). */
  get restartCount(): number {
    return this.restarts;
  }

  /**
   * Call a worker method. Once the worker is ready the message is posted synchronously, before this
   * returns, so the worker starts while the caller goes on with other work (hybrid search relies on it).
   */
  call<T>(method: string, args: readonly unknown[], opts: { timeoutMs?: number } = {}): Promise<T> {
    let live: Live;
    try {
      live = this.start();
    } catch (err) {
      return Promise.reject(err);
    }
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    if (live.isReady()) return this.invoke<T>(live, method, args, timeoutMs);
    return live.ready.then(() => this.invoke<T>(live, method, args, timeoutMs));
  }

  private invoke<T>(live: Live, method: string, args: readonly unknown[], timeoutMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new MemoryError('MEM_ERR_ACTOR_CLOSED', `${this.options.name}: shut down`));
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { reject };
      this.pending.add(entry);
      const timer = setTimeout(() => {
        this.pending.delete(entry);
        reject(new MemoryError('MEM_ERR_ACTOR_TIMEOUT', `${this.options.name}.${method}: no answer within ${timeoutMs} ms; the worker was replaced`));
        this.kill(live, `${method} timed out`);
      }, timeoutMs);
      const fn = (live.remote as unknown as Record<string, (...a: readonly unknown[]) => Promise<Envelope<T>>>)[method];
      if (!fn) throw new MemoryError('MEM_ERR_INTERNAL', `${this.options.name} has no method ${method}`);
      fn(...args).then(
        (env) => {
          clearTimeout(timer);
          if (!this.pending.delete(entry)) return;
          try {
            resolve(unwrap(env));
          } catch (err) {
            reject(err as MemoryError);
          }
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!this.pending.delete(entry)) return;
          reject(new MemoryError('MEM_ERR_ACTOR_CRASHED', `${this.options.name}.${method}: ${(err as Error)?.message ?? String(err)}`, { cause: err }));
        },
      );
    });
  }

  private start(): Live {
    if (this.closed) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', `${this.options.name}: shut down`);
    if (this.live) return this.live;
    const where = locateWorker(this.options.worker);
    const worker = new Worker(where.filename, { workerData: { ...this.options.workerData, __target: where.target } });
    worker.unref();
    const remote = wrap<EnvelopeApi>(nodeEndpoint(worker));
    worker.on('error', (err) => this.onExit(worker, `error: ${err.message}`));
    worker.on('exit', (code) => this.onExit(worker, `exit code ${code}`));
    const init = this.options.init;
    let settled = !init;
    const live: Live = { worker, remote, ready: Promise.resolve(), isReady: () => settled };
    const ready = init ? this.invoke<void>(live, init.method, init.args, init.timeoutMs ?? this.options.timeoutMs) : Promise.resolve();
    ready.then(
      () => (settled = true),
      () => undefined,
    );
    this.live = { ...live, ready };
    return this.live;
  }

  private kill(live: Live, reason: string): void {
    if (this.live?.worker !== live.worker) return;
    this.live = null;
    this.restarts++;
    this.failPending(`the worker was replaced (${reason})`);
    this.options.onRestart?.(reason);
    void live.worker.terminate();
  }

  private onExit(worker: Worker, reason: string): void {
    if (this.live?.worker !== worker) return;
    this.live = null;
    if (this.closed) return this.failPending('shut down', 'MEM_ERR_ACTOR_CLOSED');
    this.restarts++;
    this.failPending(`the worker died (${reason}); it will be restarted`);
    this.options.onRestart?.(reason);
  }

  private failPending(why: string, code: 'MEM_ERR_ACTOR_CRASHED' | 'MEM_ERR_ACTOR_CLOSED' = 'MEM_ERR_ACTOR_CRASHED'): void {
    for (const p of this.pending) p.reject(new MemoryError(code, `${this.options.name}: ${why}`));
    this.pending.clear();
  }

  /** Reject what is pending and stop the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const live = this.live;
    this.live = null;
    this.failPending('shut down', 'MEM_ERR_ACTOR_CLOSED');
    if (live) await live.worker.terminate();
  }
}
