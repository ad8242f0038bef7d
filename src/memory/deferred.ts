/**
 * Writes that need not be in the answer's path: memory_recall's record of itself (the recall event, recall
 * counts, strength, co-recall links, the session's episode). `later(write)` queues the write and returns at
 * once; the queue is written in one transaction after the current turn of the event loop (setImmediate),
 * so a burst of recalls costs one commit, and the commit (with any WAL checkpoint it triggers) happens
 * after the answer has left.
 *
 * Read-your-writes: the queue is flushed before any other write transaction starts (Ctx.tx) and before
 * every service read (MemoryService), so nothing reads a state that lacks a recall already answered. Only
 * recall itself reads without flushing: a recall's strength factor may not yet count the recall answered
 * a moment before it.
 *
 * Nothing is dropped on an ordinary path: a queue of MAX_PENDING writes is flushed at once (a caller that
 * never yields to the event loop); close() flushes. A database that refuses writes (locked by another
 * process, read-only, full) keeps the queue, reported once, and is retried with a growing pause until it
 * takes them (at most MAX_KEPT are kept meanwhile; older ones are dropped and counted). A write that fails
 * on its own is reported to onError and skipped, so one bad record cannot block the rest.
 */
import { MemoryError } from '../core/errors.js';
import type { Database as Db } from 'better-sqlite3';
import { writeTx } from '../store/db.js';

/** Queued writes past this many are flushed synchronously by the next `later` (bounded memory). */
export const MAX_PENDING = 1_000;
/** Writes kept while the database refuses them; beyond this the oldest are dropped (and reported). */
export const MAX_KEPT = 10 * MAX_PENDING;
/** First pause before retrying a database that refused the writes; it doubles up to RETRY_MAX_MS. */
const RETRY_MS = 250;
const RETRY_MAX_MS = 5_000;
/** The database as a whole refused: the writes themselves are fine, so they wait. */
const REFUSALS: ReadonlySet<string> = new Set(['MEM_ERR_DB_BUSY', 'MEM_ERR_DB_READONLY', 'MEM_ERR_DB_FULL']);

export class DeferredWrites {
  private queue: (() => void)[] = [];
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | null = null;
  private flushing = false;
  private closed = false;
  /** The pause before the next retry while the database refuses writes; 0 when it takes them. */
  private retryMs = 0;
  /** Records dropped during the current refusal (reported when it ends). */
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly afterCommit: () => void,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Writes queued and not yet committed. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queue `write` (it runs inside a write transaction, with other queued writes). */
  later(write: () => void): void {
    if (this.closed) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', 'the service is closed');
    this.queue.push(write);
    if (this.retryMs > 0) {
      // The database refuses writes: keep them for the retry already scheduled, within bounds.
      if (this.queue.length > MAX_KEPT) {
        this.queue.shift();
        if (this.dropped++ === 0) this.onError(new MemoryError('MEM_ERR_INTERNAL', `the database has refused writes for a while: ${MAX_KEPT} recall records are kept, older ones dropped`));
      }
    } else if (this.queue.length >= MAX_PENDING) this.flush();
    else this.scheduled ??= setImmediate(() => this.scheduledFlush());
  }

  /**
   * Commit everything queued, now. A no-op when empty or when called from inside a flush (a queued write
   * that opens a nested transaction). Never throws: a database that refuses writes keeps the queue.
   */
  flush(): void {
    if (this.queue.length === 0 || this.flushing) return;
    this.cancel();
    const batch = this.queue;
    this.queue = [];
    this.flushing = true;
    try {
      writeTx(this.db, 'deferred writes', () => {
        for (const write of batch) write();
      });
      this.retryMs = 0;
      if (this.dropped > 0) this.onError(new MemoryError('MEM_ERR_INTERNAL', `${this.dropped} recall record(s) were dropped while the database refused writes`));
      this.dropped = 0;
    } catch (err) {
      if (refused(err) && this.closed) {
        this.onError(new MemoryError((err as MemoryError).code, `${batch.length} recall record(s) not written at close: ${(err as Error).message}`, { cause: err }));
        return;
      }
      if (refused(err)) {
        this.queue = batch.concat(this.queue);
        if (this.retryMs === 0) this.onError(err);
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs === 0 ? RETRY_MS : this.retryMs * 2);
        this.scheduled = setTimeout(() => this.scheduledFlush(), this.retryMs).unref();
        return;
      }
      // One write failed (the transaction rolled back): write each on its own so only that one is lost.
      for (const write of batch) {
        try {
          writeTx(this.db, 'deferred write', write);
        } catch (one) {
          this.onError(one);
        }
      }
    } finally {
      this.flushing = false;
    }
    this.afterCommit();
  }

  /** Flush and refuse new writes (the connection is about to close). */
  close(): void {
    this.closed = true;
    this.flush();
    this.cancel();
    this.queue = [];
  }

  private scheduledFlush(): void {
    this.scheduled = null;
    this.flush();
  }

  private cancel(): void {
    if (this.scheduled === null) return;
    clearImmediate(this.scheduled as NodeJS.Immediate);
    clearTimeout(this.scheduled as NodeJS.Timeout);
    this.scheduled = null;
  }
}

function refused(err: unknown): boolean {
  return err instanceof MemoryError && REFUSALS.has(err.code);
}
