/**
 * Real clients for the dashboard tests: GraphQL over HTTP (fetch), graphql-sse and graphql-ws subscribers
 * that collect memoryActivity events, a dashboard over a service with a movable clock, and a checksum of
 * every table a change could touch ("nothing changed" checks).
 */
import { createHash } from 'node:crypto';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { AdapterName } from '../../src/http/adapters/types.js';
import { startDashboard, type Dashboard } from '../../src/http/server.js';
import { MemoryService } from '../../src/memory/service.js';
import type { Caller } from '../../src/core/types.js';
import { tempHome, type TestHome } from '../helpers.js';

export interface GqlError {
  readonly message: string;
  readonly extensions?: { readonly code?: string; readonly details?: unknown };
}
export interface GqlResponse<T> {
  readonly status: number;
  readonly body: { readonly data?: T | null; readonly errors?: readonly GqlError[] };
}

/** POST /graphql with JSON; returns the status and the parsed body. */
export async function postGql<T = Record<string, unknown>>(url: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<GqlResponse<T>> {
  const r = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: r.status, body: (await r.json()) as GqlResponse<T>['body'] };
}

/** The one error code of a response (fails loudly when there is not exactly one error). */
export function errorCode(r: GqlResponse<unknown>): string | undefined {
  const errors = r.body.errors ?? [];
  if (errors.length !== 1) throw new Error(`expected exactly one error, got ${JSON.stringify(r.body)}`);
  return errors[0]?.extensions?.code;
}

/** The data of a response that must have no errors. */
export function dataOf<T>(r: GqlResponse<T>): T {
  if (r.status !== 200 || r.body.errors || r.body.data == null) throw new Error(`expected data, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Caller headers for HTTP and SSE. */
export function callerHeaders(c: Caller): Record<string, string> {
  return {
    'x-hybrid-mem-role': c.role,
    ...(c.agentId ? { 'x-hybrid-mem-agent-id': c.agentId } : {}),
    ...(c.sessionId ? { 'x-hybrid-mem-session-id': c.sessionId } : {}),
  };
}

/** WebSocket connection params for a caller. */
export function callerParams(c: Caller): Record<string, string> {
  return { role: c.role, ...(c.agentId ? { agentId: c.agentId } : {}), ...(c.sessionId ? { sessionId: c.sessionId } : {}) };
}

export async function waitFor(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface ActivityEvent {
  readonly seq: number;
  readonly kind: string;
  readonly factId: string | null;
  readonly oldFactId: string | null;
  readonly pinned: boolean | null;
  readonly reason: string | null;
  readonly link: { readonly id: string; readonly source: string; readonly target: string; readonly linkType: string; readonly strength: number } | null;
  readonly linkIds: readonly string[] | null;
  readonly recall: { readonly id: string; readonly query: string; readonly scores: readonly { readonly factId: string; readonly score: number }[] } | null;
  readonly conflict: { readonly id: string; readonly status: string } | null;
  readonly fact: { readonly id: string; readonly text: string } | null;
  readonly plugin: { readonly pluginId: string; readonly event: string; readonly data: string } | null;
}

export const ACTIVITY_FIELDS =
  'seq kind factId oldFactId pinned reason link { id source target linkType strength } linkIds recall { id query scores { factId score } } conflict { id status } fact { id text } plugin { pluginId event data }';

/** `subscription { memoryActivity<args> { ... } }` */
export const activityQuery = (args = ''): string => `subscription { memoryActivity${args} { ${ACTIVITY_FIELDS} } }`;

/** A running subscription: what it received, and how it ended. */
export class Feed {
  readonly events: ActivityEvent[] = [];
  readonly errors: unknown[] = [];
  completed = false;
  /** The transport's connection reported closed (WebSocket) or the stream connected (SSE). */
  closed = false;
  connected = false;
  private stopper: () => Promise<void> = () => Promise.resolve();

  constructor(readonly name: string) {}

  /** The observer both clients' subscribe() take: results, errors, completion. */
  readonly sink = {
    next: (v: unknown): void => this.push(v),
    error: (e: unknown): void => void this.errors.push(e),
    complete: (): void => {
      this.completed = true;
    },
  };

  setStopper(f: () => Promise<void>): void {
    this.stopper = f;
  }

  push(data: unknown): void {
    const d = data as { data?: { memoryActivity?: ActivityEvent }; errors?: unknown[] };
    if (d.errors) this.errors.push(...d.errors);
    if (d.data?.memoryActivity) this.events.push(d.data.memoryActivity);
  }

  get ended(): boolean {
    return this.completed || this.errors.length > 0;
  }

  seqs(): number[] {
    return this.events.map((e) => e.seq);
  }

  /** Events after `seq`. */
  after(seq: number): ActivityEvent[] {
    return this.events.filter((e) => e.seq > seq);
  }

  has(pred: (e: ActivityEvent) => boolean): boolean {
    return this.events.some(pred);
  }

  until(pred: (e: ActivityEvent) => boolean, what: string, ms = 5000): Promise<void> {
    return waitFor(() => this.has(pred), `${this.name}: ${what} (received ${JSON.stringify(this.events.map((e) => `${e.seq}:${e.kind}`))}, errors ${JSON.stringify(this.errors)})`, ms);
  }

  stop(): Promise<void> {
    return this.stopper();
  }
}

/** Subscribe with the graphql-sse client (distinct connections mode). */
export function sseFeed(url: string, query: string, o: { headers?: Record<string, string> | (() => Record<string, string>); name?: string } = {}): Feed {
  const feed = new Feed(o.name ?? 'sse');
  const headers = o.headers;
  const client = createSseClient({
    url: `${url}/graphql`,
    singleConnection: false,
    retryAttempts: 0,
    ...(headers ? { headers: typeof headers === 'function' ? headers : () => headers } : {}),
  });
  const unsubscribe = client.subscribe(
    { query },
    feed.sink,
    {
      connected: () => {
        feed.connected = true;
      },
    },
  );
  feed.setStopper(async () => {
    unsubscribe();
    client.dispose();
  });
  return feed;
}

/** Subscribe with the graphql-ws client over the `ws` package (Node 20 has no global WebSocket). */
export function wsFeed(url: string, query: string, o: { connectionParams?: Record<string, unknown>; name?: string } = {}): Feed {
  const feed = new Feed(o.name ?? 'ws');
  const client = createWsClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...(o.connectionParams ? { connectionParams: o.connectionParams } : {}),
    on: {
      connected: () => {
        feed.connected = true;
      },
      closed: () => {
        feed.closed = true;
      },
    },
  });
  const unsubscribe = client.subscribe(
    { query },
    feed.sink,
  );
  feed.setStopper(async () => {
    unsubscribe();
    await client.dispose();
  });
  return feed;
}

/** One GraphQL operation over a fresh graphql-ws connection: the result, or the error it was refused with. */
export async function wsExecute<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, unknown> = {},
): Promise<{ data?: T | null; errors?: readonly GqlError[] }> {
  const client = createWsClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
  try {
    return await new Promise((resolve) => {
      let result: { data?: T | null; errors?: readonly GqlError[] } = {};
      client.subscribe<T>(
        { query, variables },
        {
          next: (v) => {
            result = v as typeof result;
          },
          // graphql-ws delivers operation errors as an array of GraphQL errors; a closed socket as a CloseEvent.
          error: (e) => resolve({ errors: Array.isArray(e) ? (e as GqlError[]) : [{ message: String((e as { reason?: string }).reason ?? e), extensions: { code: `close ${(e as { code?: number }).code}` } }] }),
          complete: () => resolve(result),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

/**
 * Write global probe facts until every feed has received one: the subscriptions are live from here on.
 * Returns the seq of the probe they all saw.
 */
export async function prime(svc: MemoryService, feeds: readonly Feed[], label = 'probe'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const probe = svc.memoryStore({ text: `${label} ${attempt} ${Math.random().toString(36).slice(2)}`, tags: ['probe'] }).fact;
    const start = Date.now();
    while (Date.now() - start < 200) {
      const seen = feeds.map((f) => f.events.find((e) => e.factId === probe.id));
      if (seen.every((e) => e !== undefined)) return Math.max(...seen.map((e) => e?.seq ?? 0));
      await sleep(10);
    }
  }
  throw new Error(`feeds never went live: ${feeds.map((f) => `${f.name} errors=${JSON.stringify(f.errors)}`).join('; ')}`);
}

/** sha256 over every table a user could notice changing. */
export function checksum(svc: MemoryService): string {
  const tables = ['facts', 'links', 'events', 'conflicts', 'recall_events', 'episodes', 'vault'];
  const dump = tables.map((t) => svc.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());
  return createHash('sha256').update(JSON.stringify(dump)).digest('hex');
}

export interface Clock {
  now: number;
  advance(ms: number): void;
}

export interface ClockedDashboard {
  readonly home: TestHome;
  readonly svc: MemoryService;
  readonly server: Dashboard;
  readonly url: string;
  readonly clock: Clock;
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlResponse<T>>;
  close(): Promise<void>;
}

/** Like startTestDashboard, but the service runs on a clock the test moves (decay, expiry, weak links). */
export async function startClockedDashboard(adapter: AdapterName, userConfig: Record<string, unknown> = {}, start = Date.now()): Promise<ClockedDashboard> {
  const home = tempHome({ ...userConfig, embedding: { enabled: false } });
  const clock: Clock = {
    now: start,
    advance(ms: number) {
      this.now += ms;
    },
  };
  const svc = MemoryService.open({ config: home.config, env: home.env, now: () => clock.now, pollMs: 50 });
  const server = await startDashboard({ svc, config: home.config, port: 0, server: adapter, record: false });
  return {
    home,
    svc,
    server,
    url: server.url,
    clock,
    gql: (query, variables, headers) => postGql(server.url, query, variables, headers),
    async close() {
      await server.close();
      await svc.close();
      home.cleanup();
    },
  };
}
