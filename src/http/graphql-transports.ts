/**
 * GraphQL over HTTP (graphql-http's handler) and over SSE (graphql-sse's handler, distinct-connections
 * mode), both fed by OperationPreparer so parsing, validation, limits and the token gate are the same
 * code on every transport. WebSocket (graphql-ws) lives in ws.ts.
 */
import type { ExecutionResult } from 'graphql';
import { createHandler as createHttpHandler, type Request as GhRequest } from 'graphql-http';
import { createHandler as createSseHandler, type Request as SseRequest } from 'graphql-sse';
import type { GqlContext } from './graphql/context.js';
import { COST_LIMITS } from './graphql/cost.js';
import { codedError, formatError } from './graphql/errors.js';
import type { OperationPreparer, TokenState } from './graphql/operation.js';
import { BASE_HEADERS, type HttpHeaders, type HttpResponse } from './types.js';

/** What a transport needs from the request beyond the GraphQL params. */
export interface RequestState {
  readonly context: GqlContext;
  readonly token: TokenState;
}

export interface NeutralRequest {
  readonly method: string;
  readonly url: string;
  readonly header: (name: string) => string | null;
  readonly body: string | null;
}

const errorBody = (errors: readonly unknown[]): string => JSON.stringify({ errors: errors.map((e) => formatError(e)) });

/** The request shape graphql-http and graphql-sse share. */
const libRequest = (req: NeutralRequest, state: RequestState): GhRequest<NeutralRequest, RequestState> & SseRequest<NeutralRequest, RequestState> => ({
  method: req.method,
  url: req.url,
  headers: { get: (k: string) => req.header(k.toLowerCase()) },
  body: req.body,
  raw: req,
  context: state,
});

export function createGraphqlHttp(preparer: OperationPreparer) {
  const handler = createHttpHandler<NeutralRequest, RequestState, GqlContext>({
    schema: preparer.schema,
    formatError,
    onSubscribe: (req, params) => {
      const prepared = preparer.prepare(params, req.context.context, req.context.token, req.method);
      if (prepared.ok) return prepared.args;
      if (prepared.status === undefined) return [...prepared.errors];
      return [errorBody(prepared.errors), { status: prepared.status, statusText: '', headers: { 'content-type': 'application/json; charset=utf-8' } }];
    },
  });
  return async (req: NeutralRequest, state: RequestState): Promise<HttpResponse> => {
    const [body, init] = await handler(libRequest(req, state));
    const headers = { ...BASE_HEADERS, ...cleanHeaders(init.headers) };
    // graphql-http answers a few refusals (406 for an Accept it cannot serve, 415) without a body: give them ours.
    if (!body && init.status >= 400) {
      const message = init.status === 406 ? 'the client must accept application/json or application/graphql-response+json' : `${init.statusText || 'refused'}`;
      return { status: init.status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: errorBody([codedError(init.status === 415 ? 'MEM_ERR_CONTENT_TYPE' : 'MEM_ERR_BAD_REQUEST', message)]) };
    }
    return { status: init.status, headers, body: body ?? '' };
  };
}

export function createGraphqlSse(preparer: OperationPreparer) {
  const handler = createSseHandler<NeutralRequest, RequestState, GqlContext>({
    schema: preparer.schema,
    onSubscribe: (req, params) => {
      // Over SSE everything runs on the server's thread: the small budget.
      const prepared = preparer.prepare(params, req.context.context, req.context.token, req.method, COST_LIMITS.inline);
      if (prepared.ok) return prepared.args;
      const errors = prepared.errors.map((e) => formatError(e));
      if (prepared.status === undefined) return { errors } as ExecutionResult;
      return [errorBody(errors), { status: prepared.status, statusText: '', headers: { 'content-type': 'application/json; charset=utf-8' } }];
    },
    onNext: (_ctx, req, result) => {
      // Called once per `next` message, right after the event it carries was resolved: note its seq for the SSE id.
      sentSeqs(req.context.context).push(req.context.context.lastSentSeq);
      return result.errors ? { ...result, errors: result.errors.map((e) => formatError(e)) } : undefined;
    },
  });
  return async (req: NeutralRequest, state: RequestState): Promise<HttpResponse> => {
    const [body, init] = await handler(libRequest(req, state));
    const headers = { ...BASE_HEADERS, ...cleanHeaders(init.headers) };
    if (body === null || typeof body === 'string') return { status: init.status, headers, body: body ?? '' };
    return { status: init.status, headers: { ...headers, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }, stream: withEventIds(body, state.context) };
  }
}

/**
 * The seq of each `next` message not yet written, oldest first. graphql-sse resolves events ahead of the
 * writer (a burst queues several messages), so `ctx.lastSentSeq` at write time may already name a later
 * event: each message takes the seq noted when it was resolved.
 */
const pendingSeqs = new WeakMap<GqlContext, (number | undefined)[]>();
function sentSeqs(ctx: GqlContext): (number | undefined)[] {
  let q = pendingSeqs.get(ctx);
  if (!q) pendingSeqs.set(ctx, (q = []));
  return q;
}

/**
 * Each `next` message gets `id: <seq>` so an EventSource-style client can resume with Last-Event-ID.
 * Not an async generator: a generator's return() waits behind its pending next() (here: until the next
 * event or graphql-sse's 12 s ping), so closing the server or a client going away would not end the stream
 * promptly. return() goes straight to graphql-sse's stream, which ends at once and unsubscribes.
 */
function withEventIds(stream: AsyncGenerator<string, void, undefined>, ctx: GqlContext): AsyncGenerator<string, void, undefined> {
  const seqs = sentSeqs(ctx);
  let failed = false;
  const out: AsyncGenerator<string, void, undefined> = {
    async next() {
      if (failed) return { done: true, value: undefined };
      let r: IteratorResult<string, void>;
      try {
        r = await stream.next();
      } catch (err) {
        // The event source failed (e.g. MEM_ERR_SUBSCRIBER_BEHIND): tell the client with a coded error, then complete.
        failed = true;
        return { done: false, value: `event: next\ndata: ${errorBody([err])}\n\nevent: complete\ndata:\n\n` };
      }
      if (r.done || !r.value.startsWith('event: next')) return r;
      const seq = seqs.shift();
      return { done: false, value: seq === undefined ? r.value : `id: ${seq}\n${r.value}` };
    },
    return: (value) => stream.return(value),
    throw: (err) => stream.throw(err),
    [Symbol.asyncIterator]: () => out,
  };
  return out;
}

/** The libraries' headers minus hop-by-hop ones the adapter sets itself. */
function cleanHeaders(h: Readonly<Record<string, string | undefined>> | undefined): HttpHeaders {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    const key = k.toLowerCase();
    if (v === undefined || key === 'connection' || key === 'content-encoding' || key === 'content-length' || key === 'transfer-encoding') continue;
    out[key] = v;
  }
  return out;
}
