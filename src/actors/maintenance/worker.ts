/**
 * The maintenance worker: runs the maintenance pass (src/memory/maintenance.ts) on its own SQLite
 * connection, off the main thread. Its writes go through the same transactions and event log as the
 * main thread's, so the main bus sees them by tailing the log. (The one worker that reuses the memory
 * layer's code: the pass must behave exactly as it does in-process.)
 */
import type { Database } from 'better-sqlite3';
import { MemoryError } from '../../core/errors.js';
import { createCtx, type Ctx } from '../../memory/context.js';
import { runMaintenance } from '../../memory/maintenance.js';
import { openDatabase } from '../../store/db.js';
import { poolWorker } from '../runtime/worker.js';
import type { MaintenanceJob } from './contract.js';

let open: { path: string; db: Database; ctx: Ctx } | null = null;

function ctxFor(job: MaintenanceJob): Ctx {
  if (open?.path === job.dbPath) return open.ctx;
  open?.db.close();
  // The main thread ran quick_check when it opened the file; maintenance runs the full integrity_check.
  const db = openDatabase(job.dbPath, { busyTimeoutMs: job.busyTimeoutMs, durability: job.durability, quickCheck: false });
  const ctx = createCtx(db, {
    vaultKey: () => {
      throw new MemoryError('MEM_ERR_INTERNAL', 'maintenance never touches the vault');
    },
  });
  open = { path: job.dbPath, db, ctx };
  return ctx;
}

export default poolWorker({
  run: (job: MaintenanceJob) => runMaintenance(ctxFor(job), job),
  /** Copy WAL frames into the database without blocking readers or writers (PASSIVE). */
  checkpoint: (job: MaintenanceJob) => {
    const [row] = ctxFor(job).db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    return row ?? { busy: 0, log: 0, checkpointed: 0 };
  },
});
