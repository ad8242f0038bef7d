/** The maintenance actor's contract (types only): one pass of decay, expiry, purge and trimming. */
import type { MaintenanceOptions, MaintenanceReport } from '../../memory/maintenance.js';

export interface MaintenanceJob extends MaintenanceOptions {
  readonly dbPath: string;
  readonly busyTimeoutMs: number;
  readonly durability: 'normal' | 'full';
}

export interface MaintenanceWorkerApi {
  run(job: MaintenanceJob): Promise<MaintenanceReport>;
}

export type { MaintenanceReport };
