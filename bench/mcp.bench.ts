/**
 * The agent tools over MCP: latency (p50/p99, tinybench) of `memory_recall` and `memory_store` called by the
 * SDK client through `hybrid-mem mcp` on stdio (JSON-RPC, a child process), against the same calls made
 * in-process on the same database in the same run (the baseline): the difference is what MCP costs a turn.
 * Full-text recall on a 2,000-fact store (embedding off on both sides, so both run the same search).
 * Run: node --import tsx bench/mcp.bench.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Bench } from 'tinybench';
import { loadConfigFile } from '../src/config/resolve.js';
import { MemoryService } from '../src/memory/service.js';

const FACTS = 2000;
const WORDS = ['deploy', 'staging', 'database', 'backup', 'gateway', 'token', 'cluster', 'invoice', 'release', 'kafka', 'redis', 'nginx', 'grafana', 'vault', 'ssh', 'postgres'];
const QUERIES = ['staging database backup', 'deploy release', 'redis cluster', 'nginx gateway token', 'grafana', 'postgres ssh'];
const caller = { role: 'orchestrator', agentId: 'bench', sessionId: 'bench-session' } as const;

function fact(i: number): string {
  const w = (k: number): string => WORDS[(i * 7 + k * 13) % WORDS.length] as string;
  return `Fact ${i}: the ${w(1)} of the ${w(2)} uses ${w(3)} on host-${i % 97}.internal (${w(4)} notes)`;
}

export async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'hm-mcp-bench-'));
  const configFile = join(home, 'config.json');
  writeFileSync(configFile, JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dataDir: home, embedding: { enabled: false }, agent: { id: caller.agentId, sessionId: caller.sessionId } } } } } }));
  const config = loadConfigFile(configFile, { env: {} });
  const svc = MemoryService.open({ config });
  svc.memoryStoreMany(Array.from({ length: FACTS }, (_, i) => ({ text: fact(i), category: 'technical' as const })));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve(import.meta.dirname, '../bin/hybrid-mem.js'), '--config', configFile, 'mcp'],
    env: { ...(process.env as Record<string, string>), HYBRID_MEM_HOME: home },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'hybrid-mem-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    let q = 0;
    let s = 0;
    const bench = new Bench({ time: 2000, warmupTime: 300 });
    bench
      .add('memory_recall in-process (baseline)', async () => {
        await svc.memoryRecall({ query: QUERIES[q++ % QUERIES.length] as string, limit: 10 }, caller);
      })
      .add('memory_recall over MCP stdio', async () => {
        await client.callTool({ name: 'memory_recall', arguments: { query: QUERIES[q++ % QUERIES.length], limit: 10 } });
      })
      .add('memory_store in-process (baseline)', () => {
        svc.memoryStore({ text: `bench store in-process ${s++}` }, caller);
      })
      .add('memory_store over MCP stdio', async () => {
        await client.callTool({ name: 'memory_store', arguments: { text: `bench store over mcp ${s++}` } });
      });
    await bench.run();
    const stat = (name: string): { p50: number; p99: number } => {
      const r = bench.getTask(name)?.result;
      return r && 'latency' in r ? { p50: r.latency.p50 ?? NaN, p99: r.latency.p99 ?? NaN } : { p50: NaN, p99: NaN };
    };
    console.log(`MCP over stdio vs in-process, ${FACTS} facts, full-text recall (ms)`);
    console.log('| call | in-process p50 / p99 | over MCP p50 / p99 | MCP adds (p50) |');
    console.log('|---|---|---|---|');
    for (const tool of ['memory_recall', 'memory_store']) {
      const base = stat(`${tool} in-process (baseline)`);
      const mcp = stat(`${tool} over MCP stdio`);
      console.log(`| ${tool} | ${base.p50.toFixed(3)} / ${base.p99.toFixed(3)} | ${mcp.p50.toFixed(3)} / ${mcp.p99.toFixed(3)} | ${(mcp.p50 - base.p50).toFixed(3)} ms (${(mcp.p50 / base.p50).toFixed(1)}x) |`);
    }
  } finally {
    await client.close();
    await svc.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
