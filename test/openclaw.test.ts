/**
 * The OpenClaw plugin in the real gateway: openclaw 2026.9.6 installed on Node 24 (test cache), our
 * plugin folder (openclaw/) loaded through OpenClaw's own loader from plugins.load.paths with its config under
 * plugins.entries.hybrid-mem, and whole agent turns run with OpenClaw's public CLI against a mock
 * OpenAI-compatible model on 127.0.0.1. The conversation holds a real ssh failure (captured from ssh
 * against a loopback sshd, test/fixtures/auth) for a host with stored credential facts: the model must
 * receive our hint at the head of the prompt, and never the secret. The dashboard answers while the
 * gateway runs and is gone after it stops; the agent tools run inside the gateway.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type ResolvedConfig } from '../src/config/resolve.js';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { MemoryService } from '../src/memory/service.js';
import { lastUserTexts, messageText, openclawModelConfig, startMockModel, type MockModel } from './support/mock-model.js';
import { INSTALL_TIMEOUT_MS, ROOT, ensureBuilt, nodeBinary, openclawDir, openclawEnv, supported } from './support/runtimes.js';

const CANARY = 'Canary-Ssh-Pw-5b7e1d9c3a';
const SSH_OUTPUT = readFileSync(join(ROOT, 'test/fixtures/auth/ssh-batchmode-denied.txt'), 'utf8');
const TOKEN = 'gateway-test-token-1234';

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

describe.skipIf(!supported)('OpenClaw plugin in the real gateway (openclaw on Node 24)', () => {
  let dir: string;
  let openclaw: string;
  let env: Record<string, string>;
  let mock: MockModel;
  let memoryConfig: ResolvedConfig;
  let credentialFactId: string;
  let gateway: ChildProcess | null = null;
  let gatewayOut = '';
  let gatewayExit: Promise<number | null>;

  /** Run the openclaw CLI. Output goes to files: OpenClaw exits with process.exit, which can cut a pipe short. */
  let runs = 0;
  const oc = (args: string[], extraEnv: Record<string, string> = {}) =>
    new Promise<{ status: number | null; stdout: string; stderr: string; seconds: number }>((done) => {
      const base = join(dir, `oc-${++runs}`);
      const out = openSync(`${base}.out`, 'w');
      const err = openSync(`${base}.err`, 'w');
      const started = Date.now();
      const child = spawn(env.NODE_BIN as string, [openclaw, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', out, err] });
      const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
      child.on('exit', (status) => {
        clearTimeout(timer);
        closeSync(out);
        closeSync(err);
        done({ status, stdout: readFileSync(`${base}.out`, 'utf8'), stderr: readFileSync(`${base}.err`, 'utf8'), seconds: (Date.now() - started) / 1000 });
      });
    });

  beforeAll(async () => {
    const node24 = nodeBinary(24);
    openclaw = join(openclawDir(), 'openclaw.mjs');
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hm-openclaw-'));
    for (const d of ['home', 'state', 'workspace']) mkdirSync(join(dir, d));
    mock = await startMockModel();
    const dataDir = join(dir, 'memory');
    const pluginConfig = { dataDir, dashboard: { port: 0 }, embedding: { enabled: false } };
    memoryConfig = resolveConfig(pluginConfig, { env: {} });
    // Memory the agent will need: a credential fact about the failing host (with a secret in it) and a vault entry.
    const svc = MemoryService.open({ config: memoryConfig, env: {} });
    credentialFactId = svc.memoryStore({ text: `SSH to 127.0.0.1 as hmfixture: use the key ~/.ssh/hmfixture_ed25519; fallback password ${CANARY}`, category: 'technical', entity: '127.0.0.1', tags: ['ssh', 'credential'] }).fact.id;
    svc.vaultPut({ service: '127.0.0.1', type: 'password', secret: CANARY });
    svc.memoryStore({ text: 'The release checklist lives in docs/release.md', category: 'fact' });
    await svc.close();

    const gatewayPort = await freePort();
    const config = {
      gateway: { mode: 'local', port: gatewayPort, bind: 'loopback', auth: { mode: 'token', token: TOKEN } },
      ...openclawModelConfig(mock.baseUrl, join(dir, 'workspace')),
      plugins: {
        allow: ['hybrid-mem'],
        load: { paths: [join(ROOT, 'openclaw')] },
        entries: { 'hybrid-mem': { enabled: true, hooks: { allowConversationAccess: true }, config: pluginConfig } },
      },
    };
    writeFileSync(join(dir, 'openclaw.json'), JSON.stringify(config, null, 2));
    env = openclawEnv(dir, node24, { NODE_BIN: node24, OPENCLAW_GATEWAY_TOKEN: TOKEN });
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads through OpenClaw\'s loader with its hooks, the agent tools and the CLI command', async () => {
    const r = await oc(['plugins', 'inspect', 'hybrid-mem', '--runtime', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimStart().startsWith('{'), `stdout: ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(-1500)}`).toBe(true);
    const info = JSON.parse(r.stdout) as { plugin: { status: string; toolNames: string[]; source: string }; typedHooks: { name: string }[]; cliCommands: string[]; services: unknown[] };
    expect(info.plugin.status).toBe('loaded');
    expect(info.plugin.source).toBe(join(ROOT, 'openclaw/index.js'));
    expect(info.plugin.toolNames).toEqual([...AGENT_TOOL_NAMES]);
    expect(info.typedHooks.map((h) => h.name)).toEqual(expect.arrayContaining(['before_prompt_build', 'agent_end']));
    expect(info.cliCommands).toContain('hybrid-mem');
    expect(JSON.stringify(info.services)).toContain('hybrid-mem');
    expect(r.stderr).not.toMatch(/hybrid-mem.*(error|failed)/i);
  }, 240_000);

  it('starts the memory service and the dashboard with the gateway (node:http on Node 24)', async () => {
    gateway = spawn(env.NODE_BIN as string, [openclaw, 'gateway', 'run'], { env });
    gateway.stdout?.on('data', (d: Buffer) => (gatewayOut += d.toString()));
    gateway.stderr?.on('data', (d: Buffer) => (gatewayOut += d.toString()));
    gatewayExit = new Promise((done) => gateway?.on('exit', (code) => done(code)));
    await expect.poll(() => existsSync(join(memoryConfig.dataDir, 'dashboard.json')), { timeout: 120_000, interval: 250 }).toBe(true);
    const record = JSON.parse(readFileSync(join(memoryConfig.dataDir, 'dashboard.json'), 'utf8')) as { url: string; adapter: string; pid: number };
    expect(record.adapter).toBe('node');
    expect(record.pid).toBe(gateway.pid);
    expect(((await (await fetch(`${record.url}/api/health`)).json()) as { service: string }).service).toBe('hybrid-mem');
  }, 180_000);

  it('`openclaw hybrid-mem dashboard` prints the URL, and it answers while the gateway runs', async () => {
    const r = await oc(['hybrid-mem', 'dashboard']);
    expect(r.status, r.stderr).toBe(0);
    const url = /http:\/\/127\.0\.0\.1:\d+\/graph/.exec(r.stdout)?.[0];
    expect(url, r.stdout).toBeDefined();
    const page = await fetch(url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const stats = (await (await fetch((url as string).replace('/graph', '/graphql'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ stats { totalFacts } }"}' })).json()) as { data: { stats: { totalFacts: number } } };
    expect(stats.data.stats.totalFacts).toBeGreaterThanOrEqual(3);
  }, 240_000);

  it('an agent turn whose conversation holds a real ssh "Permission denied" gets our hint at the head of the prompt', async () => {
    const message = join(dir, 'message.txt');
    writeFileSync(message, `The deploy step failed. Here is what ssh printed:\n${SSH_OUTPUT}\nWhat should I do?`);
    const before = mock.requests.length;
    const r = await oc(['agent', '--agent', 'main', '--session-id', 'ssh-turn', '--message-file', message, '--json']);
    expect(r.status, `${r.stderr}\n${gatewayOut.slice(-3000)}`).toBe(0);
    const sent = mock.requests.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const prompt = lastUserTexts(sent[0] as (typeof sent)[number])[0] as string;
    // OpenClaw puts "[<date>] " before the context a plugin prepends, then the user's text.
    const head = prompt.replace(/^\[[^\]]*\]\s*/, '');
    expect(head.startsWith('💡 Memory has credentials for `127.0.0.1`:\n1. ')).toBe(true);
    expect(head).toContain('~/.ssh/hmfixture_ed25519');
    expect(head).toContain('use `credential_get(service=127.0.0.1)` to retrieve.');
    expect(head.indexOf('💡')).toBeLessThan(head.indexOf('The deploy step failed.'));
    for (const req of mock.requests) expect(JSON.stringify(req)).not.toContain(CANARY);

    // The recall was recorded by the gateway's memory service, as the caller OpenClaw named.
    const svc = MemoryService.open({ config: memoryConfig, env: {} });
    try {
      const rec = svc.recallHistory(undefined, { limit: 5 }).find((e) => e.kind === 'auth_failure');
      expect(rec).toMatchObject({ target: '127.0.0.1', scores: expect.arrayContaining([expect.objectContaining({ factId: credentialFactId })]) });
    } finally {
      await svc.close();
    }
  }, 240_000);

  it('a failure in an earlier tool result of the conversation (the gateway\'s exec tool) gets the hint on the next turn', async () => {
    // Turn 1: the model runs a command with OpenClaw's own exec tool; its output (the captured ssh failure)
    // becomes a tool result in the session. Turn 2: the hook finds the failure among the recent messages.
    const fixture = join(ROOT, 'test/fixtures/auth/ssh-batchmode-denied.txt');
    const first = await oc(['agent', '--agent', 'main', '--session-id', 'exec-history', '-m', `CALLEXEC:tail -n 1 ${fixture} >&2; exit 255`, '--json']);
    expect(first.status, first.stderr).toBe(0);
    const toolOutput = mock.requests.flatMap((q) => q.messages).filter((m) => m.role === 'tool').map((m) => messageText(m.content)).join('\n');
    expect(toolOutput).toContain('hmfixture@127.0.0.1: Permission denied (publickey,password).');
    const before = mock.requests.length;
    const second = await oc(['agent', '--agent', 'main', '--session-id', 'exec-history', '-m', 'It did not work, try another way', '--json']);
    expect(second.status, second.stderr).toBe(0);
    const prompt = lastUserTexts(mock.requests[before] as (typeof mock.requests)[number])[0] as string;
    expect(prompt.replace(/^\[[^\]]*\]\s*/, '').startsWith('💡 Memory has credentials for `127.0.0.1`:')).toBe(true);
    expect(prompt).toContain('It did not work, try another way');
  }, 480_000);

  it('a turn without a failure gets no hint, and gets the memories relevant to its prompt (autoRecall.relevant)', async () => {
    const before = mock.requests.length;
    const r = await oc(['agent', '--agent', 'main', '--session-id', 'quiet-turn', '-m', 'Summarise the release checklist please', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const prompt = lastUserTexts(mock.requests[before] as (typeof mock.requests)[number]).join('\n');
    expect(prompt).toContain('Summarise the release checklist please');
    expect(prompt).not.toContain('Memory has credentials');
    const block = /<relevant-memories>\n[\s\S]*?\n<\/relevant-memories>/.exec(prompt)?.[0] ?? '';
    expect(block).toMatch(/^- \[[^\]]+\] The release checklist lives in docs\/release\.md \(fact, /m);
    expect(prompt.indexOf('<relevant-memories>')).toBeLessThan(prompt.indexOf('Summarise the release checklist please'));
    // Recorded as a recall of kind 'relevant' for the session OpenClaw named.
    const svc = MemoryService.open({ config: memoryConfig, env: {} });
    try {
      expect(svc.recallHistory(undefined, { limit: 10 }).find((e) => e.kind === 'relevant')).toMatchObject({ query: expect.stringContaining('Summarise the release checklist please') });
    } finally {
      await svc.close();
    }
  }, 240_000);

  it('a turn that states a decision is captured after it ends; a later turn in a new session gets it as a relevant memory', async () => {
    const first = await oc(['agent', '--agent', 'main', '--session-id', 'capture-1', '-m', 'from now on the billing service deploys with Argo CD', '--json']);
    expect(first.status, first.stderr).toBe(0);
    const before = mock.requests.length;
    const second = await oc(['agent', '--agent', 'main', '--session-id', 'capture-2', '-m', 'how does the billing service deploy these days?', '--json']);
    expect(second.status, second.stderr).toBe(0);
    const prompt = lastUserTexts(mock.requests[before] as (typeof mock.requests)[number]).join('\n');
    expect(prompt).toMatch(/<relevant-memories>\n[\s\S]*- \[fact_[^\]]+\] From now on the billing service deploys with Argo CD \(decision, /);
    const svc = MemoryService.open({ config: memoryConfig, env: {} });
    try {
      const captured = svc.listFacts({}, { role: 'specialist', agentId: 'main', sessionId: null }).find((f) => f.text.includes('Argo CD'));
      expect(captured).toMatchObject({ source: 'auto-capture', category: 'decision', scope: { kind: 'agent', agentId: 'main' } });
      // Both show in the graph app's feed: the fact stored and the recall that gave it to the next turn.
      const kinds = svc.db.prepare("SELECT kind FROM events WHERE kind IN ('fact.stored', 'recall') AND payload LIKE ? ORDER BY seq").pluck().all(`%${captured?.id}%`);
      expect(kinds).toEqual(['fact.stored', 'recall']);
    } finally {
      await svc.close();
    }
  }, 480_000);

  it('sessions OpenClaw saved, read from its own store, go through `hybrid-mem capture`: the user\'s decision, never the tool output', () => {
    // OpenClaw keeps each session's events in its agent database; a user exports them with sqlite3 (docs/cli.md).
    const agentDb = new Database(join(dir, 'state', 'agents', 'main', 'agent', 'openclaw-agent.sqlite'), { readonly: true });
    let events: string[];
    try {
      events = agentDb.prepare("SELECT event_json FROM transcript_events WHERE session_id IN ('exec-history', 'capture-1') ORDER BY session_id, seq").pluck().all() as string[];
    } finally {
      agentDb.close();
    }
    expect(events.some((e) => e.includes('"toolResult"'))).toBe(true);
    const home = join(dir, 'capture-home');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'hybrid-mem.js'), '--json', 'capture', '--dry-run'], { input: events.join('\n'), env: { ...process.env, HYBRID_MEM_HOME: home }, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const texts = (JSON.parse(r.stdout) as { decisions: { text: string }[] }).decisions.map((d) => d.text);
    expect(texts).toContainEqual(expect.stringMatching(/^From now on the billing service deploys with Argo CD/));
    expect(texts.join('\n')).not.toMatch(/Permission denied|hmfixture|CALLEXEC|2026-\d\d-\d\d/);
  }, 180_000);

  it('the model calls our agent tools inside the gateway: memory_store, then memory_recall finds it', async () => {
    const store = await oc(['agent', '--agent', 'main', '--session-id', 'tools-turn', '-m', 'CALLTOOL:memory_store {"text":"The shop deploys from the release branch","category":"decision","entity":"shop"}', '--json']);
    expect(store.status, store.stderr).toBe(0);
    const storeResult = mock.requests.flatMap((q) => q.messages).filter((m) => m.role === 'tool').map((m) => messageText(m.content));
    expect(storeResult.join('\n')).toMatch(/Stored fact_[0-9A-Z]+\./);

    const recall = await oc(['agent', '--agent', 'main', '--session-id', 'tools-turn', '-m', 'CALLTOOL:memory_recall {"query":"which branch does the shop deploy from"}', '--json']);
    expect(recall.status, recall.stderr).toBe(0);
    const toolTexts = mock.requests.flatMap((q) => q.messages).filter((m) => m.role === 'tool').map((m) => messageText(m.content));
    expect(toolTexts.join('\n')).toMatch(/1\. \[decision\] The shop deploys from the release branch \(fact_/);

    // Input outside the tool's JSON Schema is refused by OpenClaw before our code runs; input the schema
    // allows but our rules refuse comes back as our typed error. The turn goes on either way.
    const toolResults = (): string => mock.requests.flatMap((q) => q.messages).filter((m) => m.role === 'tool').map((m) => messageText(m.content)).join('\n');
    const outOfSchema = await oc(['agent', '--agent', 'main', '--session-id', 'tools-turn', '-m', 'CALLTOOL:memory_store {"text":"x","importance":7}', '--json']);
    expect(outOfSchema.status, outOfSchema.stderr).toBe(0);
    expect(toolResults()).toMatch(/importance: must be <= 1/);
    const badIds = await oc(['agent', '--agent', 'main', '--session-id', 'tools-turn', '-m', 'CALLTOOL:memory_link {"sourceId":"fact_nope","targetId":"not-a-fact"}', '--json']);
    expect(badIds.status, badIds.stderr).toBe(0);
    expect(toolResults()).toMatch(/MEM_ERR_INVALID_INPUT: .*memory_link\.sourceId/);
    const noSecret = await oc(['agent', '--agent', 'main', '--session-id', 'tools-turn', '-m', 'CALLTOOL:credential_get {"service":"nowhere.example"}', '--json']);
    expect(noSecret.status, noSecret.stderr).toBe(0);
    expect(toolResults()).toContain('MEM_ERR_CREDENTIAL_NOT_FOUND');

    const svc = MemoryService.open({ config: memoryConfig, env: {} });
    try {
      const facts = svc.listFacts({ entity: 'shop' });
      expect(facts.map((f) => [f.text, f.source, f.scope.kind])).toEqual([['The shop deploys from the release branch', 'tool', 'global']]);
      expect(svc.listFacts().some((f) => f.text === 'x')).toBe(false);
    } finally {
      await svc.close();
    }
  }, 480_000);

  it('shuts down with the gateway: the dashboard stops answering and its record is removed', async () => {
    const url = (JSON.parse(readFileSync(join(memoryConfig.dataDir, 'dashboard.json'), 'utf8')) as { url: string }).url;
    const stopping = Date.now();
    gateway?.kill('SIGTERM');
    expect(await gatewayExit).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(15_000);
    gateway = null;
    expect(existsSync(join(memoryConfig.dataDir, 'dashboard.json'))).toBe(false);
    await expect(fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    const r = await oc(['hybrid-mem', 'dashboard']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no dashboard server is running');
  }, 240_000);

  it('without a gateway, a one-shot `openclaw agent --local` turn gets the hint too', async () => {
    const message = join(dir, 'message-local.txt');
    writeFileSync(message, `ssh keeps failing:\n${SSH_OUTPUT}`);
    const before = mock.requests.length;
    const r = await oc(['agent', '--local', '--agent', 'main', '--session-id', 'local-turn', '--message-file', message, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const prompt = lastUserTexts(mock.requests[before] as (typeof mock.requests)[number])[0] as string;
    expect(prompt.replace(/^\[[^\]]*\]\s*/, '').startsWith('💡 Memory has credentials for `127.0.0.1`:')).toBe(true);
    expect(existsSync(join(memoryConfig.dataDir, 'dashboard.json'))).toBe(false);
  }, 240_000);
});
