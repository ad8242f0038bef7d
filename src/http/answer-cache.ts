/**
 * Answers to heavy read queries, kept while memory has not changed (issue 21: the graph app reloads the
 * same `graph` query on every open, reconnect and filter change). An answer is the response body (JSON
 * text) for one query text, variables, caller and media type; it is served again only while the event
 * log's last seq is the one it was computed at (every change to facts, links, conflicts and recalls, by
 * this process or another, appends an event) and for at most `maxAgeMs` of the service's clock (strength,
 * recency and expiry move with time alone). Queries that use `search` or `suggestedLinks` (their answers move as vectors land) and
 * small queries (cheaper to run than to key) are not kept. Bounded in entries and bytes.
 */
import type { MemoryService } from '../memory/service.js';
import type { NeutralRequest, RequestState } from './graphql-transports.js';
import type { Priced } from './read-offload.js';
import { BASE_HEADERS, type HttpResponse } from './types.js';

export interface AnswerCacheOptions {
  /** Queries priced below this are not kept (graphql/cost.ts). */
  readonly minCost: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxAgeMs: number;
}

export const ANSWER_CACHE: AnswerCacheOptions = Object.freeze({ minCost: 200, maxEntries: 32, maxBytes: 64 << 20, maxAgeMs: 10_000 });

interface Entry {
  readonly seq: number;
  readonly at: number;
  readonly body: string;
  readonly type: string;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly svc: MemoryService,
    private readonly o: AnswerCacheOptions = ANSWER_CACHE,
  ) {}

  /** The key of a query worth keeping, or null. */
  private keyOf(priced: Priced | null, req: NeutralRequest, st: RequestState): string | null {
    if (!priced || priced.operation !== 'query' || priced.cost.mainThread || priced.cost.cost < this.o.minCost) return null;
    const { params } = priced;
    const c = st.context.caller;
    return JSON.stringify([params.query, params.operationName ?? null, params.variables ?? null, c.role, c.agentId, c.sessionId, req.header('accept') ?? '']);
  }

  /**
   * Run `compute` for this request, or answer from the cache. `compute`'s answer is kept when it is a 200
   * with no errors, under the seq read before it ran (a change meanwhile makes it stale at once).
   */
  async answer(priced: Priced | null, req: NeutralRequest, st: RequestState, compute: () => Promise<HttpResponse>): Promise<HttpResponse> {
    const key = this.keyOf(priced, req, st);
    if (key === null) return compute();
    const seq = this.svc.changeMark();
    // The service's clock: strength, recency and expiry are read as of it (tests move it).
    const now = this.svc.now();
    const hit = this.entries.get(key);
    if (hit && hit.seq === seq && now - hit.at <= this.o.maxAgeMs) {
      this.hits++;
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return { status: 200, headers: { ...BASE_HEADERS, 'content-type': hit.type }, body: hit.body };
    }
    this.misses++;
    const r = await compute();
    if (r.status === 200 && 'body' in r) {
      const body = typeof r.body === 'string' ? r.body : r.body.toString('utf8');
      if (!body.startsWith('{"errors"') && !body.includes('"errors":[')) this.put(key, { seq, at: now, body, type: r.headers['content-type'] ?? 'application/json; charset=utf-8' });
    }
    return r;
  }

  private put(key: string, e: Entry): void {
    if (e.body.length > this.o.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, e);
    this.bytes += e.body.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.o.maxEntries && this.bytes <= this.o.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
  }
}
