/**
 * Long-running modes end cleanly on their own. `hybrid-mem mcp` ends with its client, the way MCP clients
 * end a server: the SDK client closing its transport, a plain process closing stdin, the reader of stdout
 * going away, the parent being killed, SIGINT/SIGTERM/SIGHUP. Each time the process exits by itself within
 * 2 s (status 0 where it chose to exit), no process is left (so nothing can spin), and the database is not
 * locked afterwards. `hybrid-mem serve` stops on SIGINT/SIGTERM and with a parent that read its output
 * through a pipe, and keeps running when its output goes to a file (nohup). The real bin from source, real
 * SQLite files in temp dirs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { openDatabase } from '../src/store/db.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'hybrid-mem.js');
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lifecycle-test', version: '1' } } })}\n`;
const LIST_TOOLS = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;

let home: string;
let env: Record<string, string>;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'hm-mcp-life-'));
  // Port 0: the dashboard of `serve` takes an ephemeral port, so test files running in parallel never meet.
  writeFileSync(join(home, 'config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { port: 0 } } } } } }));
  env = { ...(process.env as Record<string, string>), HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Alive: exists and is not a zombie (a re-parented child may wait for a reaper that never comes). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

async function goneWithin(pid: number, ms: number): Promise<number> {
  const started = Date.now();
  while (alive(pid)) {
    if (Date.now() - started > ms) return Infinity;
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

/**
 * Run `parentCode` (node -e) as a parent that starts our process and prints its pid once it is up; kill
 * the parent with SIGKILL (no chance to close anything) and return the child's pid.
 */
async function childOfKilledParent(parentCode: string): Promise<number> {
  const parent = spawn(process.execPath, ['-e', parentCode], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let line = '';
  parent.stdout.on('data', (d: Buffer) => (line += d.toString()));
  await expect.poll(() => line, { timeout: 30_000 }).toMatch(/^\d+\n/);
  const pid = Number(line.trim());
  expect(alive(pid)).toBe(true);
  parent.kill('SIGKILL');
  return pid;
}

/** A writer can take the database at once: nobody holds it. */
function expectUnlocked(): void {
  const db = openDatabase(join(home, 'memory.db'), { busyTimeoutMs: 0 });
  try {
    db.exec('BEGIN IMMEDIATE; COMMIT;');
  } finally {
    db.close();
  }
}

function startMcp(): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>; stderr: () => string; stdout: () => string } {
  const child = spawn(process.execPath, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) => child.on('exit', (code, signal) => done({ code, signal, at: Date.now() })));
  return { child, exited, stderr: () => err, stdout: () => out };
}

/** Wait until the server answered initialize (it is up, the store is open). */
async function initialized(m: ReturnType<typeof startMcp>): Promise<void> {
  m.child.stdin?.write(INITIALIZE);
  await expect.poll(() => m.stdout(), { timeout: 30_000 }).toContain('"id":1');
}

describe('hybrid-mem mcp ends with its client', () => {
  it('the SDK client closes the transport: the server exits on its own within 2 s, the database is free', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe' });
    const client = new Client({ name: 'lifecycle-sdk', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid as number;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...AGENT_TOOL_NAMES]);
    await client.callTool({ name: 'memory_store', arguments: { text: 'The SDK client was here' } });
    const started = Date.now();
    await client.close();
    // The SDK waits up to 2 s for the server to exit by itself before it sends SIGTERM.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await goneWithin(pid, 500)).toBeLessThan(500);
    expectUnlocked();
  }, 60_000);

  it('a plain process closes stdin: exit status 0 within 2 s', async () => {
    const m = startMcp();
    await initialized(m);
    const closed = Date.now();
    m.child.stdin?.end();
    const { code, signal, at } = await m.exited;
    expect({ code, signal }, m.stderr()).toEqual({ code: 0, signal: null });
    expect(at - closed).toBeLessThan(2000);
    expect(m.stderr()).toContain('stdin closed: stopping');
    expectUnlocked();
  }, 60_000);

  it('stdin at EOF from the start (hybrid-mem mcp < /dev/null): exit status 0 within 2 s of starting up', async () => {
    const m = startMcp();
    m.child.stdin?.end();
    const { code, signal } = await m.exited;
    expect({ code, signal }, m.stderr()).toEqual({ code: 0, signal: null });
    expectUnlocked();
  }, 60_000);

  it('the reader of stdout goes away: the next answer fails with EPIPE and the server exits 0', async () => {
    const m = startMcp();
    await initialized(m);
    m.child.stdout?.destroy();
    const gone = Date.now();
    m.child.stdin?.write(LIST_TOOLS);
    const { code, signal, at } = await m.exited;
    expect({ code, signal }, m.stderr()).toEqual({ code: 0, signal: null });
    expect(at - gone).toBeLessThan(2000);
    expectUnlocked();
  }, 60_000);

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s: exit status 0, the database free right after', async (sig) => {
    const m = startMcp();
    await initialized(m);
    m.child.kill(sig);
    const { code, signal } = await m.exited;
    expect({ code, signal }, m.stderr()).toEqual({ code: 0, signal: null });
    expect(m.stderr()).toContain(`${sig}: stopping`);
    expectUnlocked();
  }, 60_000);

  it('the parent is killed (SIGKILL, no chance to close anything): the server is gone within 2 s, nothing left', async () => {
    // The parent holds the only other ends of the pipes, as an MCP client does, and dies without a word.
    const parentCode = `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, [${JSON.stringify(BIN)}, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
      c.stdin.write(${JSON.stringify(INITIALIZE)});
      c.stdout.once('data', () => process.stdout.write(String(c.pid) + '\\n'));
      setInterval(() => {}, 1000);`;
    const pid = await childOfKilledParent(parentCode);
    expect(await goneWithin(pid, 2000)).toBeLessThan(2000);
    expectUnlocked();
  }, 60_000);
});

describe('hybrid-mem serve ends cleanly', () => {
  function startServe(): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; out: () => string } {
    const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
    return { child, exited, out: () => out };
  }

  it.each(['SIGINT', 'SIGTERM'] as const)('%s: exit status 0, workers stopped, the database free right after', async (sig) => {
    const s = startServe();
    await expect.poll(() => s.out(), { timeout: 30_000 }).toMatch(/dashboard http:\/\/127\.0\.0\.1:\d+/);
    s.child.kill(sig);
    expect(await s.exited, s.out()).toEqual({ code: 0, signal: null });
    expect(s.out()).toContain(`${sig}: shutting down`);
    expectUnlocked();
  }, 60_000);

  const parentCode = (stdout: string): string => `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    const out = ${stdout === 'pipe' ? "'pipe'" : `fs.openSync(${JSON.stringify(stdout)}, 'w')`};
    const c = spawn(process.execPath, [${JSON.stringify(BIN)}, 'serve'], { stdio: ['ignore', out, 'ignore'] });
    const ready = () => process.stdout.write(String(c.pid) + '\\n');
    if (out === 'pipe') c.stdout.once('data', ready); else setTimeout(ready, 4000);
    setInterval(() => {}, 1000);`;


  it('started by a program that reads its output through a pipe: gone within 5 s after that program is killed', async () => {
    const pid = await childOfKilledParent(parentCode('pipe'));
    // It notices within 250 ms, then stops the dashboard and its workers and persists the vector index.
    expect(await goneWithin(pid, 5000)).toBeLessThan(5000);
    expectUnlocked();
  }, 60_000);

  it('with its output going to a file (as nohup does): keeps serving after its parent exits', async () => {
    const pid = await childOfKilledParent(parentCode(join(home, 'serve.log')));
    await new Promise((r) => setTimeout(r, 1500));
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGTERM');
    expect(await goneWithin(pid, 10_000)).toBeLessThan(10_000);
    expect(readFileSync(join(home, 'serve.log'), 'utf8')).toContain('hybrid-mem stopped');
    expectUnlocked();
  }, 60_000);
});
