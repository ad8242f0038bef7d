/**
 * The in-process event bus, fed from the event log table so that every process sharing the database
 * (CLI, gateway, dashboard server) sees each other's changes. In-process writes call `poke()` after
 * commit for immediate delivery; changes from other processes arrive by polling (default every 200 ms,
 * only while someone is subscribed). A subscriber may resume from the last sequence number it saw.
 */
import { eventFor, type MemoryEvent } from '../core/events.js';
import type { Caller } from '../core/types.js';
import type { EventLog } from '../store/events.js';

export type Listener = (event: MemoryEvent) => void;

export interface Subscription {
  readonly unsubscribe: () => void;
  /** True when `fromSeq` was older than the oldest event kept: some events were trimmed and missed. */
  readonly missed: boolean;
}

interface Sub {
  readonly caller: Caller;
  readonly listener: Listener;
}

/** How far back `recent` looks (others' private events are skipped, not counted towards the limit). */
const RECENT_SCAN = 5000;

export class EventBus {
  private readonly subs = new Set<Sub>();
  private cursor: number;
  private timer: NodeJS.Timeout | null = null;
  private draining = false;

  constructor(
    private readonly log: EventLog,
    private readonly options: { pollMs?: number; onError?: (err: unknown) => void } = {},
  ) {
    this.cursor = log.lastSeq();
  }

  /** Deliver events after `fromSeq` (default: only new ones) to `listener`, filtered for `caller`. */
  subscribe(caller: Caller, listener: Listener, fromSeq?: number): Subscription {
    this.drain();
    const sub: Sub = { caller, listener };
    let missed = false;
    if (fromSeq !== undefined && fromSeq < this.cursor) {
      missed = fromSeq + 1 < this.log.firstSeq();
      for (let seq = fromSeq; seq < this.cursor; ) {
        const batch = this.log.after(seq, 500).filter((e) => e.seq <= this.cursor);
        if (batch.length === 0) break;
        for (const e of batch) this.deliver(sub, e);
        seq = batch[batch.length - 1]?.seq ?? this.cursor;
      }
    }
    this.subs.add(sub);
    this.ensureTimer();
    return {
      missed,
      unsubscribe: () => {
        this.subs.delete(sub);
        if (this.subs.size === 0) this.stopTimer();
      },
    };
  }

  /** The `limit` newest events `caller` may see, oldest first, looking back at most RECENT_SCAN events. */
  recent(caller: Caller, limit: number): MemoryEvent[] {
    this.drain();
    const out: MemoryEvent[] = [];
    let seq = this.cursor;
    for (let scanned = 0; out.length < limit && scanned < RECENT_SCAN && seq > 0; ) {
      const page = this.log.atOrBefore(seq, 500);
      if (page.length === 0) break;
      for (const e of page) {
        const visible = eventFor(e, caller);
        if (visible && out.length < limit) out.push(visible);
      }
      scanned += page.length;
      seq = (page[page.length - 1]?.seq ?? 1) - 1;
    }
    return out.reverse();
  }

  /** Read and deliver whatever the log holds past the cursor. Called after each local commit. */
  poke(): void {
    this.drain();
  }

  get lastSeq(): number {
    return this.cursor;
  }

  close(): void {
    this.stopTimer();
    this.subs.clear();
  }

  private drain(): void {
    if (this.draining) return; // a listener that writes re-enters: the outer loop picks its events up
    this.draining = true;
    try {
      if (this.subs.size === 0) {
        // Nobody listens: skip reading and parsing, just move the cursor.
        this.cursor = this.log.lastSeq();
        return;
      }
      for (;;) {
        const batch = this.log.after(this.cursor, 500);
        if (batch.length === 0) break;
        for (const e of batch) {
          this.cursor = e.seq;
          for (const sub of this.subs) this.deliver(sub, e);
        }
      }
    } catch (err) {
      this.options.onError?.(err);
    } finally {
      this.draining = false;
    }
  }

  private deliver(sub: Sub, e: MemoryEvent): void {
    const visible = eventFor(e, sub.caller);
    if (!visible) return;
    try {
      sub.listener(visible);
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private ensureTimer(): void {
    if (this.timer || this.subs.size === 0) return;
    this.timer = setInterval(() => this.drain(), this.options.pollMs ?? 200);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
