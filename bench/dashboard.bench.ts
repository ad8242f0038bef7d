/**
 * Dashboard server (src/http): the uWebSockets.js adapter against the node:http adapter (the baseline),
 * both serving the same MemoryService in the same run, on a temp database of 1000 facts and 1500 links
 * (full text only: embedding disabled), with WAL checkpoints off the request path as `serve` runs it.
 *
 *  1. Requests/s of POST /graphql: `{ stats { totalFacts } }` (goal: uWS/node >= 2x), the dashboard's graph
 *     load (`graph(filter: { limit: 1000 })`, nodes and edges; reported), and `{ __typename }` (no resolver:
 *     the floor of the GraphQL path, where the transport shows most). 16 keep-alive connections, one request
 *     in flight on each, 1 s warm-up + 5 s per case, from a client in a child process
 *     (bench/dashboard-client.ts, raw sockets), so the load generator never runs on the server's event loop.
 *     Also a bare server of each transport answering the same bytes as stats and as graph (no routing, no
 *     GraphQL): the transport's ceiling, and proof that the client is not the bottleneck. Cases rotate
 *     over rounds. Then where a request's server time goes, in-process (tinybench): the store read
 *     (svc.stats / svc.graph), GraphQL execute (resolvers included), JSON.stringify of the result, the whole
 *     transport-neutral handler (router + graphql-http); 1/(req/s) minus the handler is the transport.
 *  2. Mutation-to-subscriber latency: 100 SSE subscriptions to memoryActivity(kinds: [FACT_STORED]), then
 *     300 createFact mutations 20 ms apart; for every (subscriber, mutation) the time from sending the
 *     mutation to the event reaching that subscriber (the client process's clock at both ends). Goal:
 *     p99 < 10 ms. Also the mutation's own round trip, and on the server thread the store write and the
 *     time until the response and every event were written.
 *
 * Only 127.0.0.1; every phase bounded in count and time. On a shared machine the figures move with the
 * load average (printed at start and end).
 * Run: npm run bench -- dashboard   (or node --import tsx bench/dashboard.bench.ts)
 *   DASHBOARD_BENCH_SECONDS (5), DASHBOARD_BENCH_ROUNDS (2), DASHBOARD_BENCH_CONNECTIONS (16),
 *   DASHBOARD_BENCH_SUBSCRIBERS (100), DASHBOARD_BENCH_MUTATIONS (300), DASHBOARD_BENCH_PARTS (load,breakdown,sse).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execute, type ExecutionResult } from 'graphql';
import { Bench } from 'tinybench';
import type * as UwsModule from 'uWebSockets.js';
import { maintenanceService } from '../src/cli/commands/serve.js';
import { resolveConfig } from '../src/config/resolve.js';
import type { FactId } from '../src/core/ids.js';
import { OPERATOR, type Category, type LinkType } from '../src/core/types.js';
import type { AdapterName } from '../src/http/adapters/types.js';
import { OperationPreparer } from '../src/http/graphql/operation.js';
import { createSchema } from '../src/http/graphql/schema.js';
import { createRouter } from '../src/http/router.js';
import { TokenCheck } from '../src/http/security.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { BASE_HEADERS, isStream, type HttpRequest } from '../src/http/types.js';
import { MemoryService } from '../src/memory/service.js';
import { mulberry32 } from '../test/support/prng.js';
import { latencyStats, type Command, type LoadCommand, type LoadResult, type Reply, type SseCommand, type SseResult } from './dashboard-protocol.js';
import type { LatencyStats } from './stats.js';

const SECONDS = Number(process.env.DASHBOARD_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.DASHBOARD_BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.DASHBOARD_BENCH_CONNECTIONS ?? 16);
const SUBSCRIBERS = Number(process.env.DASHBOARD_BENCH_SUBSCRIBERS ?? 100);
const MUTATIONS = Number(process.env.DASHBOARD_BENCH_MUTATIONS ?? 300);
/** Which parts run (comma-separated): load, breakdown, sse. */
const PARTS = new Set((process.env.DASHBOARD_BENCH_PARTS ?? 'load,breakdown,sse').split(','));
const WARMUP_MS = 1000;
const FACTS = 1000;
const LINKS = 1500;

const STATS_QUERY = '{ stats { totalFacts } }';
const GRAPH_QUERY = '{ graph(filter: { limit: 1000 }) { nodes { id label category importance confidence strength cluster } edges { source target linkType strength } } }';
const ADAPTERS: readonly AdapterName[] = ['uws', 'node'];

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' / ');
const ms = (x: number): string => (!Number.isFinite(x) ? '-' : x < 0.1 ? `${(x * 1000).toFixed(1)} µs` : `${x.toFixed(3)} ms`);

// ---------------------------------------------------------------------------------------------------
// Data

const WORDS = 'server database password token deploy cluster user admin staging prod cache queue kafka redis nginx backup rotate key host port'.split(' ');
const CATEGORIES: readonly Category[] = ['fact', 'technical', 'decision', 'preference', 'entity', 'other'];
const LINK_TYPES: readonly LinkType[] = ['RELATED_TO', 'DEPENDS_ON', 'PART_OF', 'CAUSED_BY', 'INSTANCE_OF'];

function seed(svc: MemoryService): { facts: number; links: number } {
  const r = mulberry32(20260301);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const stored = svc.memoryStoreMany(
    Array.from({ length: FACTS }, (_, i) => ({
      text: `Fact ${i}: the ${pick(WORDS)} ${pick(WORDS)} for ${pick(WORDS)} uses ${pick(WORDS)} ${pick(WORDS)} (${i % 97})`,
      category: pick(CATEGORIES),
      entity: i % 10 === 0 ? `svc-${i}` : null,
      tags: [pick(WORDS)],
      importance: 0.2 + 0.7 * r(),
      confidence: 0.5 + 0.5 * r(),
    })),
  );
  const ids = stored.map((s) => s.fact.id);
  const pairs = new Set<string>();
  while (pairs.size < LINKS) {
    // Mostly near neighbours (clusters), some long-range links.
    const a = Math.floor(r() * ids.length);
    const b = r() < 0.8 ? (a + 1 + Math.floor(r() * 20)) % ids.length : Math.floor(r() * ids.length);
    if (a === b) continue;
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    if (pairs.has(key)) continue;
    pairs.add(key);
    svc.memoryLink({ sourceId: ids[a] as FactId, targetId: ids[b] as FactId, linkType: pick(LINK_TYPES), strength: 0.3 + 0.6 * r() });
  }
  const s = svc.stats();
  return { facts: s.totalFacts, links: s.links };
}

// ---------------------------------------------------------------------------------------------------
// The client process

export class Client {
  private readonly child: ChildProcess;
  private waiting: ((r: Reply) => void) | null = null;
  private readonly ready: Promise<Reply>;

  constructor() {
    // From the sources (tsx) the client is a .ts file; compiled, a .js one next to this.
    const ts = import.meta.url.endsWith('.ts');
    const file = fileURLToPath(new URL(`./dashboard-client.${ts ? 'ts' : 'js'}`, import.meta.url));
    const execArgv = !ts ? [] : process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv.filter((a) => !a.startsWith('--cpu-prof')) : ['--import', 'tsx'];
    this.child = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: Reply) => {
      const w = this.waiting;
      this.waiting = null;
      w?.(m);
    });
    this.child.on('exit', (code) => {
      const w = this.waiting;
      this.waiting = null;
      w?.({ ok: false, error: `the client process exited (code ${code})` });
    });
    this.ready = new Promise((resolve) => (this.waiting = resolve));
  }

  async run<R>(cmd: Command): Promise<R> {
    await this.ready;
    const reply = await new Promise<Reply>((resolve) => {
      this.waiting = resolve;
      this.child.send(cmd);
    });
    if (!reply.ok) throw new Error(`client: ${reply.error}`);
    return reply.result as R;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.send({ kind: 'exit' } satisfies Command);
    const timer = setTimeout(() => this.child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// Bare transports: the same response bytes with no routing and no GraphQL (each transport's ceiling)

interface Bare {
  readonly port: number;
  close(): Promise<void>;
}

async function bareUws(body: string): Promise<Bare> {
  const uws = ((await import('uWebSockets.js')) as unknown as { default: typeof UwsModule }).default;
  const app = uws.App();
  const headers = Object.entries({ ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  app.any('/*', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((_chunk, last) => {
      if (!last || aborted) return;
      res.cork(() => {
        res.writeStatus('200 OK');
        for (const [k, v] of headers) res.writeHeader(k, v);
        res.end(body);
      });
    });
  });
  const token = await new Promise<UwsModule.us_listen_socket | false>((r) => app.listen('127.0.0.1', 0, r));
  if (!token) throw new Error('bare uWS: cannot listen');
  return {
    port: uws.us_socket_local_port(token),
    close: async () => {
      uws.us_listen_socket_close(token);
      app.close();
    },
  };
}

async function bareNode(body: string): Promise<Bare> {
  const headers = { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (typeof addr !== 'object' || !addr) throw new Error('bare node: no address');
  return {
    port: addr.port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 1. Requests/s

type QueryName = 'typename' | 'stats' | 'graph';

interface QuerySpec {
  readonly name: QueryName;
  readonly query: string;
  /** Text every checked response must contain. */
  readonly expect: string;
  /** The store read behind it (null: none). */
  readonly store: ((svc: MemoryService) => unknown) | null;
  readonly goal: string;
}

const QUERIES: readonly QuerySpec[] = [
  { name: 'typename', query: '{ __typename }', expect: '"__typename":"Query"', store: null, goal: '(GraphQL floor: no resolver)' },
  { name: 'stats', query: STATS_QUERY, expect: '"totalFacts":', store: (svc) => svc.stats(), goal: '>= 2x' },
  { name: 'graph', query: GRAPH_QUERY, expect: '"edges":[{', store: (svc) => svc.graph({ limit: 1000 }), goal: '(reported)' },
];

/** A dashboard adapter serving a query, or a bare server of one transport answering fixed bytes. */
interface LoadCase {
  readonly name: string;
  readonly port: number;
  readonly body: string;
  readonly expect: string;
}

interface Pooled {
  completed: number;
  seconds: number;
  samples: number[];
  bytes: number;
  /** Server process CPU (user + system, ms) and wall time (ms) over whole cases, and the requests they served. */
  cpuMs: number;
  wallMs: number;
  allCompleted: number;
}

const TRANSPORT = { uws: 'uWS', node: 'node:http' } as const;
const adapterCase = (q: QueryName, server: AdapterName): string => `${q}: ${TRANSPORT[server]} adapter`;
const bareCase = (size: 'stats' | 'graph', server: AdapterName): string => `bare ${TRANSPORT[server]}, ${size} bytes`;

async function throughput(client: Client, dashboards: Record<AdapterName, Dashboard>, bodies: Readonly<Record<'stats' | 'graph', string>>): Promise<Map<string, Pooled>> {
  const bares: Bare[] = [];
  const cases: LoadCase[] = [];
  try {
    for (const q of QUERIES) {
      for (const server of ADAPTERS) cases.push({ name: adapterCase(q.name, server), port: dashboards[server].port, body: JSON.stringify({ query: q.query }), expect: q.expect });
    }
    for (const size of ['stats', 'graph'] as const) {
      const spec = QUERIES.find((q) => q.name === size) as QuerySpec;
      const servers = { uws: await bareUws(bodies[size]), node: await bareNode(bodies[size]) };
      bares.push(servers.uws, servers.node);
      for (const server of ADAPTERS) cases.push({ name: bareCase(size, server), port: servers[server].port, body: JSON.stringify({ query: spec.query }), expect: spec.expect });
    }
    const pooled = new Map<string, Pooled>(cases.map((c) => [c.name, { completed: 0, seconds: 0, samples: [], bytes: 0, cpuMs: 0, wallMs: 0, allCompleted: 0 }]));
    console.log(
      `\n1. requests/s: ${CONNECTIONS} keep-alive connections from a client process, 1 request in flight on each; per case ${WARMUP_MS / 1000} s warm-up + ${SECONDS} s; ` +
        `${ROUNDS} round(s) rotating the order`,
    );
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + r * 3) % cases.length] as LoadCase;
        const cmd: LoadCommand = { kind: 'load', port: c.port, body: c.body, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: SECONDS * 1000, expect: c.expect };
        const cpu0 = process.cpuUsage();
        const wall0 = performance.now();
        const res = await client.run<LoadResult>(cmd);
        const cpu = process.cpuUsage(cpu0);
        const p = pooled.get(c.name) as Pooled;
        p.cpuMs += (cpu.user + cpu.system) / 1000;
        p.wallMs += performance.now() - wall0;
        p.allCompleted += res.allCompleted;
        p.completed += res.completed;
        p.seconds += res.seconds;
        for (const x of res.samples) p.samples.push(x);
        p.bytes = res.responseBytes;
        console.log(
          `  round ${r + 1}: ${c.name.padEnd(28)} ${Math.round(res.rps).toString().padStart(6)} req/s  p50 ${ms(res.latency.p50)}  p99 ${ms(res.latency.p99)}  ` +
            `server CPU ${((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)).toFixed(2)} cores  load ${load()}`,
        );
      }
    }
    return pooled;
  } finally {
    for (const b of bares) await b.close();
  }
}

/** Per case: requests/s, and the server process's CPU time per request (ms) over the same cases. */
interface Served {
  readonly rps: number;
  readonly cpuPerRequest: number;
}

function throughputTable(pooled: Map<string, Pooled>): Map<string, Served> {
  const rps = new Map<string, number>();
  const served = new Map<string, Served>();
  for (const [name, p] of pooled) {
    rps.set(name, p.completed / p.seconds);
    served.set(name, { rps: p.completed / p.seconds, cpuPerRequest: p.cpuMs / p.allCompleted });
  }
  const row = (name: string, base: number, goal: string, baseName: string): Record<string, string | number> => {
    const p = pooled.get(name) as Pooled;
    const b = pooled.get(baseName) as Pooled;
    const s: LatencyStats = latencyStats(p.samples);
    const r = rps.get(name) ?? NaN;
    return {
      case: name,
      'req/s': Math.round(r),
      'vs node:http': (r / base).toFixed(2),
      p50: ms(s.p50),
      p99: ms(s.p99),
      mean: ms(s.mean),
      max: ms(s.max),
      'response bytes': p.bytes,
      'server CPU/req': ms(p.cpuMs / p.allCompleted),
      'req per CPU-s vs node:http': (b.cpuMs / b.allCompleted / (p.cpuMs / p.allCompleted)).toFixed(2),
      'server cores': (p.cpuMs / p.wallMs).toFixed(2),
      goal,
    };
  };
  const rows: Record<string, string | number>[] = [];
  for (const q of QUERIES) {
    const base = rps.get(adapterCase(q.name, 'node')) ?? NaN;
    const ratio = (rps.get(adapterCase(q.name, 'uws')) ?? NaN) / base;
    const goal = q.goal === '>= 2x' ? `uWS/node >= 2x: ${ratio >= 2 ? 'met' : 'MISSED'}` : q.goal;
    const baseName = adapterCase(q.name, 'node');
    rows.push(row(adapterCase(q.name, 'uws'), base, goal, baseName), row(baseName, base, '', baseName));
  }
  for (const size of ['stats', 'graph'] as const) {
    const base = rps.get(bareCase(size, 'node')) ?? NaN;
    const baseName = bareCase(size, 'node');
    rows.push(row(bareCase(size, 'uws'), base, '(transport ceiling)', baseName), row(baseName, base, '', baseName));
  }
  console.log(`\nrequests/s, pooled over ${ROUNDS} round(s); "vs node:http" = against the node:http server of the same row pair; latency = send -> whole response at the client, ${CONNECTIONS} in flight`);
  console.table(rows);
  console.log(
    'server CPU/req: the server process\'s user + system CPU time over whole cases (warm-up included) per request served; server cores: that CPU ' +
      'time over wall time (below 1: the server thread was not saturated, i.e. it waited for CPU on a loaded machine); req per CPU-s: the ratio that load on the machine does not move',
  );
  return served;
}

// ---------------------------------------------------------------------------------------------------
// 1b. Where a request's time goes, in-process

async function breakdown(svc: MemoryService, served: Map<string, Served>): Promise<void> {
  const preparer = new OperationPreparer(createSchema());
  const handle = createRouter({ svc, preparer, token: new TokenCheck(null), appDir: tmpdir(), version: 'bench', port: () => 1 });
  const headers = new Map([
    ['host', '127.0.0.1:1'],
    ['content-type', 'application/json'],
  ]);
  const request = (body: string): HttpRequest => {
    const buf = Buffer.from(body);
    return { method: 'POST', path: '/graphql', query: '', header: (n) => headers.get(n) ?? null, hostCount: 1, body: async () => buf };
  };
  const ctx = { svc, caller: OPERATOR, authorized: true, lastEventId: null };
  const sink: unknown[] = [];
  const bench = new Bench({ time: 1500, warmupTime: 300, throws: true });
  const results = new Map<QueryName, ExecutionResult>();
  const task = (q: QueryName, piece: string): string => `${q}: ${piece}`;
  for (const q of QUERIES) {
    const p = preparer.prepare({ query: q.query }, ctx, 'ok', 'POST');
    if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
    const args = p.args;
    results.set(q.name, (await execute(args)) as ExecutionResult);
    const body = JSON.stringify({ query: q.query });
    const store = q.store;
    if (store) bench.add(task(q.name, 'store'), () => void (sink[0] = store(svc)));
    bench
      .add(task(q.name, 'execute'), async () => void (sink[1] = await execute(args)))
      .add(task(q.name, 'stringify'), () => void (sink[2] = JSON.stringify(results.get(q.name))))
      .add(task(q.name, 'handler'), async () => {
        const r = await handle(request(body));
        if (r.status !== 200 || isStream(r)) throw new Error(`handler: ${r.status}`);
        sink[3] = r.body;
      });
  }
  await bench.run();
  const stat = (name: string): { mean: number; p50: number } => {
    const r = bench.getTask(name)?.result;
    if (!r || !('latency' in r)) throw new Error(`no result for ${name}`);
    return { mean: r.latency.mean, p50: r.latency.p50 ?? NaN };
  };
  const rows: Record<string, string>[] = [];
  // A difference of separately timed pieces can come out below zero when the rest is within their noise.
  const rest = (x: number, share: (x: number) => string): { mean: string; 'share of handler': string } =>
    x < 0 ? { mean: `~0 (${ms(x)}: within the noise)`, 'share of handler': '~0%' } : { mean: ms(x), 'share of handler': share(x) };
  for (const q of QUERIES) {
    const store = q.store ? stat(task(q.name, 'store')).mean : 0;
    const exec = stat(task(q.name, 'execute')).mean;
    const str = stat(task(q.name, 'stringify')).mean;
    const handler = stat(task(q.name, 'handler')).mean;
    const share = (x: number): string => `${((100 * x) / handler).toFixed(0)}%`;
    rows.push(
      { query: q.name, piece: 'whole handler in-process (router + graphql-http: body, prepare, execute, serialise)', mean: ms(handler), 'share of handler': '100%' },
      { query: q.name, piece: '  store read (svc.stats / svc.graph)', mean: q.store ? ms(store) : '-', 'share of handler': q.store ? share(store) : '-' },
      { query: q.name, piece: '  GraphQL execute beyond the store read (resolvers, value completion)', ...rest(exec - store, share) },
      { query: q.name, piece: '  JSON.stringify of the result', mean: ms(str), 'share of handler': share(str) },
      { query: q.name, piece: '  the rest (router, graphql-http: parse body, prepare (cached), response)', ...rest(handler - exec - str, share) },
    );
    for (const server of ADAPTERS) {
      const perRequest = served.get(adapterCase(q.name, server))?.cpuPerRequest ?? NaN;
      rows.push({
        query: q.name,
        piece: `${TRANSPORT[server]}: server CPU per request under load - handler = transport + adapter (+ GC, cache misses under load)`,
        mean: `${ms(perRequest)} - ${ms(handler)} = ${rest(perRequest - handler, share).mean}`,
        'share of handler': '',
      });
    }
  }
  console.log('\nwhere a request goes on the server thread: tinybench means in-process, against the server CPU per request measured under load (table above)');
  console.table(rows);
  const graph = results.get('graph')?.data as { graph: { nodes: unknown[]; edges: unknown[] } } | undefined;
  console.log(`graph answer: ${graph?.graph.nodes.length} nodes, ${graph?.graph.edges.length} edges, ${JSON.stringify(results.get('graph')).length} bytes of JSON`);
  if (sink.length < 0) console.log(sink);
}

// ---------------------------------------------------------------------------------------------------
// 2. Mutation -> subscriber latency

async function subscribers(client: Client, svc: MemoryService, dashboards: Record<AdapterName, Dashboard>): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  console.log(`\n2. mutation -> subscriber: ${SUBSCRIBERS} SSE subscribers, ${MUTATIONS} createFact mutations 20 ms apart (after 20 warm-up mutations), per adapter`);
  // Bench instrumentation on the server thread: how long createFact's store write takes, and how long until
  // everything it set off (the response, every subscriber's event) has been written (the next setImmediate,
  // after the microtasks and nextTicks that run the fan-out).
  const write: number[] = [];
  const settled: number[] = [];
  const real = svc.memoryStore.bind(svc);
  svc.memoryStore = (...args: Parameters<MemoryService['memoryStore']>) => {
    const t = performance.now();
    const r = real(...args);
    write.push(performance.now() - t);
    setImmediate(() => settled.push(performance.now() - t));
    return r;
  };
  try {
    for (const server of ADAPTERS) {
      const cmd: SseCommand = { kind: 'sse', port: dashboards[server].port, subscribers: SUBSCRIBERS, warmupMutations: 20, mutations: MUTATIONS, spacingMs: 20 };
      write.length = settled.length = 0;
      const r = await client.run<SseResult>(cmd);
      const label = `${TRANSPORT[server]} adapter`;
      const row = (what: string, s: LatencyStats, goal = ''): Record<string, string | number> => ({ adapter: label, what, n: s.n, p50: ms(s.p50), p99: ms(s.p99), mean: ms(s.mean), max: ms(s.max), goal });
      rows.push(
        row('client: send -> subscriber received (every delivery)', r.delivery, `p99 < 10 ms: ${r.delivery.p99 < 10 ? 'met' : 'MISSED'}`),
        row('client: send -> last subscriber received (per mutation)', r.lastSubscriber),
        row('client: mutation round trip (its own response)', r.roundTrip),
        row('server: createFact store write (memoryStore)', latencyStats(write.slice(-MUTATIONS))),
        row('server: store write start -> response and all events written', latencyStats(settled.slice(-MUTATIONS))),
      );
      console.log(`  ${label}: ${r.subscribers} streams open in ${r.openMs.toFixed(0)} ms; ${r.mutations} mutations; deliveries missing ${r.missing}; ${r.beforeResponse} of ${r.delivery.n} arrived before the mutation's own response`);
    }
  } finally {
    svc.memoryStore = real;
  }
  console.table(rows);
}

// ---------------------------------------------------------------------------------------------------

export async function main(): Promise<void> {
  const wall = performance.now();
  console.log(`\ndashboard bench: ${cpus().length} CPUs, load average (1/5/15 min) at start ${load()}`);
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-dashboard-bench-'));
  const env = { HYBRID_MEM_HOME: dir };
  const config = resolveConfig({ embedding: { enabled: false } }, { env });
  const svc = MemoryService.open({ config, env });
  const dashboards: Partial<Record<AdapterName, Dashboard>> = {};
  let client: Client | null = null;
  // As `serve` runs the store: WAL checkpoints in the maintenance worker every 2 s, never inside a commit.
  const maintenance = await maintenanceService.start({ svc, config, log: (line) => console.log(`  (${line})`) });
  try {
    const t = performance.now();
    const seeded = seed(svc);
    console.log(`seeded ${seeded.facts} facts, ${seeded.links} links in ${((performance.now() - t) / 1000).toFixed(1)} s (${dir})`);
    // The answer cache off: these cases measure the path a changed memory takes (bench/graph-query.bench.ts measures the cache).
    for (const server of ADAPTERS) dashboards[server] = await startDashboard({ svc, config, port: 0, server, record: false, answerCache: false });
    const ds = dashboards as Record<AdapterName, Dashboard>;
    console.log(`dashboards: ${ADAPTERS.map((a) => `${a} ${ds[a].url}`).join(', ')}`);
    // The exact bodies the adapters send, for the bare servers.
    const bodyOf = async (q: string): Promise<string> => {
      const r = await fetch(`${ds.node.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
      const text = await r.text();
      if (r.status !== 200 || text.includes('"errors"')) throw new Error(`${q}: HTTP ${r.status} ${text.slice(0, 300)}`);
      return text;
    };
    const bodies = { stats: await bodyOf(STATS_QUERY), graph: await bodyOf(GRAPH_QUERY) };
    client = new Client();
    const served = PARTS.has('load') ? throughputTable(await throughput(client, ds, bodies)) : new Map<string, Served>();
    if (PARTS.has('breakdown')) await breakdown(svc, served);
    if (PARTS.has('sse')) await subscribers(client, svc, ds);
  } finally {
    await client?.close();
    for (const d of Object.values(dashboards)) await d.close();
    await maintenance.stop();
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nload average at end ${load()}; bench wall time ${((performance.now() - wall) / 1000).toFixed(0)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
