/**
 * The uWebSockets.js adapter (the fast path). Its rules, each of which crashed a trial run here: attach
 * onAborted before any await; copy method, url, query and headers synchronously (req is dead after the
 * first await); copy onData chunks (the buffer is detached after the callback); write inside cork; never
 * touch res after abort; never let a handler throw synchronously (it kills the process).
 */
import { STATUS_CODES } from 'node:http';
import { makeBehavior, type Extra as UwsExtra } from 'graphql-ws/use/uWebSockets';
import type * as UwsModule from 'uWebSockets.js';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { MemoryError } from '../../core/errors.js';
import { QUERY_LIMITS } from '../graphql/limits.js';
import { isStream, type HttpRequest, type HttpResponse } from '../types.js';
import { repeatedHeaders } from '../security.js';
import { refusalBody, type AdapterDeps, type Listen, type RunningAdapter } from './types.js';

type Uws = typeof UwsModule;

/** ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT (the addon exports the enum only as a type). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

const statusLine = (status: number): string => `${status} ${STATUS_CODES[status] ?? ''}`;

interface Copied {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Map<string, string>;
  readonly hostCount: number;
  readonly repeated: readonly string[];
}

function copy(req: UwsRequest): Copied {
  const headers = new Map<string, string>();
  const names: string[] = [];
  let hostCount = 0;
  req.forEach((k, v) => {
    if (k === 'host') hostCount++;
    names.push(k);
    if (!headers.has(k)) headers.set(k, v);
  });
  return { method: req.getMethod().toUpperCase(), path: req.getUrl(), query: req.getQuery() ?? '', headers, hostCount, repeated: repeatedHeaders(names) };
}

/** Buffers the body as it arrives (onData must be attached synchronously), up to the largest limit we accept. */
function readBody(res: UwsResponse): (limit: number) => Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const done = new Promise<Buffer>((resolve) => {
    res.onData((ab, isLast) => {
      if (!overflow) {
        size += ab.byteLength;
        if (size > QUERY_LIMITS.maxBodyBytes) overflow = true;
        else chunks.push(Buffer.from(ab.slice(0)));
      }
      // Resolve outside this uWS callback: while it runs uWS keeps this socket corked, and the request's whole
      // handler would run in the microtasks drained before uWS returns, where cork() on any other socket is a
      // no-op (one corked socket per loop): each SSE event a mutation fans out went as 4 unbuffered sends.
      if (isLast) setImmediate(resolve, Buffer.concat(chunks));
    });
  });
  return async (limit) => {
    const body = await done;
    if (overflow || body.length > limit) throw new MemoryError('MEM_ERR_BODY_TOO_LARGE', `the request body is over ${limit} bytes`);
    return body;
  };
}

function writeHead(res: UwsResponse, r: HttpResponse): void {
  res.writeStatus(statusLine(r.status));
  for (const [k, v] of Object.entries(r.headers)) res.writeHeader(k, v);
}

interface ResponseState {
  aborted: boolean;
  /** Status and headers written: a failure can no longer become a 500, only an end. */
  started: boolean;
  ended: boolean;
  stream: AsyncGenerator<string, void, undefined> | null;
}

/** A failure after the handler: a 500 when nothing was sent yet, else just end what was started. Never throws. */
function fail(res: UwsResponse, state: ResponseState): void {
  if (state.aborted || state.ended) return;
  state.ended = true;
  try {
    res.cork(() => (state.started ? res.end() : res.writeStatus('500 Internal Server Error').end()));
  } catch {
    // the socket is already gone
  }
}

async function respond(res: UwsResponse, r: HttpResponse, state: ResponseState, streams: Set<AsyncGenerator<string, void, undefined>>): Promise<void> {
  if (state.aborted) {
    if (isStream(r)) await r.stream.return(undefined);
    return;
  }
  if (!isStream(r)) {
    state.started = state.ended = true;
    res.cork(() => {
      writeHead(res, r);
      res.end(r.body);
    });
    return;
  }
  state.stream = r.stream;
  streams.add(r.stream);
  state.started = true;
  res.cork(() => {
    writeHead(res, r);
    res.write(':\n\n'); // flush the headers now: the client sees the stream open
  });
  try {
    for await (const chunk of r.stream) {
      if (state.aborted) break;
      res.cork(() => res.write(chunk));
    }
  } finally {
    streams.delete(r.stream);
    if (!state.aborted && !state.ended) {
      state.ended = true;
      res.cork(() => res.end());
    }
  }
}

export function makeUwsListen(uws: Uws): Listen {
  return async (deps: AdapterDeps, port: number, host: string): Promise<RunningAdapter> => {
    const app: TemplatedApp = uws.App();
    const streams = new Set<AsyncGenerator<string, void, undefined>>();
    const behavior = makeBehavior(deps.wsOptions<UwsExtra>((extra, name) => {
      const v = extra.persistedRequest.headers[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    }), { maxPayloadLength: 1 << 20, idleTimeout: 120 });
    const upgrade = behavior.upgrade;
    app.ws('/graphql', {
      ...behavior,
      upgrade: (res, req, context) => {
        const c = copy(req);
        const refused = deps.checkUpgrade({ host: c.headers.get('host') ?? null, hostCount: c.hostCount, origin: c.headers.get('origin') ?? null, repeated: c.repeated });
        if (refused) {
          res.cork(() => res.writeStatus(statusLine(refused.status)).writeHeader('content-type', 'application/json').end(refusalBody(refused)));
          return;
        }
        upgrade?.(res, req, context);
      },
    });
    app.any('/*', (res, req) => {
      const state: ResponseState = { aborted: false, started: false, ended: false, stream: null };
      res.onAborted(() => {
        state.aborted = true;
        void state.stream?.return(undefined);
      });
      try {
        const c = copy(req);
        const body = c.method === 'POST' || c.method === 'PUT' ? readBody(res) : () => Promise.resolve(Buffer.alloc(0));
        const request: HttpRequest = { method: c.method, path: c.path, query: c.query, header: (n) => c.headers.get(n) ?? null, hostCount: c.hostCount, repeated: c.repeated, body };
        deps
          .handle(request)
          .then((r) => respond(res, r, state, streams))
          .catch(() => fail(res, state));
      } catch {
        fail(res, state);
      }
    });
    // Exclusive: uSockets otherwise sets SO_REUSEPORT on a fixed port, and a second server would share
    // 7700 with the first (the kernel splitting requests between two databases) instead of falling back.
    // The addon takes (host, port, options, cb) although its typings list only (port, options, cb).
    const listen = app.listen.bind(app) as unknown as (h: string, p: number, options: number, cb: (t: us_listen_socket | false) => void) => void;
    const listenOn = (p: number): Promise<us_listen_socket | false> => new Promise((resolve) => listen(host, p, LIBUS_LISTEN_EXCLUSIVE_PORT, resolve));
    let token = await listenOn(port);
    if (!token && port !== 0) token = await listenOn(0);
    if (!token) throw new Error(`cannot listen on ${host}:${port}`);
    const listenSocket = token;
    return {
      name: 'uws',
      port: uws.us_socket_local_port(listenSocket),
      close: async () => {
        uws.us_listen_socket_close(listenSocket);
        await Promise.allSettled([...streams].map((s) => s.return(undefined)));
        app.close();
      },
    };
  };
}
