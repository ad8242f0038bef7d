/**
 * A raw HTTP/1.1 client over node:net, for requests fetch refuses to send: a chosen or missing Host,
 * repeated headers, undecoded paths (`/graph/../x`, `%c0%ae`, backslashes, `#`), WebSocket upgrades.
 * It resolves once a whole response has arrived (Content-Length, chunked, or close), right after the
 * head for 101 and event streams, and rejects on timeout: a server that does not answer fails the test.
 */
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Lower-case names, in arrival order (repeats kept). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
  /** Everything received, head included: what a leak search looks at. */
  readonly raw: string;
  header(name: string): string | null;
  json<T = { errors?: { message: string; extensions?: { code?: string } }[] }>(): T;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  /** The Host header: default `127.0.0.1:<port>`; null sends none; an array sends each. */
  readonly host?: string | null | readonly string[];
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string | Buffer;
  /** Default 'HTTP/1.1'. */
  readonly version?: string;
  /** Keep the connection (upgrades); default adds `connection: close`. */
  readonly keepAlive?: boolean;
}

/** The request's bytes, exactly as given. */
export function buildRequest(port: number, r: RawRequest): Buffer {
  const lines = [`${r.method ?? 'GET'} ${r.path} ${r.version ?? 'HTTP/1.1'}`];
  const hosts = r.host === undefined ? [`127.0.0.1:${port}`] : r.host === null ? [] : typeof r.host === 'string' ? [r.host] : r.host;
  for (const h of hosts) lines.push(`Host: ${h}`);
  for (const [k, v] of r.headers ?? []) lines.push(`${k}: ${v}`);
  const body = r.body === undefined ? null : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, 'utf8');
  const named = (n: string): boolean => (r.headers ?? []).some(([k]) => k.toLowerCase() === n);
  if (body && !named('content-length') && !named('transfer-encoding')) lines.push(`Content-Length: ${body.length}`);
  if (!r.keepAlive && !named('connection')) lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
}

function parse(buf: Buffer): { done: boolean; res: RawResponse } | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(head[0] ?? '')?.[1] ?? NaN);
  const headers = head.slice(1).map((l): [string, string] => {
    const i = l.indexOf(':');
    return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()];
  });
  const get = (n: string): string | null => headers.find(([k]) => k === n)?.[1] ?? null;
  let rest = buf.subarray(end + 4);
  let done = false;
  const length = get('content-length');
  if (status === 101 || (get('content-type') ?? '').startsWith('text/event-stream')) done = true;
  else if (length !== null) {
    done = rest.length >= Number(length);
    rest = rest.subarray(0, Number(length));
  } else if ((get('transfer-encoding') ?? '').toLowerCase() === 'chunked') {
    const chunks: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = rest.indexOf('\r\n', at);
      if (eol < 0) break;
      const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
      if (size === 0) {
        done = true;
        break;
      }
      if (rest.length < eol + 2 + size + 2) break;
      chunks.push(rest.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    rest = Buffer.concat(chunks);
  }
  const body = rest.toString('utf8');
  return {
    done,
    res: {
      status,
      headers,
      body,
      raw: buf.toString('utf8'),
      header: get,
      json: <T>() => JSON.parse(body) as T,
    },
  };
}

/** Sends one request on a fresh connection and reads one response. */
export function rawRequest(port: number, r: RawRequest | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  const bytes = Buffer.isBuffer(r) ? r : buildRequest(port, r);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (err: Error | null, res?: RawResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err || !res) reject(err ?? new Error('no response'));
      else resolve(res);
    };
    const timer = setTimeout(() => finish(new Error(`no complete response within ${timeoutMs} ms to ${bytes.toString('latin1').split('\r\n')[0] ?? ''}`)), timeoutMs);
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const p = parse(buf);
      if (p?.done) finish(null, p.res);
    });
    socket.on('close', () => {
      const p = parse(buf);
      finish(p ? null : new Error(`connection closed without a response (${buf.length} bytes)`), p?.res);
    });
    socket.on('error', (e) => {
      const p = parse(buf);
      finish(p ? null : e, p?.res);
    });
    socket.write(bytes);
  });
}

/** The headers of a WebSocket upgrade to /graphql (graphql-ws subprotocol). */
export const WS_UPGRADE: readonly (readonly [string, string])[] = [
  ['Upgrade', 'websocket'],
  ['Connection', 'Upgrade'],
  ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
  ['Sec-WebSocket-Version', '13'],
  ['Sec-WebSocket-Protocol', 'graphql-transport-ws'],
];
