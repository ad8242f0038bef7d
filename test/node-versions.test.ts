/**
 * Every Node major that package.json's `engines` declares runs the product: the CLI (SQLite + FTS5 through
 * better-sqlite3, the embedding worker, the usearch index), `serve` with the dashboard (uWebSockets.js where
 * it loads, node:http on Node 24), and `hybrid-mem mcp` with the SDK client. Node 22 and 24 come from the
 * npm registry into the test cache. SQLite is better-sqlite3 13 (prebuilt, N-API) on Node 22 and 24 and 12
 * on Node 20, with nothing built per Node; a driver that does not load fails with MEM_ERR_NATIVE_UNAVAILABLE
 * naming the fix, and 12.x is refused on Node 24 (it aborts there).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { INSTALL_TIMEOUT_MS, ROOT, nodeBinary, supported } from './support/runtimes.js';

const BIN = join(ROOT, 'bin', 'hybrid-mem.js');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
/** The majors `engines.node` names, e.g. "^20.12.0 || ^22.12.0 || ^24.0.0" -> [20, 22, 24]. */
const MAJORS = pkg.engines.node.split('||').map((r) => Number(/\^(\d+)\./.exec(r.trim())?.[1]));

it('package.json declares Node 20, 22 and 24, each as a caret range', () => {
  expect(MAJORS).toEqual([20, 22, 24]);
});

describe.skipIf(!supported).each(MAJORS.map((m) => [m as 20 | 22 | 24]))('on Node %i', (major) => {
  let node: string;
  let home: string;
  let env: Record<string, string>;

  beforeAll(() => {
    node = nodeBinary(major);
    home = mkdtempSync(join(tmpdir(), `hm-node${major}-`));
    env = { ...(process.env as Record<string, string>), HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const cli = (args: string[], extraEnv: Record<string, string> = {}) => spawnSync(node, [BIN, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });

  it('runs the CLI: store, and a hybrid recall that loads the embedding model and the vector index', () => {
    expect(cli(['--version']).stdout.trim()).toMatch(/^hybrid-mem \d+\.\d+\.\d+/);
    const stored = cli(['store', 'The deploy host for the shop is shop-deploy.internal', '--category', 'technical']);
    expect(stored.status, stored.stderr).toBe(0);
    const id = stored.stdout.trim();
    const recall = cli(['recall', 'where do we deploy the shop', '--semantic', '--json']);
    expect(recall.status, recall.stderr).toBe(0);
    const r = JSON.parse(recall.stdout) as { mode: string; degraded: boolean; results: { fact: { id: string } }[] };
    expect(r.mode).toBe('hybrid');
    expect(r.results[0]?.fact.id).toBe(id);
    const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(Number(version.split('.')[0])).toBe(major);
  });

  it(`serves the dashboard (${major >= 24 ? 'node:http: uWebSockets.js has no build for Node 24' : 'uWebSockets.js'}) and stops on SIGTERM`, async () => {
    const child = spawn(node, [BIN, 'serve'], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/dashboard http:\/\/127\.0\.0\.1:\d+/);
      const url = /dashboard (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
      const health = (await (await fetch(`${url}/api/health`)).json()) as { service: string };
      expect(health.service).toBe('hybrid-mem');
      const stats = (await (await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ stats { totalFacts } }' }) })).json()) as { data: { stats: { totalFacts: number } } };
      expect(stats.data.stats.totalFacts).toBeGreaterThanOrEqual(1);
      expect(err).toContain(major >= 24 ? `(node) (uWebSockets.js unavailable on Node ${major}.` : '(uws)');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it('serves the agent tools over MCP to the SDK client', async () => {
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'mcp'], env, stderr: 'pipe' });
    const client = new Client({ name: `node-${major}-test`, version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...AGENT_TOOL_NAMES]);
      const stored = (await client.callTool({ name: 'memory_store', arguments: { text: `Node ${major} speaks MCP` } })) as CallToolResult;
      expect(stored.isError).toBeFalsy();
      const recalled = (await client.callTool({ name: 'memory_recall', arguments: { query: 'speaks MCP' } })) as CallToolResult;
      expect(recalled.structuredContent).toMatchObject({ results: [{ fact: { text: `Node ${major} speaks MCP` } }] });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a SQLite driver that does not load fails with MEM_ERR_NATIVE_UNAVAILABLE naming the fix (exit 1)', () => {
    const missing = join(home, 'no-driver-here');
    const r = cli(['stats'], { HYBRID_MEM_SQLITE_DRIVER: missing });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('MEM_ERR_NATIVE_UNAVAILABLE');
    expect(r.stderr).toContain(`the SQLite driver ${missing} does not load on Node v${major}.`);
    expect(r.stderr).toContain('Fix: point HYBRID_MEM_SQLITE_DRIVER at a better-sqlite3 install built for this Node');
  });

  it.runIf(major === 24)('refuses better-sqlite3 12 on Node 24, where it aborts the process', () => {
    const r = cli(['stats'], { HYBRID_MEM_SQLITE_DRIVER: join(ROOT, 'node_modules', 'better-sqlite3') });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/MEM_ERR_NATIVE_UNAVAILABLE.*better-sqlite3 12\.\d+\.\d+ .* aborts the process on Node v24/);
  });
});
