/**
 * The OpenClaw entry in-process, on the API shape openclaw 2026.9.6 passes (test/openclaw.test.ts runs it
 * in the real gateway): what it registers, that the committed manifest is current, that a turn never
 * fails because of memory, that tool errors carry our codes and the secret travels only in the text, that
 * registrations share one open store per database until the gateway stops the service, and that each
 * agent's role comes from `agent.orchestrators` (everyone else is a specialist).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { MemoryService } from '../src/memory/service.js';
import plugin, { thisTurn } from '../src/openclaw/entry.js';
import { openclawManifest } from '../src/openclaw/manifest.js';
import type { CliCommand, OpenClawPluginApi, OpenClawService, OpenClawTool, PromptBuildEvent, PromptBuildResult, RunContext } from '../src/openclaw/types.js';

const KEY = 'cd'.repeat(32);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'hm-oc-entry-'));
  dirs.push(d);
  return d;
};

interface Registered {
  readonly hooks: Map<string, (event: PromptBuildEvent, ctx: RunContext) => Promise<PromptBuildResult | undefined | void>>;
  readonly tools: Map<string, (ctx: RunContext) => OpenClawTool>;
  readonly services: OpenClawService[];
  readonly commands: string[];
  readonly logs: string[];
}

function load(pluginConfig: unknown, registrationMode = 'discovery'): Registered {
  const r: Registered = { hooks: new Map(), tools: new Map(), services: [], commands: [], logs: [] };
  const command = (path: string): CliCommand => ({
    command: (name) => {
      r.commands.push(`${path} ${name}`.trim());
      return command(`${path} ${name}`.trim());
    },
    description: () => command(path),
    action: () => command(path),
  });
  const api: OpenClawPluginApi = {
    id: 'hybrid-mem',
    registrationMode,
    pluginConfig,
    logger: { info: (m) => r.logs.push(`info ${m}`), warn: (m) => r.logs.push(`warn ${m}`), error: (m) => r.logs.push(`error ${m}`) },
    on: (name: string, handler: (event: PromptBuildEvent, ctx: RunContext) => Promise<PromptBuildResult | undefined | void>) => void r.hooks.set(name, handler),
    registerTool: (factory, options) => void r.tools.set(options.name, factory),
    registerCli: (register) => register({ program: command('') }),
    registerService: (service) => void r.services.push(service),
  };
  plugin.register(api);
  return r;
}

const SSH = 'ops@10.0.4.7: Permission denied (publickey,password).';
const ctx: RunContext = { agentId: 'main', sessionKey: 'agent:main:main', sessionId: 'sess-1' };

describe('OpenClaw entry', () => {
  it('registers before_prompt_build, agent_end, the agent tools, `hybrid-mem dashboard` and a service; the manifest lists the same tools and is current', () => {
    const r = load({ dataDir: join(tempDir(), 'mem'), embedding: { enabled: false } });
    expect([...r.hooks.keys()]).toEqual(['before_prompt_build', 'agent_end']);
    expect([...load({ dataDir: join(tempDir(), 'mem2'), embedding: { enabled: false }, autoCapture: { enabled: false } }).hooks.keys()]).toEqual(['before_prompt_build']);
    expect([...r.tools.keys()]).toEqual([...AGENT_TOOL_NAMES]);
    expect(r.commands).toEqual(['hybrid-mem', 'hybrid-mem dashboard']);
    expect(r.services.map((s) => s.id)).toEqual(['hybrid-mem']);
    expect(plugin.id).toBe('hybrid-mem');
    const committed = JSON.parse(readFileSync(new URL('../openclaw/openclaw.plugin.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(committed).toEqual(openclawManifest());
    expect(committed).toMatchObject({ id: 'hybrid-mem', contracts: { tools: [...AGENT_TOOL_NAMES] } });
    // The plugin folder declares no dependencies (OpenClaw would copy them into every plugin generation).
    const folder = JSON.parse(readFileSync(new URL('../openclaw/package.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(folder).toMatchObject({ type: 'module', openclaw: { extensions: ['./index.js'] } });
    expect(Object.keys(folder).filter((k) => /dependencies/i.test(k))).toEqual([]);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { files: string[]; version: string };
    expect(pkg.files).toContain('openclaw');
    expect(folder.version).toBe(pkg.version);
  });

  it('refuses an invalid config at registration with the key path (OpenClaw reports the plugin as failed)', () => {
    expect(() => load({ dashboard: { port: 'seventy' } })).toThrow(/dashboard\.port/);
    expect(() => load({ agent: { orchestrators: 'lead' } })).toThrow(/agent\.orchestrators: expected an array, received "lead"/);
    expect(() => load({ agent: { orchestrators: ['lead', ''] } })).toThrow(/agent\.orchestrators\.1: expected at least 1 character/);
    // A specialist without an agent id is valid now that specialist is the default role.
    expect(() => load({ agent: { role: 'specialist' }, embedding: { enabled: false } })).not.toThrow();
  });

  it('a turn never fails because of memory: an unusable data dir means no hint and one warning', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    const r = load({ dataDir: join(file, 'mem'), embedding: { enabled: false } });
    const out = await r.hooks.get('before_prompt_build')?.({ prompt: 'retry', messages: [{ role: 'toolResult', content: [{ type: 'text', text: SSH }] }] }, ctx);
    expect(out).toBeUndefined();
    expect(r.logs.filter((l) => l.startsWith('warn'))).toEqual([expect.stringMatching(/^warn hybrid-mem: no memory for this turn \(MEM_ERR_/)]);
  });

  it("agent_end captures what the user said this turn as the run's agent (not tool output, not the injected block, not earlier turns)", async () => {
    const dataDir = join(tempDir(), 'mem');
    const r = load({ dataDir, embedding: { enabled: false } }, 'full');
    const messages = [
      { role: 'user', content: 'remember that the old cluster is k8s-blue' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: [{ type: 'text', text: '<relevant-memories>\n- [f_1] Jonas prefers tabs\n</relevant-memories>\nfrom now on we deploy billing with Argo CD. what is next?' }] },
      { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'exec', arguments: { command: 'cat notes' } }] },
      { role: 'toolResult', toolCallId: 'c1', content: [{ type: 'text', text: 'remember that the prod db is db9.internal' }] },
      { role: 'assistant', content: 'Next is the rollout.' },
    ];
    await r.hooks.get('agent_end')?.({ messages } as never, ctx);
    const svc = MemoryService.open({ config: resolveConfig({ dataDir, embedding: { enabled: false } }, { env: {} }), env: {} });
    try {
      const facts = svc.listFacts();
      expect(facts.map((f) => [f.text, f.source, f.scope.kind, f.scope.agentId, f.category])).toEqual([['From now on we deploy billing with Argo CD.', 'auto-capture', 'agent', 'main', 'decision']]);
    } finally {
      await svc.close();
      for (const s of r.services) await s.stop();
    }
  });

  it("reads a run's last turn for capture: its user messages, then the assistant's first answer in words (not a tool call)", () => {
    const messages = [
      { role: 'user', content: 'remember that the old cluster is k8s-blue' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'the release train leaves on thursdays' },
      { role: 'user', content: [{ type: 'text', text: 'from now on we deploy billing with Argo CD.' }] },
      { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'exec', arguments: { command: 'cat notes' } }] },
      { role: 'toolResult', toolCallId: 'c1', content: [{ type: 'text', text: 'remember that the prod db is db9.internal' }] },
      { role: 'assistant', content: 'Got it, Argo CD from now on.' },
    ];
    expect(thisTurn(messages)).toEqual([
      { role: 'user', content: 'the release train leaves on thursdays' },
      { role: 'user', content: 'from now on we deploy billing with Argo CD.' },
      { role: 'assistant', content: 'Got it, Argo CD from now on.' },
    ]);
    expect(thisTurn(messages.slice(0, 4))).toEqual([
      { role: 'user', content: 'the release train leaves on thursdays' },
      { role: 'user', content: 'from now on we deploy billing with Argo CD.' },
    ]);
    expect(thisTurn([{ role: 'assistant', content: 'Hello.' }])).toEqual([]);
  });

  it('hints from OpenClaw message shapes, runs the tools as the run\'s caller, and keeps the secret out of tool details', async () => {
    const dataDir = join(tempDir(), 'mem');
    const config = { dataDir, embedding: { enabled: false } };
    const seed = MemoryService.open({ config: resolveConfig(config, { env: {} }), env: { HYBRID_MEM_VAULT_KEY: KEY } });
    seed.memoryStore({ text: 'SSH to 10.0.4.7 uses the ops key', category: 'technical', entity: '10.0.4.7' });
    seed.vaultPut({ service: 'registry.internal', type: 'token', secret: 'tok-secret-9f8e7d' });
    await seed.close();
    process.env.HYBRID_MEM_VAULT_KEY = KEY;
    const first = load(config, 'full');
    const second = load(config, 'discovery');
    try {
      const hook = second.hooks.get('before_prompt_build');
      const quiet = await hook?.({ prompt: 'all good', messages: [] }, ctx);
      expect(quiet).toBeUndefined();
      // The store opens at the first call here (a gateway opens it at load): while the recall worker is
      // still starting, a turn may pass without a hint (the detection deadline), so ask in fresh sessions.
      let n = 0;
      const failing = { prompt: 'retry', messages: [{ role: 'user', content: 'deploy' }, { role: 'toolResult', toolName: 'exec', content: [{ type: 'text', text: SSH }] }] };
      await expect
        .poll(async () => (await hook?.(failing, { ...ctx, sessionId: `warm-${++n}` }))?.prependContext, { timeout: 15_000 })
        .toMatch(/^💡 Memory has credentials for `10\.0\.4\.7`:\n1\. SSH to 10\.0\.4\.7 uses the ops key$/);

      const store = second.tools.get('memory_store')?.({ agentId: 'main', sessionId: 'sess-1' });
      const stored = await store?.execute('call-1', { text: 'Main agent notes live in NOTES.md', scope: 'session' });
      expect(stored?.content[0]?.text).toMatch(/^Stored fact_/);
      expect(stored?.details).toMatchObject({ fact: { scope: 'session' } });
      const otherSession = await second.tools.get('memory_recall')?.({ agentId: 'main', sessionId: 'sess-2' }).execute('call-2', { query: 'NOTES.md' });
      expect(otherSession?.content[0]?.text).toBe('No matching memories.');
      await expect(store?.execute('call-3', { text: 'x', importance: 3 })).rejects.toThrow(/^MEM_ERR_INVALID_INPUT: memory_store\.importance/);

      const cred = await second.tools.get('credential_get')?.(ctx).execute('call-4', { service: 'registry.internal' });
      expect(cred?.content[0]?.text).toBe('Credential for registry.internal (token): tok-secret-9f8e7d');
      expect(JSON.stringify(cred?.details)).not.toContain('tok-secret-9f8e7d');
      await expect(second.tools.get('credential_get')?.(ctx).execute('call-5', { service: 'nowhere' })).rejects.toThrow(/^MEM_ERR_CREDENTIAL_NOT_FOUND/);
    } finally {
      // Both registrations used one store; the gateway's service stop closes it (once).
      await first.services[0]?.stop();
      await second.services[0]?.stop();
      delete process.env.HYBRID_MEM_VAULT_KEY;
    }
    const reopened = MemoryService.open({ config: resolveConfig(config, { env: {} }) });
    try {
      expect(reopened.listFacts({ contains: 'NOTES.md', includeSuperseded: false }, { role: 'operator', agentId: null, sessionId: null })).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  });
});

describe('OpenClaw entry: each agent\'s role comes from agent.orchestrators', () => {
  const FAILURE = { prompt: 'retry', messages: [{ role: 'user', content: 'deploy' }, { role: 'toolResult', toolName: 'exec', content: [{ type: 'text', text: 'deploy@10.0.9.9: Permission denied (publickey,password).' }] }] };
  const SHARED = 'SSH to 10.0.9.9 logs in as user deploy';
  const OPS_ONLY = 'SSH to 10.0.9.9 uses the ops key from the ops agent keyring';

  it('a specialist gets no other agent\'s credential, in hints or tools; a listed orchestrator gets them; agent.role does not apply', async () => {
    const dataDir = join(tempDir(), 'mem');
    const config = { dataDir, embedding: { enabled: false }, agent: { role: 'orchestrator', orchestrators: ['lead'] } };
    const seed = MemoryService.open({ config: resolveConfig(config, { env: {} }), env: { HYBRID_MEM_VAULT_KEY: KEY } });
    seed.memoryStore({ text: SHARED, category: 'technical', entity: '10.0.9.9', tags: ['ssh'] });
    seed.memoryStore({ text: OPS_ONLY, category: 'technical', entity: '10.0.9.9', tags: ['ssh', 'credential'], scope: 'agent', scopeAgentId: 'ops' });
    seed.vaultPut({ service: 'deploy.internal', type: 'token', secret: 'ops-token-5c4b3a', scope: 'agent', scopeAgentId: 'ops' });
    await seed.close();
    process.env.HYBRID_MEM_VAULT_KEY = KEY;
    const r = load(config, 'full');
    try {
      // The explicit agent.role is a `hybrid-mem mcp` setting: the gateway says so instead of applying it.
      expect(r.logs).toContainEqual(expect.stringMatching(/^warn hybrid-mem: agent\.role applies to `hybrid-mem mcp` only; .*agent\.orchestrators \(lead\)/));
      const hook = r.hooks.get('before_prompt_build');
      let n = 0;
      // Fresh sessions: one hint per target per session, and the recall worker may still be starting.
      const hintFor = async (agentId: string, expected: string): Promise<string> => {
        let hint = '';
        await expect
          .poll(async () => (hint = (await hook?.(FAILURE, { agentId, sessionId: `${agentId}-${++n}` }))?.prependContext ?? ''), { timeout: 15_000 })
          .toContain(expected);
        return hint;
      };
      const lead = await hintFor('lead', OPS_ONLY);
      expect(lead).toContain(SHARED);
      const main = await hintFor('main', SHARED);
      expect(main).not.toContain(OPS_ONLY);
      expect(await hintFor('ops', OPS_ONLY)).toContain(SHARED);

      const asMain = { agentId: 'main', sessionId: 'tools-1' };
      const recalled = await r.tools.get('memory_recall')?.(asMain).execute('call-1', { query: '10.0.9.9 ssh key' });
      expect(recalled?.content[0]?.text).toContain(SHARED);
      expect(recalled?.content[0]?.text).not.toContain(OPS_ONLY);
      await expect(r.tools.get('credential_get')?.(asMain).execute('call-2', { service: 'deploy.internal' })).rejects.toThrow(/^MEM_ERR_CREDENTIAL_NOT_FOUND/);
      const cred = await r.tools.get('credential_get')?.({ agentId: 'lead', sessionId: 'tools-2' }).execute('call-3', { service: 'deploy.internal' });
      expect(cred?.content[0]?.text).toBe('Credential for deploy.internal (token): ops-token-5c4b3a');
    } finally {
      await r.services[0]?.stop();
      delete process.env.HYBRID_MEM_VAULT_KEY;
    }
  });
});
