/** What every resolver receives: the service, who is asking, and whether mutations are allowed. */
import type { Caller } from '../../core/types.js';
import type { MemoryService } from '../../memory/service.js';

export type GqlContext = {
  readonly svc: MemoryService;
  readonly caller: Caller;
  /** True when no token is configured, or the request carried the right one. */
  readonly authorized: boolean;
  /** SSE reconnects: the Last-Event-ID the client sent (resume point when `after` is not given). */
  readonly lastEventId: number | null;
  /** On the read worker: the server's search mode (the worker runs no semantic layer of its own). */
  readonly searchMode?: 'hybrid' | 'fulltext';
  /** Set by the SSE transport: the seq of the event last sent, so it can write it as the SSE id. */
  lastSentSeq?: number;
};
