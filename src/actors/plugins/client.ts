/**
 * Main-thread handle of one plugin's worker: a piscina pool of exactly one thread, so the plugin's init
 * runs once and its state is kept between calls. Every call has a budget; a worker past it is terminated
 * (piscina starts a fresh thread) and the next call initialises the new worker first: a fresh port to the
 * service facade, the plugin's init again. A failed init is final for this handle: the plugin is broken
 * until the process loads it again.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { MemoryError } from '../../core/errors.js';
import { ActorPool } from '../runtime/pool.js';
import type { PluginInitResult, PluginSpec } from './contract.js';

export interface PluginClientOptions {
  readonly spec: PluginSpec;
  readonly initTimeoutMs: number;
  /** Default budget of a call. */
  readonly timeoutMs: number;
  /** Serve the facade on the main thread's end of a fresh channel (called for every worker). */
  readonly connect: (port: MessagePort) => void;
  /** A worker was replaced (hung or crashed). */
  readonly onReplaced?: (reason: string) => void;
}

const REPLACED: ReadonlySet<string> = new Set(['MEM_ERR_ACTOR_TIMEOUT', 'MEM_ERR_ACTOR_CRASHED']);

export class PluginClient {
  private readonly pool: ActorPool;
  private ready: Promise<PluginInitResult> | null = null;
  private port: MessagePort | null = null;
  private replacedCount = 0;

  constructor(private readonly options: PluginClientOptions) {
    this.pool = new ActorPool({
      name: `plugin ${options.spec.id}`,
      worker: new URL('./worker.js', import.meta.url),
      maxThreads: 1,
      minThreads: 1,
      timeoutMs: options.timeoutMs,
      // A plugin that leaks or loops on allocation dies alone (MEM_ERR_ACTOR_CRASHED), not the service.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
  }

  /** How many times the worker was replaced. */
  get replaced(): number {
    return this.replacedCount;
  }

  /** Load the plugin in the current worker (once per worker). */
  init(): Promise<PluginInitResult> {
    return (this.ready ??= this.start());
  }

  private start(): Promise<PluginInitResult> {
    this.port?.close();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.options.connect(port1);
    // The facade's port must not keep a CLI process alive.
    port1.unref();
    const ready = this.pool.call<PluginInitResult>('init', [this.options.spec, port2], { timeoutMs: this.options.initTimeoutMs, transfer: [port2] });
    ready.catch((err: unknown) => this.noteFailure(err, null));
    return ready;
  }

  /** Call a worker method after init; the worker is initialised again first if it was replaced. */
  async call<T>(method: 'hook' | 'endpoint' | 'command', args: readonly unknown[], timeoutMs?: number): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const ready = this.init();
      await ready;
      try {
        return await this.pool.call<T>(method, args, { timeoutMs: timeoutMs ?? this.options.timeoutMs });
      } catch (err) {
        // A call queued behind one that hung reached the replacement worker before it was initialised.
        if (attempt === 0 && err instanceof MemoryError && err.details?.notInitialised === true) {
          if (this.ready === ready) this.ready = null;
          continue;
        }
        this.noteFailure(err, ready);
        throw err;
      }
    }
  }

  private noteFailure(err: unknown, ready: Promise<PluginInitResult> | null): void {
    if (!(err instanceof MemoryError) || !REPLACED.has(err.code)) return;
    this.replacedCount++;
    // The new worker starts empty: the next call loads the plugin again (unless init itself failed).
    if (ready && this.ready === ready) this.ready = null;
    this.options.onReplaced?.(err.message);
  }

  async close(): Promise<void> {
    this.port?.close();
    this.port = null;
    await this.pool.close(1000);
  }
}
