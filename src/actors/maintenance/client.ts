/** Main-thread handle of the maintenance actor: one background worker, runs one pass at a time. */
import type { ResolvedConfig } from '../../config/resolve.js';
import { ActorPool } from '../runtime/pool.js';
import type { MaintenanceReport } from './contract.js';

export class MaintenanceClient {
  private readonly pool: ActorPool;
  private running: Promise<MaintenanceReport> | null = null;

  constructor(private readonly config: ResolvedConfig, options: { timeoutMs?: number } = {}) {
    this.pool = new ActorPool({ name: 'maintenance', worker: new URL('./worker.js', import.meta.url), maxThreads: 1, minThreads: 0, timeoutMs: options.timeoutMs ?? 10 * 60_000 });
  }

  /** Run a pass; a call while one runs joins it. */
  run(): Promise<MaintenanceReport> {
    if (this.running) return this.running;
    const s = this.config.store;
    const job = {
      dbPath: this.config.dbPath,
      busyTimeoutMs: s.busyTimeoutMs,
      durability: s.durability,
      eventRetentionDays: s.eventRetentionDays,
      deletedRetentionDays: s.deletedRetentionDays,
      recallRetentionDays: s.recallRetentionDays,
    };
    this.running = this.pool.call<MaintenanceReport>('run', [job]).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
