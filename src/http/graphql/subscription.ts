/**
 * memoryActivity: the event bus (fed from the event log, so other processes' changes arrive too) as an
 * async iterator per subscriber, filtered for the subscriber's scope by the bus itself. A subscriber that
 * falls more than MAX_BUFFERED events behind is ended with an error rather than silently losing events:
 * it reconnects with the last seq it saw and the log replays the rest.
 */
import { MemoryError } from '../../core/errors.js';
import type { MemoryEvent } from '../../core/events.js';
import type { GqlContext } from './context.js';
import { eventKindOf, type FieldMap } from './views.js';

export const MAX_BUFFERED = 10_000;

export class EventStream implements AsyncIterableIterator<MemoryEvent> {
  private readonly buffer: MemoryEvent[] = [];
  private waiter: ((r: IteratorResult<MemoryEvent>) => void) | null = null;
  private failWaiter: ((err: unknown) => void) | null = null;
  private error: MemoryError | null = null;
  private done = false;
  private unsubscribe: () => void = () => undefined;

  constructor(ctx: GqlContext, fromSeq: number | undefined, kinds: ReadonlySet<string> | null) {
    const sub = ctx.svc.subscribe(
      ctx.caller,
      (e) => {
        if (!kinds || kinds.has(e.kind)) this.push(e);
      },
      fromSeq,
    );
    this.unsubscribe = sub.unsubscribe;
    if (this.done) sub.unsubscribe();
  }

  private push(e: MemoryEvent): void {
    if (this.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = this.failWaiter = null;
      w({ value: e, done: false });
      return;
    }
    if (this.buffer.length >= MAX_BUFFERED) {
      this.fail(new MemoryError('MEM_ERR_SUBSCRIBER_BEHIND', `subscriber fell ${MAX_BUFFERED} events behind; resubscribe with after = the last seq received`));
      return;
    }
    this.buffer.push(e);
  }

  private fail(err: MemoryError): void {
    this.error = err;
    this.buffer.length = 0;
    this.finish();
  }

  private finish(): void {
    this.done = true;
    this.unsubscribe();
    const w = this.waiter;
    const f = this.failWaiter;
    this.waiter = this.failWaiter = null;
    if (this.error && f) f(this.error);
    else w?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<MemoryEvent>> {
    const e = this.buffer.shift();
    if (e) return Promise.resolve({ value: e, done: false });
    if (this.error) {
      const err = this.error;
      this.error = null;
      return Promise.reject(err);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  return(): Promise<IteratorResult<MemoryEvent>> {
    if (!this.done) this.finish();
    this.buffer.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

interface Args {
  readonly after?: number | null;
  readonly kinds?: readonly string[] | null;
}

export const subscriptionFields: Readonly<Record<string, { subscribe: FieldMap<unknown>[string]; resolve: FieldMap<MemoryEvent>[string] }>> = {
  memoryActivity: {
    subscribe: (_p, args, ctx) => {
      const { after, kinds } = args as Args;
      // A reconnecting SSE client sends Last-Event-ID; it wins over a fixed `after` once it is further along.
      const from = after != null && ctx.lastEventId !== null ? Math.max(after, ctx.lastEventId) : (after ?? ctx.lastEventId ?? undefined);
      if (from !== undefined && (!Number.isSafeInteger(from) || from < 0)) {
        throw new MemoryError('MEM_ERR_INVALID_INPUT', `memoryActivity.after: expected a non-negative integer seq, received ${from}`);
      }
      return new EventStream(ctx, from, kinds && kinds.length > 0 ? new Set(kinds.map(eventKindOf)) : null);
    },
    resolve: (e, _a, ctx) => {
      ctx.lastSentSeq = e.seq;
      return e;
    },
  },
};
