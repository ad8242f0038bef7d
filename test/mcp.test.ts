/**
 * `hybrid-mem mcp` driven by the MCP TypeScript SDK's own client over stdio: the real process, a real
 * SQLite file, the real semantic layer. What a client sees (tools, schemas, results, typed errors) and
 * what it must never see (anything on stdout that is not a protocol message) are both checked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import type { FactId } from '../src/core/ids.js';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { MemoryService } from '../src/memory/service.js';
import { cleanupFixtures, fixture } from './support/plugins.js';

const BIN = resolve(__dirname, '../bin/hybrid-mem.js');
const KEY = 'ab'.repeat(32);

interface Session {
  readonly client: Client;
  readonly stderr: () => string;
  /** Errors the client saw on the wire (a stdout line that is not a protocol message lands here). */
  readonly wireErrors: Error[];
  close(): Promise<void>;
}

async function connect(home: string, args: string[] = [], configFile?: string): Promise<Session> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...(configFile ? ['--config', configFile] : []), 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), HYBRID_MEM_HOME: home, HYBRID_MEM_VAULT_KEY: KEY, HYBRID_MEM_FROM_SOURCE: '1' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'hybrid-mem-test', version: '1.0.0' });
  const wireErrors: Error[] = [];
  client.onerror = (err) => wireErrors.push(err);
  await client.connect(transport);
  return { client, stderr: () => stderr, wireErrors, close: () => client.close() };
}

/** Facts and links in the database, read through a second connection. */
function factCount(home: string): string {
  const svc = MemoryService.open({ config: resolveConfig({ embedding: { enabled: false } }, { env: { HYBRID_MEM_HOME: home } }) });
  try {
    const st = svc.stats();
    return `${st.totalFacts} facts, ${st.links} links`;
  } finally {
    void svc.close();
  }
}

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const call = async (s: Session, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await s.client.callTool({ name, arguments: args })) as CallToolResult;

describe('hybrid-mem mcp over stdio, with the SDK client', () => {
  let home: string;
  let s: Session;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'hm-mcp-'));
    s = await connect(home);
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('initializes as hybrid-mem and lists the four agent tools with JSON Schemas', async () => {
    expect(s.client.getServerVersion()).toMatchObject({ name: 'hybrid-mem' });
    expect(s.client.getInstructions()).toContain('memory_recall');
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...AGENT_TOOL_NAMES].sort());
    const store = tools.find((t) => t.name === 'memory_store');
    expect(store?.inputSchema).toMatchObject({ type: 'object', required: ['text'], additionalProperties: false });
    expect(Object.keys(store?.inputSchema.properties ?? {})).not.toContain('scopeAgentId');
    expect(store?.inputSchema.properties?.category).toMatchObject({ enum: expect.arrayContaining(['preference', 'technical']) });
    expect(JSON.stringify(store?.inputSchema)).not.toContain('$schema');
    const link = tools.find((t) => t.name === 'memory_link');
    expect(link?.inputSchema.required).toEqual(['sourceId', 'targetId']);
    expect(link?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((t) => t.name === 'memory_recall')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('stores, links and recalls facts, read back through the service', async () => {
    const a = await call(s, 'memory_store', { text: 'The staging database runs PostgreSQL 16 on db-stage.internal', category: 'technical', entity: 'db-stage', tags: ['Postgres'] });
    expect(a.isError).toBeFalsy();
    const factA = (a.structuredContent as { fact: { id: FactId; tags: string[] } }).fact;
    expect(text(a)).toBe(`Stored ${factA.id}.`);
    expect(factA.tags).toEqual(['postgres']);
    const b = await call(s, 'memory_store', { text: 'Nightly backups of db-stage.internal go to s3://backups/stage', entity: 'db-stage' });
    const factB = (b.structuredContent as { fact: { id: string } }).fact;
    const again = await call(s, 'memory_store', { text: 'The staging database runs PostgreSQL 16 on db-stage.internal', category: 'technical', entity: 'db-stage' });
    expect(again.structuredContent).toMatchObject({ created: false, fact: { id: factA.id } });

    const l = await call(s, 'memory_link', { sourceId: factB.id, targetId: factA.id, linkType: 'DEPENDS_ON' });
    expect(l.isError).toBeFalsy();
    expect(text(l)).toMatch(new RegExp(`^Linked ${factB.id} -\\[DEPENDS_ON\\]-> ${factA.id} \\(link_`));

    const r = await call(s, 'memory_recall', { query: 'staging database', limit: 5 });
    expect(r.isError).toBeFalsy();
    const results = (r.structuredContent as { results: { fact: { id: string } }[]; recallId: string }).results;
    expect(results[0]?.fact.id).toBe(factA.id);
    expect(text(r)).toMatch(/^1\. \[technical\] The staging database runs PostgreSQL 16/);

    // What the tools wrote is what the store holds (a second connection, read-only use).
    const svc = MemoryService.open({ config: resolveConfig({ embedding: { enabled: false } }, { env: { HYBRID_MEM_HOME: home } }) });
    try {
      expect(svc.getFact(factA.id).source).toBe('tool');
      expect(svc.listLinks(undefined, { factId: factA.id }).map((x) => [x.sourceId, x.linkType, x.targetId])).toEqual([[factB.id, 'DEPENDS_ON', factA.id]]);
      expect(svc.recallHistory(undefined, { limit: 1 })[0]?.query).toBe('staging database');
    } finally {
      await svc.close();
    }
  });

  it('answers bad input with a typed tool error and writes nothing', async () => {
    const before = factCount(home);
    const cases: [string, Record<string, unknown>, string][] = [
      ['memory_store', { text: '' }, 'memory_store.text'],
      ['memory_store', { text: 'x', importance: 3 }, 'memory_store.importance'],
      ['memory_store', { text: 'x', category: 'gossip' }, 'memory_store.category'],
      ['memory_store', { text: 'x', scopeAgentId: 'someone-else' }, 'memory_store'],
      ['memory_store', { text: 'x', scope: 'agent' }, 'memory_store.scope'],
      ['memory_link', { sourceId: 'fact_nope', targetId: 'also-not-an-id' }, 'memory_link'],
      ['memory_recall', { query: 'x', limit: 0 }, 'memory_recall.limit'],
      ['credential_get', {}, 'credential_get.service'],
      // Terminal escape injection (issue 20, part 3): control characters and bidi overrides are refused.
      ['memory_store', { text: 'title \u001b]0;pwned\u0007 here' }, 'memory_store.text'],
      ['memory_store', { text: 'erase\b\b\b\bme' }, 'memory_store.text'],
      ['memory_store', { text: 'nul \u0000 byte' }, 'memory_store.text'],
      ['memory_store', { text: 'admin \u202egnp.exe' }, 'memory_store.text'],
      ['memory_store', { text: 'clean text', entity: 'host\u001b[2J' }, 'memory_store.entity'],
      ['memory_store', { text: 'clean text', tags: ['ok', 'bell\u0007'] }, 'memory_store.tags.1'],
    ];
    for (const [name, args, path] of cases) {
      const r = await call(s, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      const err = (r.structuredContent as { error: { code: string; message: string } }).error;
      expect(err.code, `${name} ${JSON.stringify(args)}`).toBe('MEM_ERR_INVALID_INPUT');
      expect(err.message).toContain(path);
      expect(text(r)).toMatch(/^MEM_ERR_INVALID_INPUT: /);
    }
    expect(factCount(home)).toBe(before);

    const missing = await call(s, 'credential_get', { service: 'nowhere.example' });
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as { error: { code: string } }).error.code).toBe('MEM_ERR_CREDENTIAL_NOT_FOUND');

    const unknownLink = await call(s, 'memory_link', { sourceId: 'fact_01J0000000000000000000000A', targetId: 'fact_01J0000000000000000000000B' });
    expect(unknownLink.isError).toBe(true);
    expect((unknownLink.structuredContent as { error: { code: string } }).error.code).toMatch(/^MEM_ERR_\w*NOT_FOUND$/);
  });

  it('refuses an unknown tool as a protocol error', async () => {
    await expect(s.client.callTool({ name: 'memory_forget_everything', arguments: {} })).rejects.toBeInstanceOf(McpError);
  });

  it('prints nothing but protocol messages on stdout, also while the embedding model loads in its workers', async () => {
    await expect.poll(() => s.stderr(), { timeout: 30_000 }).toMatch(/semantic search (on|unavailable)/);
    expect(s.stderr()).toContain('semantic search on');
    const r = await call(s, 'memory_recall', { query: 'where do the backups of the stage database go?' });
    expect(r.structuredContent).toMatchObject({ mode: 'hybrid' });
    expect(s.stderr()).toContain('hybrid-mem mcp: serving');
    expect(s.wireErrors).toEqual([]);
  }, 40_000);
});

describe('hybrid-mem mcp with a plugin that prints on stdout', () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'hm-mcp-plugin-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('runs the store hooks and keeps the plugin worker\'s console.log off the protocol stream', async () => {
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
    const install = spawnSync(process.execPath, [BIN, 'plugin', 'install', fixture('recorder'), '--local', '--plugin-config', '{"stdoutNoise":true}'], { env, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    const s = await connect(home);
    try {
      const r = await call(s, 'memory_store', { text: 'The build server is ci-7.internal' });
      expect(r.structuredContent).toMatchObject({ fact: { tags: ['seen-by-recorder'] } });
      await expect.poll(() => s.stderr()).toContain('recorder saw: The build server is ci-7.internal');
      expect(s.stderr()).toContain('recorder says hello on stdout');
      expect(s.wireErrors).toEqual([]);
    } finally {
      await s.close();
      cleanupFixtures();
    }
  }, 60_000);
});

describe('hybrid-mem mcp: the caller comes from the configuration', () => {
  let home: string;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'hm-mcp-caller-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('refuses a bad caller before speaking: exit 1, the error on stderr, nothing on stdout', () => {
    const env = { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' };
    for (const [args, text] of [
      [['mcp', '--role', 'operator'], 'MEM_ERR_INVALID_INPUT: --role: expected one of orchestrator, specialist'],
    ] as const) {
      const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', input: '' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(text);
    }
  });

  it('defaults to specialist (no other agent\'s facts, no agent scope without an id); agent.role or --role orchestrator still applies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-mcp-role-'));
    try {
      const plain = join(dir, 'plain.json');
      const orchestrator = join(dir, 'orchestrator.json');
      writeFileSync(plain, JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { embedding: { enabled: false } } } } } }));
      writeFileSync(orchestrator, JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { agent: { role: 'orchestrator' }, embedding: { enabled: false } } } } } }));
      const svc = MemoryService.open({ config: resolveConfig({ embedding: { enabled: false } }, { env: { HYBRID_MEM_HOME: dir } }) });
      svc.memoryStore({ text: 'The release agent tags builds on Fridays' });
      svc.memoryStore({ text: 'The reviewer agent prefers squash merges', scope: 'agent', scopeAgentId: 'reviewer' });
      await svc.close();
      const seen = async (session: Session): Promise<string[]> =>
        ((await call(session, 'memory_recall', { query: 'agent' })).structuredContent as { results: { fact: { text: string } }[] }).results.map((x) => x.fact.text).sort();

      const byDefault = await connect(dir, [], plain);
      try {
        expect(await seen(byDefault)).toEqual(['The release agent tags builds on Fridays']);
        const agentScoped = await call(byDefault, 'memory_store', { text: 'A note for my agent', scope: 'agent' });
        expect(agentScoped.isError).toBe(true);
        expect(text(agentScoped)).toMatch(/^MEM_ERR_INVALID_INPUT: memory_store.scope: .*agent scope needs an agent id/);
        expect(byDefault.stderr()).toMatch(/serving .* as specialist \(session mcp-/);
      } finally {
        await byDefault.close();
      }
      for (const [args, config] of [[[], orchestrator], [['--role', 'orchestrator'], plain]] as const) {
        const lead = await connect(dir, [...args], config);
        try {
          expect(await seen(lead)).toEqual(['The release agent tags builds on Fridays', 'The reviewer agent prefers squash merges']);
          expect(lead.stderr()).toMatch(/serving .* as orchestrator \(session mcp-/);
        } finally {
          await lead.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a specialist sees its own agent scope and not another agent\'s; credential_get returns its vault secret', async () => {
    const config = join(home, 'config.json');
    writeFileSync(config, JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { agent: { role: 'specialist', id: 'coder', sessionId: 's-1' }, embedding: { enabled: false } } } } } }));
    const svc = MemoryService.open({ config: resolveConfig({ embedding: { enabled: false } }, { env: { HYBRID_MEM_HOME: home, HYBRID_MEM_VAULT_KEY: KEY } }), env: { HYBRID_MEM_VAULT_KEY: KEY } });
    svc.memoryStore({ text: 'The reviewer agent prefers squash merges', scope: 'agent', scopeAgentId: 'reviewer' });
    svc.vaultPut({ service: 'registry.internal', type: 'api_key', secret: 'rk-123456', scope: 'agent', scopeAgentId: 'coder' });
    await svc.close();

    const coder = await connect(home, [], config);
    try {
      const stored = await call(coder, 'memory_store', { text: 'The coder agent formats with prettier', scope: 'agent' });
      expect(stored.structuredContent).toMatchObject({ fact: { scope: 'agent' } });
      const mine = await call(coder, 'memory_recall', { query: 'agent' });
      const texts = (mine.structuredContent as { results: { fact: { text: string } }[] }).results.map((r) => r.fact.text);
      expect(texts).toContain('The coder agent formats with prettier');
      expect(texts).not.toContain('The reviewer agent prefers squash merges');
      const secret = await call(coder, 'credential_get', { service: 'registry.internal' });
      expect(secret.structuredContent).toEqual({ service: 'registry.internal', type: 'api_key', secret: 'rk-123456' });
    } finally {
      await coder.close();
    }
    // The flags override the file: as another specialist the vault entry is not visible.
    const other = await connect(home, ['--agent', 'reviewer'], config);
    try {
      const r = await call(other, 'credential_get', { service: 'registry.internal' });
      expect(r.isError).toBe(true);
      const texts = ((await call(other, 'memory_recall', { query: 'agent' })).structuredContent as { results: { fact: { text: string } }[] }).results.map((x) => x.fact.text);
      expect(texts).toEqual(['The reviewer agent prefers squash merges']);
    } finally {
      await other.close();
    }
  }, 60_000);
});
