/**
 * Main-thread handle of the recall actor. Each call has a tight deadline: a pathological pattern or a huge
 * input costs at most that much of a turn (the worker is then replaced), never more.
 */
import { ActorPool } from '../runtime/pool.js';
import type { AnalyzeRequest, AnalyzeResult } from './contract.js';

export class RecallClient {
  private readonly pool: ActorPool;

  constructor(options: { timeoutMs?: number } = {}) {
    this.pool = new ActorPool({ name: 'recall', worker: new URL('./worker.js', import.meta.url), maxThreads: 1, minThreads: 1, timeoutMs: options.timeoutMs ?? 250 });
  }

  analyze(req: AnalyzeRequest, timeoutMs?: number): Promise<AnalyzeResult> {
    return this.pool.call<AnalyzeResult>('analyze', [req], timeoutMs === undefined ? {} : { timeoutMs });
  }

  /** Start the worker now, so the first failing turn does not pay for it. */
  async warm(): Promise<void> {
    await this.pool.call('analyze', [{ segments: [], patterns: null }], { timeoutMs: 30_000 });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
