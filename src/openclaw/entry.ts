/**
 * The OpenClaw plugin. OpenClaw loads the plugin folder openclaw/ (manifest openclaw/openclaw.plugin.json),
 * whose dependency-free shim (openclaw/index.js) requires this module from the installed package once per
 * process, out of reach of OpenClaw's per-generation copying (see the shim). OpenClaw calls
 * `register(api)` synchronously, several times per process (once per plugin generation), with a
 * `registrationMode`: only 'full' runs agents. So `register` only validates the config and registers:
 *
 * - `before_prompt_build`: the auth-failure recall and the relevant memories; the hint, then the
 *   `<relevant-memories>` block, become the turn's `prependContext`. OpenClaw runs it only with
 *   `plugins.entries.hybrid-mem.hooks.allowConversationAccess: true`.
 * - `agent_end` (when autoCapture.enabled): the user's words of the turn go through auto-capture;
 * - the agent tools memory_store, memory_link, memory_recall, memory_capture, credential_get (the caller is the run's
 *   agent and session; its role comes from `agent.orchestrators`, see runCaller);
 * - `openclaw hybrid-mem dashboard`: prints the running dashboard's URL;
 * - a service: the gateway starts it (memory service, then the dashboard when dashboard.enabled) and stops
 *   it on shutdown.
 *
 * The memory service opens once per process and database (shared by every registration): eagerly in a
 * 'full' registration, else on first use.
 * A one-shot `openclaw agent --local` run uses the hook and the tools without the gateway's service.
 */
import { PLUGIN_ID } from '../config/defaults.js';
import { resolveConfig, type ResolvedConfig } from '../config/resolve.js';
import { toWire } from '../core/errors.js';
import { gatewayRole } from '../core/scope.js';
import type { Caller } from '../core/types.js';
import { AGENT_TOOLS, callAgentTool, type AgentTool } from '../memory/agent-tools.js';
import { parseCaller } from '../memory/inputs.js';
import { messageText } from '../recall/turn.js';
import type { GatewayMemory } from './runtime.js';
import type { OpenClawPluginApi, OpenClawTool, RunContext } from './types.js';

const DESCRIPTION = 'Durable local memory: hybrid recall, credential hints on auth failures, a memory-graph dashboard.';

/**
 * The caller of a hook or tool: the run's agent and session. Every agent of a gateway shares this one
 * config, so `agent.role` (one caller's role, for `hybrid-mem mcp`) does not apply here: an agent listed in
 * `agent.orchestrators` is an orchestrator, every other agent a specialist that sees only its own agent's
 * credentials.
 */
export function runCaller(config: ResolvedConfig, ctx: RunContext): Caller {
  const agentId = ctx.agentId || config.agent.id;
  return parseCaller({ role: gatewayRole(agentId, config.agent.orchestrators), agentId, sessionId: ctx.sessionId || ctx.sessionKey || config.agent.sessionId });
}

/**
 * The run's last turn as capture reads it: the newest run of user messages, and the assistant's first
 * answer in words after them (capture keeps nothing of it; how it answered, "Noted." or a draft, is a cue).
 */
export function thisTurn(messages: readonly unknown[]): { role: string; content: string }[] {
  const role = (m: unknown): string => (typeof m === 'object' && m !== null ? String((m as { role?: unknown }).role ?? '') : '');
  const last = messages.findLastIndex((m) => role(m) === 'user');
  if (last < 0) return [];
  let first = last;
  while (first > 0 && role(messages[first - 1]) === 'user') first--;
  const users = messages.slice(first, last + 1).map((m) => ({ role: 'user', content: messageText(m) })).filter((t) => t.content !== '');
  const reply = messages.slice(last + 1).find((m) => role(m) === 'assistant' && messageText(m).trim() !== '');
  return users.length === 0 ? [] : [...users, ...(reply ? [{ role: 'assistant', content: messageText(reply) }] : [])];
}

/**
 * The open memory, one per database for the whole process, whichever registration opened it: kept on
 * globalThis, so it is shared even by a host that evaluates this module more than once. The gateway's
 * service stop closes it.
 */
const RUNTIMES_KEY = Symbol.for('hybrid-mem.openclaw.runtimes');
const runtimes = ((globalThis as Record<symbol, unknown>)[RUNTIMES_KEY] ??= new Map()) as Map<string, Promise<GatewayMemory>>;

function register(api: OpenClawPluginApi): void {
  const config = resolveConfig(api.pluginConfig ?? {}, { env: process.env, source: `OpenClaw plugins.entries.${PLUGIN_ID}.config` });
  const log = (line: string): void => api.logger.info(`${PLUGIN_ID}: ${line}`);
  const key = config.dbPath;
  const open = (): Promise<GatewayMemory> => {
    let memory = runtimes.get(key);
    if (!memory) {
      memory = import('./runtime.js').then((m) => m.GatewayMemory.open(config, log));
      runtimes.set(key, memory);
      memory.catch(() => runtimes.delete(key));
    }
    return memory;
  };

  api.on('before_prompt_build', async (event, ctx) => {
    try {
      const m = await open();
      const caller = runCaller(config, ctx);
      const turn = { prompt: event.prompt ?? '', messages: event.messages ?? [], agentId: caller.agentId, sessionId: caller.sessionId, role: gatewayRole(caller.agentId, config.agent.orchestrators) };
      // Both at once; the auth hint first, then the relevant memories.
      const parts = await Promise.all([m.hook.onTurn(turn), m.relevant.onTurn(turn)]);
      const context = parts.filter((p): p is string => p !== null && p !== '').join('\n\n');
      return context ? { prependContext: context } : undefined;
    } catch (err) {
      // A turn never fails because of memory: no hint, one line in the gateway log.
      const w = toWire(err);
      api.logger.warn(`${PLUGIN_ID}: no memory for this turn (${w.code}: ${w.message})`);
      return undefined;
    }
  });

  // Auto-capture at the end of each run: what the user said this turn (never tool output, never the
  // memory block we prepended), kept as the run's agent and session.
  if (config.autoCapture.enabled) {
    api.on('agent_end', async (event, ctx) => {
      try {
        const turns = thisTurn(event.messages ?? []);
        if (turns.length === 0) return;
        const { decisions } = await (await open()).svc.capture(turns, runCaller(config, ctx));
        const kept = decisions.filter((d) => d.action !== 'skipped').length;
        if (kept > 0) log(`auto-capture: ${kept} fact(s) kept (${decisions.map((d) => d.action).join(', ')})`);
      } catch (err) {
        const w = toWire(err);
        api.logger.warn(`${PLUGIN_ID}: nothing captured this turn (${w.code}: ${w.message})`);
      }
    });
  }

  const toolFor = (tool: AgentTool, ctx: RunContext): OpenClawTool => ({
    name: tool.name,
    label: tool.title,
    description: tool.description,
    parameters: tool.inputSchema,
    async execute(_toolCallId, params) {
      const r = await callAgentTool((await open()).svc, runCaller(config, ctx), tool.name, params);
      // OpenClaw's contract: a failed tool throws; the model receives the message (code first).
      if (!r.ok) throw new Error(r.text);
      // The secret travels once, in the text the model reads; not again in the details the gateway keeps.
      const { secret: _secret, ...details } = r.data;
      return { content: [{ type: 'text', text: r.text }], details };
    },
  });
  for (const tool of AGENT_TOOLS) api.registerTool((ctx) => toolFor(tool, ctx), { name: tool.name });

  api.registerCli(
    ({ program }) => {
      const root = program.command(PLUGIN_ID).description('hybrid-mem memory');
      root
        .command('dashboard')
        .description('print the URL of the running hybrid-mem dashboard (it runs inside the gateway when dashboard.enabled)')
        .action(async () => {
          const { findRunningDashboard } = await import('../http/record.js');
          const running = await findRunningDashboard(config.dataDir);
          if (running) {
            process.stdout.write(`${running.url}/graph\n`);
            return;
          }
          const why = config.dashboard.enabled ? 'start the gateway (openclaw gateway run)' : 'dashboard.enabled is false in plugins.entries.hybrid-mem.config';
          process.stderr.write(`hybrid-mem: no dashboard server is running for ${config.dataDir} (${why})\n`);
          process.exitCode = 1;
        });
    },
    { descriptors: [{ name: PLUGIN_ID, description: 'hybrid-mem memory', hasSubcommands: true }] },
  );

  api.registerService({
    id: PLUGIN_ID,
    async start() {
      await (await open()).startDashboard();
    },
    async stop() {
      const m = runtimes.get(key);
      runtimes.delete(key);
      if (m) await (await m).close();
    },
  });

  // The process that runs agents opens the store now, so the first turn does not wait for it.
  if (api.registrationMode === 'full') {
    open().catch((err: unknown) => api.logger.error(`${PLUGIN_ID}: memory unavailable: ${toWire(err).message}`));
    // `agent.role: orchestrator` is written on purpose (the default is specialist); in a gateway it once
    // applied to every agent, so say what applies now.
    if (config.agent.role === 'orchestrator') {
      const listed = config.agent.orchestrators.length ? config.agent.orchestrators.join(', ') : 'none';
      api.logger.warn(`${PLUGIN_ID}: agent.role applies to \`hybrid-mem mcp\` only; in the gateway only the agents in agent.orchestrators (${listed}) run as orchestrator, every other agent as specialist`);
    }
  }
}

/** What OpenClaw's loader takes (`definePluginEntry` returns the same shape). */
const plugin = { id: PLUGIN_ID, name: 'hybrid-mem', description: DESCRIPTION, register };
export default plugin;
