/**
 * The graph app's `graph` query (issue 21, item 7): requests/s of the app's own GRAPH document (every node
 * and edge field, and stats) at 1,000 and 10,000 facts (1.5 links per fact), uWebSockets.js, 8 keep-alive
 * connections from a separate process (bench/dashboard-client.ts), 1 s warm-up + 5 s. With the answer
 * cache (the shipped default: an answer kept while the event log has not moved, src/http/answer-cache.ts)
 * against the same server without it (the path before, and the path right after any change), in the same
 * run; the ratio is printed. Also the first answer after a change (cache miss) as a single timed request.
 * Run: npm run bench -- graph-query   (GRAPH_BENCH_SIZES=1000,10000, GRAPH_BENCH_SECONDS=5)
 */
import { pathToFileURL } from 'node:url';
import { GRAPH } from '../app/src/lib/documents.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome } from '../test/helpers.js';
import { Client } from './dashboard.bench.js';
import type { LoadResult } from './dashboard-protocol.js';

const SIZES = (process.env.GRAPH_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const SECONDS = Number(process.env.GRAPH_BENCH_SECONDS ?? 5);

export async function main(): Promise<void> {
  const client = new Client();
  const rows: string[] = [];
  try {
    for (const n of SIZES) {
      const home = tempHome({ embedding: { enabled: false } });
      const svc = MemoryService.open({ config: home.config, env: home.env });
      const dashboards: Dashboard[] = [];
      try {
        const ids = svc.memoryStoreMany(Array.from({ length: n }, (_, i) => ({ text: `Graph bench fact ${i} about service s${i % 97} on host h${i % 31}`, category: i % 3 === 0 ? 'technical' : 'fact' }))).map((r) => r.fact.id);
        for (let i = 1; i < ids.length; i++) {
          svc.memoryLink({ sourceId: ids[i - 1] as string, targetId: ids[i] as string });
          if (i % 2 === 0) svc.memoryLink({ sourceId: ids[Math.floor(i / 2)] as string, targetId: ids[i] as string });
        }
        const body = JSON.stringify({ query: GRAPH, variables: { filter: { limit: n } } });
        const cached = await startDashboard({ svc, config: home.config, port: 0, server: 'uws', record: false });
        const uncached = await startDashboard({ svc, config: home.config, port: 0, server: 'uws', record: false, answerCache: false });
        dashboards.push(cached, uncached);
        // One request after a change: what a reload right after a store pays (the cache is missed; the read worker is warm).
        const ask = async (): Promise<string> => (await fetch(`${cached.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
        await ask();
        svc.memoryStore({ text: `a change before the timed request ${n}` });
        const t0 = performance.now();
        const first = await ask();
        const firstMs = performance.now() - t0;
        const run = (d: Dashboard): Promise<LoadResult> => client.run<LoadResult>({ kind: 'load', port: d.port, body, connections: 8, warmupMs: 1000, durationMs: SECONDS * 1000, expect: '"nodes":[' });
        const off = await run(uncached);
        const on = await run(cached);
        rows.push(`| ${n} | ${(first.length / 1e6).toFixed(2)} MB | ${firstMs.toFixed(0)} | ${off.rps.toFixed(1)} (p50 ${off.latency.p50.toFixed(1)}, p99 ${off.latency.p99.toFixed(1)} ms) | ${on.rps.toFixed(1)} (p50 ${on.latency.p50.toFixed(1)}, p99 ${on.latency.p99.toFixed(1)} ms) | ${(on.rps / off.rps).toFixed(1)}x |`);
      } finally {
        for (const d of dashboards) await d.close();
        await svc.close();
        home.cleanup();
      }
    }
  } finally {
    await client.close();
  }
  console.log('\n| facts | answer | first answer after a change, ms | no cache (the path before): req/s | answer cache: req/s | ratio |\n|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
