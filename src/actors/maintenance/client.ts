/** Main-thread handle of the maintenance actor: one background worker, runs one pass at a time. */
import type { ResolvedConfig } from '../../config/resolve.js';
import { ActorPool } from '../runtime/pool.js';
import type { MaintenanceJob, MaintenanceReport } from './contract.js';

export class MaintenanceClient {
  private readonly pool: ActorPool;
  private running: Promise<MaintenanceReport> | null = null;

  constructor(private readonly config: ResolvedConfig, options: { timeoutMs?: number } = {}) {
    this.pool = new ActorPool({ name: 'maintenance', worker: new URL('./worker.js', import.meta.url), maxThreads: 1, minThreads: 0, timeoutMs: options.timeoutMs ?? 10 * 60_000 });
  }

  /** Run a pass; a call while one runs joins it. */
  run(): Promise<MaintenanceReport> {
    if (this.running) return this.running;
    this.running = this.pool.call<MaintenanceReport>('run', [this.job()]).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** A PASSIVE WAL checkpoint on the worker's connection (keeps checkpoints off the request path). */
  checkpoint(): Promise<{ busy: number; log: number; checkpointed: number }> {
    return this.pool.call('checkpoint', [this.job()], { timeoutMs: 60_000 });
  }

  private job(): MaintenanceJob {
    const s = this.config.store;
    return {
      dbPath: this.config.dbPath,
      busyTimeoutMs: s.busyTimeoutMs,
      durability: s.durability,
      eventRetentionDays: s.eventRetentionDays,
      deletedRetentionDays: s.deletedRetentionDays,
      recallRetentionDays: s.recallRetentionDays,
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
