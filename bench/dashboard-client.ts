/**
 * The dashboard bench's client side (bench/dashboard.bench.ts), run as a child process so that it never
 * shares the server's event loop. It takes one command at a time over IPC and answers with its figures:
 *
 *   load: N keep-alive connections (raw sockets, one request in flight on each, no pipelining) POST the
 *         same prebuilt request for warm-up + duration; only requests completed inside the measured window
 *         count. Responses are framed by Content-Length (both adapters send it); each connection checks
 *         its first measured body for the expected text.
 *   sse:  `subscribers` SSE subscriptions (raw sockets, accept: text/event-stream), then `mutations`
 *         createFact POSTs (node:http, one keep-alive connection) one at a time, `spacingMs` apart. Every
 *         chunk is stamped as it reaches the client (the 'data' callback only stamps and keeps it; parsing
 *         waits until the end), each event is matched to its mutation by factId; send and receive times
 *         share this process's clock.
 *
 * Traffic goes to 127.0.0.1 only; every phase is bounded in count and in time.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { latencyStats, type Command, type LoadCommand, type LoadResult, type Reply, type SseCommand, type SseResult } from './dashboard-protocol.js';

const HOST = '127.0.0.1';
const HEADER_END = Buffer.from('\r\n\r\n');

// ---------------------------------------------------------------------------------------------------
// load

function oneConnection(c: LoadCommand, req: Buffer, measureFrom: number, stopAt: number, into: { lat: number[]; bytes: number; all: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock: Socket = connect(c.port, HOST);
    sock.setNoDelay(true);
    let chunks: Buffer[] = [];
    let have = 0;
    /** Header length + body length of the response being read, once its head is in. */
    let total = -1;
    let sentAt = 0;
    let checked = false;
    const send = (): void => {
      sentAt = performance.now();
      sock.write(req);
    };
    const fail = (err: Error): void => {
      sock.destroy();
      reject(err);
    };
    sock.on('connect', send);
    sock.on('error', fail);
    sock.on('close', () => reject(new Error('the server closed a keep-alive connection')));
    sock.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      have += chunk.length;
      if (total < 0) {
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const end = head.indexOf(HEADER_END);
        if (end < 0) return;
        const text = head.toString('latin1', 0, end);
        const status = Number(text.slice(9, 12));
        const len = /\r\ncontent-length:\s*(\d+)/i.exec(text);
        if (status !== 200) return fail(new Error(`HTTP ${status}: ${head.toString('utf8', 0, Math.min(head.length, 400))}`));
        if (!len) return fail(new Error(`no content-length in the response: ${text}`));
        total = end + 4 + Number(len[1]);
      }
      if (have < total) return;
      if (have > total) return fail(new Error('more bytes than one response (the client does not pipeline)'));
      const now = performance.now();
      into.all++;
      if (now >= measureFrom) {
        into.lat.push(now - sentAt);
        if (!checked) {
          checked = true;
          const all = Buffer.concat(chunks);
          const body = all.toString('utf8', all.indexOf(HEADER_END) + 4);
          if (!body.includes(c.expect) || body.includes('"errors"')) return fail(new Error(`unexpected body: ${body.slice(0, 300)}`));
          into.bytes = all.length;
        }
      }
      chunks = [];
      have = 0;
      total = -1;
      if (now >= stopAt) {
        sock.removeAllListeners('close');
        sock.end();
        resolve();
      } else send();
    });
  });
}

async function load(c: LoadCommand): Promise<LoadResult> {
  const req = Buffer.from(
    `POST /graphql HTTP/1.1\r\nhost: ${HOST}:${c.port}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(c.body)}\r\n\r\n${c.body}`,
  );
  const start = performance.now();
  const measureFrom = start + c.warmupMs;
  const stopAt = measureFrom + c.durationMs;
  const into = { lat: [] as number[], bytes: 0, all: 0 };
  const guard = setTimeout(() => process.exit(3), c.warmupMs + c.durationMs + 30_000);
  await Promise.all(Array.from({ length: c.connections }, () => oneConnection(c, req, measureFrom, stopAt, into)));
  clearTimeout(guard);
  // Requests sent before stopAt finish after it: the window runs to the last completion.
  const seconds = (performance.now() - measureFrom) / 1000;
  return { completed: into.lat.length, seconds, rps: into.lat.length / seconds, latency: latencyStats(into.lat), responseBytes: into.bytes, samples: into.lat, allCompleted: into.all };
}

// ---------------------------------------------------------------------------------------------------
// sse

const SUBSCRIPTION = JSON.stringify({ query: 'subscription { memoryActivity(kinds: [FACT_STORED]) { seq at kind factId } }' });
const CREATE = 'mutation($t: String!) { createFact(input: { text: $t, category: fact, tags: ["bench"] }) { id } }';

interface Delivery {
  readonly factId: string;
  readonly at: number;
}

/**
 * One SSE subscription over a raw socket. The 'data' callback only stamps and keeps the bytes, so the
 * client's own work does not delay the stamps of the subscribers read after it; parsing happens later.
 */
class Subscriber {
  readonly deliveries: Delivery[] = [];
  opened = false;
  error: Error | null = null;
  private readonly raw: { at: number; bytes: Buffer }[] = [];
  private pending = '';
  private readonly sock: Socket;
  private closing = false;

  constructor(port: number) {
    const req = `POST /graphql HTTP/1.1\r\nhost: ${HOST}:${port}\r\ncontent-type: application/json\r\naccept: text/event-stream\r\ncontent-length: ${Buffer.byteLength(SUBSCRIPTION)}\r\n\r\n${SUBSCRIPTION}`;
    this.sock = connect(port, HOST);
    this.sock.setNoDelay(true);
    this.sock.on('connect', () => this.sock.write(req));
    this.sock.on('data', (bytes: Buffer) => {
      this.raw.push({ at: performance.now(), bytes });
    });
    this.sock.on('error', (err) => (this.error ??= err));
    this.sock.on('close', () => {
      if (!this.closing) this.error ??= new Error('the server ended an SSE stream');
    });
  }

  /** Turn the bytes read so far into deliveries, each stamped with the chunk that completed it. */
  parse(): void {
    for (const { at, bytes } of this.raw.splice(0)) {
      // ASCII only (ids, numbers, kind names); HTTP chunk-size lines fall between events and are skipped.
      this.pending += bytes.toString('latin1');
      if (!this.opened) {
        const end = this.pending.indexOf('\r\n\r\n');
        if (end < 0) continue;
        const status = Number(this.pending.slice(9, 12));
        if (status !== 200) {
          this.error ??= new Error(`SSE subscribe: HTTP ${status}: ${this.pending.slice(0, 300)}`);
          return;
        }
        this.opened = true;
        this.pending = this.pending.slice(end + 4);
      }
      let cut: number;
      while ((cut = this.pending.indexOf('\n\n')) >= 0) {
        const message = this.pending.slice(0, cut);
        this.pending = this.pending.slice(cut + 2);
        for (const line of message.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          const e = (JSON.parse(data) as { data?: { memoryActivity?: { factId?: string; kind?: string } } }).data?.memoryActivity;
          if (!e?.factId || e.kind !== 'FACT_STORED') {
            this.error ??= new Error(`unexpected SSE data: ${data.slice(0, 300)}`);
            return;
          }
          this.deliveries.push({ factId: e.factId, at });
        }
      }
    }
  }

  close(): void {
    this.closing = true;
    this.sock.destroy();
  }
}

function post(port: number, agent: Agent, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, path: '/graphql', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

async function sse(c: SseCommand): Promise<SseResult> {
  const mutAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const t0 = performance.now();
  const subs = Array.from({ length: c.subscribers }, () => new Subscriber(c.port));
  const check = (): void => {
    const err = subs.find((s) => s.error)?.error;
    if (err) throw err;
  };
  const parsed = (): Subscriber[] => {
    for (const s of subs) s.parse();
    check();
    return subs;
  };
  try {
    await waitFor(() => parsed().every((s) => s.opened), 10_000, 'the SSE streams to open');
    const openMs = performance.now() - t0;
    const sentAt = new Map<string, { t: number; rtt: number; responded: number }>();
    const createOne = async (i: number, record: boolean): Promise<string> => {
      const body = JSON.stringify({ query: CREATE, variables: { t: `dashboard bench event ${i} ${Date.now()} ${Math.random()}` } });
      const t = performance.now();
      const r = await post(c.port, mutAgent, body);
      const done = performance.now();
      if (r.status !== 200) throw new Error(`createFact: HTTP ${r.status} ${r.text.slice(0, 300)}`);
      const id = (JSON.parse(r.text) as { data?: { createFact?: { id?: string } } }).data?.createFact?.id;
      if (!id) throw new Error(`createFact: ${r.text.slice(0, 300)}`);
      if (record) sentAt.set(id, { t, rtt: done - t, responded: done });
      return id;
    };
    // Warm-up mutations: until every subscriber has seen one, the subscriptions may not be registered yet.
    for (let i = 0; i < c.warmupMutations; i++) {
      const id = await createOne(-1 - i, false);
      await waitFor(() => parsed().every((s) => s.deliveries.some((x) => x.factId === id)), 5_000, 'a warm-up event to reach every subscriber');
    }
    for (const s of parsed()) s.deliveries.length = 0;
    for (let i = 0; i < c.mutations; i++) {
      const started = performance.now();
      await createOne(i, true);
      check();
      await sleep(c.spacingMs - (performance.now() - started));
    }
    const expected = c.mutations * c.subscribers;
    await waitFor(() => parsed().reduce((k, s) => k + s.deliveries.length, 0) >= expected, 5_000, 'the last events').catch((err: unknown) => {
      check();
      throw err;
    });
    const delivery: number[] = [];
    const last = new Map<string, number>();
    let before = 0;
    let missing = expected;
    for (const s of subs) {
      for (const x of s.deliveries) {
        const m = sentAt.get(x.factId);
        if (!m) continue;
        missing--;
        const ms = x.at - m.t;
        delivery.push(ms);
        if (x.at < m.responded) before++;
        last.set(x.factId, Math.max(last.get(x.factId) ?? 0, ms));
      }
    }
    return {
      subscribers: c.subscribers,
      mutations: sentAt.size,
      delivery: latencyStats(delivery),
      lastSubscriber: latencyStats([...last.values()]),
      roundTrip: latencyStats([...sentAt.values()].map((s) => s.rtt)),
      beforeResponse: before,
      missing,
      openMs,
    };
  } finally {
    for (const s of subs) s.close();
    mutAgent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------

const reply = (r: Reply): void => {
  process.send?.(r);
};

process.on('message', (msg: Command) => {
  if (msg.kind === 'exit') {
    process.disconnect?.();
    return;
  }
  (msg.kind === 'load' ? load(msg) : sse(msg)).then(
    (result) => reply({ ok: true, result }),
    (err: unknown) => reply({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
reply({ ok: true, result: null });
