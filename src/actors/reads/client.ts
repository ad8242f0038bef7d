/** Main-thread handle of the read actor: one worker thread answering heavy dashboard queries in order. */
import { ActorPool } from '../runtime/pool.js';
import type { ReadJob } from './contract.js';

/** A query slower than this is cut off (the worker is replaced): MEM_ERR_ACTOR_TIMEOUT. */
const READ_TIMEOUT_MS = 30_000;

export class ReadClient {
  private readonly pool = new ActorPool({ name: 'reads', worker: new URL('./worker.js', import.meta.url), maxThreads: 1, minThreads: 1, timeoutMs: READ_TIMEOUT_MS, idleTimeoutMs: 10 * 60_000 });

  /** The response body (JSON text) of one query. */
  query(job: ReadJob): Promise<string> {
    return this.pool.call<string>('query', [job]);
  }

  /** Reads waiting for the worker. */
  get waiting(): number {
    return this.pool.queueSize;
  }

  close(): Promise<void> {
    return this.pool.close(1000);
  }
}
