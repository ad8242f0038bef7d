/**
 * Heavy reads against the dashboard (issue 20, item 1): how long /api/health waits while a local process
 * (or, before the fix, a web page) sends the reads that used to stall the server. On a store of 20,000
 * facts and 10,000 links (full text only), the uWebSockets.js server, with the read worker (the shipped
 * default) against the same server with every query on its thread (`readWorker: false`, the baseline,
 * measured in the same run). Attacks, each from a child process with 6 requests in flight, for 5 s:
 *   - the app's own full graph (graph(limit: 20000) with every node and edge field): allowed, ~10 MB each;
 *   - 15 aliases of graph(limit: 20000) over GET: refused by its price before it runs;
 *   - a POST batch of ten full graphs: refused as a whole.
 * The probe is tinybench timing `GET /api/health` in this process, which hosts the server: a probe waits
 * for whatever holds the server's thread. Goal: p99 and max under 50 ms in every case.
 * Run: npm run bench -- heavy-reads   (HEAVY_READS_FACTS, HEAVY_READS_SECONDS)
 */
import { fork } from 'node:child_process';
import { Bench } from 'tinybench';
import { FACT_FIELDS, EDGE_FIELDS } from '../app/src/lib/documents.js';
import { startDashboard } from '../src/http/server.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome } from '../test/helpers.js';
import type { AttackCommand, AttackResult } from './heavy-reads-client.js';

const FACTS = Number(process.env.HEAVY_READS_FACTS ?? 20_000);
const SECONDS = Number(process.env.HEAVY_READS_SECONDS ?? 5);
const FULL_GRAPH = `query G { graph(filter: { limit: 20000 }) { truncated nodes { ...NodeFields } edges { ...EdgeFields } } } ${FACT_FIELDS} ${EDGE_FIELDS}`;
const ALIASED = `{ ${Array.from({ length: 15 }, (_, i) => `g${i}: graph(filter: { limit: 20000 }) { nodes { id label } edges { id } }`).join(' ')} }`;

const ATTACKS: readonly { name: string; cmd: Omit<AttackCommand, 'url' | 'concurrency' | 'seconds'> }[] = [
  { name: 'full graph x6 (allowed)', cmd: { method: 'POST', path: '/graphql', body: JSON.stringify({ query: FULL_GRAPH }) } },
  { name: '15 aliases over GET (refused)', cmd: { method: 'GET', path: `/graphql?query=${encodeURIComponent(ALIASED)}`, body: null } },
  { name: 'batch of 10 (refused)', cmd: { method: 'POST', path: '/graphql', body: JSON.stringify(Array.from({ length: 10 }, () => ({ query: FULL_GRAPH }))) } },
];

function runAttack(cmd: AttackCommand): { done: Promise<AttackResult> } {
  const child = fork(new URL('./heavy-reads-client.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const done = new Promise<AttackResult>((resolve, reject) => {
    child.once('message', (m: AttackResult | { error: string }) => {
      child.kill();
      if ('error' in m) reject(new Error(m.error));
      else resolve(m);
    });
    child.once('error', reject);
  });
  child.send(cmd);
  return { done };
}

export async function main(): Promise<void> {
  const home = tempHome({ embedding: { enabled: false } });
  const svc = MemoryService.open({ config: home.config, env: home.env });
  const rows: string[] = [];
  try {
    const ids = svc.memoryStoreMany(Array.from({ length: FACTS }, (_, i) => ({ text: `Fact ${i} about service s${i % 97} on host h${i % 31}` }))).map((r) => r.fact.id);
    for (let i = 1; i < ids.length; i += 2) svc.memoryLink({ sourceId: ids[i - 1] as string, targetId: ids[i] as string });
    console.log(`${FACTS} facts, ${Math.floor(FACTS / 2)} links; ${SECONDS} s per attack, 6 requests in flight`);
    const p99 = new Map<string, number>();
    for (const readWorker of [false, true]) {
      const mode = readWorker ? 'read worker' : 'baseline: all on the thread';
      // No answer cache: an attacker varies the query text and never hits it.
      const d = await startDashboard({ svc, config: home.config, port: 0, record: false, server: 'uws', readWorker, answerCache: false });
      try {
        for (const a of ATTACKS) {
          const attack = runAttack({ ...a.cmd, url: d.url, concurrency: 6, seconds: SECONDS });
          await new Promise((r) => setTimeout(r, 300));
          const bench = new Bench({ name: `${mode}: ${a.name}`, time: (SECONDS - 1) * 1000, warmupTime: 0, warmupIterations: 0 });
          bench.add('GET /api/health', async () => {
            await (await fetch(`${d.url}/api/health`)).arrayBuffer();
          });
          await bench.run();
          const r = await attack.done;
          const lat = bench.tasks[0]?.result;
          const l = lat && 'latency' in lat ? lat.latency : null;
          if (l) p99.set(`${readWorker}:${a.name}`, l.p99 ?? NaN);
          rows.push(`| ${mode} | ${a.name} | ${l ? `${(l.p50 ?? NaN).toFixed(1)} | ${(l.p99 ?? NaN).toFixed(1)} | ${l.max.toFixed(1)}` : '- | - | -'} | ${r.answers} (${Object.entries(r.byStatus).map(([s, n]) => `${n}x${s}`).join(', ')}) |`);
        }
      } finally {
        await d.close();
      }
    }
    console.log('\n| server | attack | health p50 ms | p99 ms | max ms | attacker answers |\n|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    for (const a of ATTACKS) console.log(`${a.name}: health p99 baseline / read worker = ${((p99.get(`false:${a.name}`) ?? NaN) / (p99.get(`true:${a.name}`) ?? NaN)).toFixed(1)}x`);
  } finally {
    await svc.close();
    home.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
