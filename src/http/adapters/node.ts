/**
 * The node:http adapter: used where the uWebSockets.js binary cannot load (e.g. Node 24) or when asked
 * for. WebSockets through `ws` + graphql-ws's use/ws; Host and Origin are checked before an upgrade.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { MemoryError } from '../../core/errors.js';
import { isStream, type HttpRequest, type HttpResponse } from '../types.js';
import { repeatedHeaders } from '../security.js';
import { refusalBody, type AdapterDeps, type Listen, type RunningAdapter } from './types.js';

const first = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

function countHost(raw: readonly string[]): number {
  let n = 0;
  for (let k = 0; k < raw.length; k += 2) if (raw[k]?.toLowerCase() === 'host') n++;
  return n;
}

/** How long a request may take to arrive, headers and body (uWebSockets.js: ~10 s idle). */
const REQUEST_MS = 10_000;

function toRequest(req: IncomingMessage): HttpRequest {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    header: (name) => first(req.headers[name]),
    hostCount: countHost(req.rawHeaders),
    repeated: repeatedHeaders(req.rawHeaders.filter((_, i) => i % 2 === 0)),
    body: (limit) =>
      new Promise<Buffer>((resolve, reject) => {
        const declared = Number(req.headers['content-length'] ?? 0);
        const tooLarge = (): MemoryError => new MemoryError('MEM_ERR_BODY_TOO_LARGE', `the request body is over ${limit} bytes`);
        if (declared > limit) return reject(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        // A body that trickles in is cut off at the same deadline as the head.
        const late = setTimeout(() => {
          reject(new MemoryError('MEM_ERR_BAD_REQUEST', `the request body did not arrive within ${REQUEST_MS / 1000} s`));
          req.socket.destroy();
        }, REQUEST_MS).unref();
        req.once('close', () => clearTimeout(late));
        req.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limit) {
            req.removeAllListeners('data');
            req.resume();
            reject(tooLarge());
          } else chunks.push(c);
        });
        req.on('end', () => {
          clearTimeout(late);
          resolve(Buffer.concat(chunks));
        });
        req.on('error', reject);
      }),
  };
}

async function send(res: ServerResponse, r: HttpResponse, streams: Set<AsyncGenerator<string, void, undefined>>): Promise<void> {
  if (!isStream(r)) {
    res.writeHead(r.status, { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) });
    res.end(r.body);
    return;
  }
  res.writeHead(r.status, r.headers);
  res.flushHeaders();
  const stream = r.stream;
  streams.add(stream);
  res.on('close', () => void stream.return(undefined));
  try {
    for await (const chunk of stream) {
      if (res.destroyed) break;
      res.write(chunk);
    }
  } finally {
    streams.delete(stream);
    res.end();
  }
}

export const listenNode: Listen = async (deps: AdapterDeps, port: number, host: string): Promise<RunningAdapter> => {
  const streams = new Set<AsyncGenerator<string, void, undefined>>();
  // A request must arrive whole within 10 s of the connection (or of the answer before it, on a kept-alive
  // one), as uWebSockets.js closes an idle socket after ~10 s: a client that sends half a request and waits
  // holds no connection longer. (node:http's own headersTimeout/requestTimeout stop firing once
  // uWebSockets.js runs in the same process, so the adapter keeps its own timer per socket.)
  const pending = new WeakMap<Duplex, NodeJS.Timeout>();
  const arm = (socket: Duplex): void => {
    clearTimeout(pending.get(socket));
    pending.set(socket, setTimeout(() => socket.destroy(), REQUEST_MS).unref());
  };
  const disarm = (socket: Duplex): void => clearTimeout(pending.get(socket));
  const server = createServer({ requestTimeout: REQUEST_MS, headersTimeout: REQUEST_MS }, (req, res) => {
    // The head is in (a body has its own deadline, in toRequest); the next request must come within the window after this answer.
    disarm(req.socket);
    res.once('finish', () => arm(req.socket));
    deps.handle(toRequest(req)).then(
      (r) => send(res, r, streams),
      () => {
        res.writeHead(500).end();
      },
    ).catch(() => res.destroy());
  });
  server.on('connection', (socket: Duplex) => {
    arm(socket);
    socket.once('close', () => disarm(socket));
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  const gqlWs = useServer(
    deps.wsOptions<{ request: IncomingMessage }>((extra, name) => first(extra.request.headers[name])),
    wss,
  );
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    disarm(socket);
    const path = (req.url ?? '').split('?')[0];
    const refused =
      path === '/graphql'
        ? deps.checkUpgrade({ host: first(req.headers.host), hostCount: countHost(req.rawHeaders), origin: first(req.headers.origin), repeated: repeatedHeaders(req.rawHeaders.filter((_, i) => i % 2 === 0)) })
        : { code: 'MEM_ERR_NOT_FOUND' as const, status: 404, message: 'WebSockets are served on /graphql only' };
    if (refused) {
      const body = refusalBody(refused);
      socket.end(`HTTP/1.1 ${refused.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const bound = await new Promise<number>((resolve, reject) => {
    const tryListen = (p: number, fallback: boolean): void => {
      const onError = (err: NodeJS.ErrnoException): void => {
        if (fallback && err.code === 'EADDRINUSE') tryListen(0, false);
        else reject(err);
      };
      server.once('error', onError);
      server.listen(p, host, () => {
        server.off('error', onError);
        const addr = server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : p);
      });
    };
    tryListen(port, port !== 0);
  });
  return {
    name: 'node',
    port: bound,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...streams].map((s) => s.return(undefined)));
      await gqlWs.dispose();
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await closed;
    },
  };
};
