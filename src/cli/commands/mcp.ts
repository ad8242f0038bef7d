/**
 * mcp: the agent tools over the Model Context Protocol on stdio, for Claude Code, Claude Desktop, Cursor
 * and any MCP client. stdout carries protocol messages only: everything else this process (or any of its
 * worker threads, or a library in them) would print on stdout is sent to stderr for the whole run.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CALLER_ROLES, type Caller } from '../../core/types.js';
import { parseCaller } from '../../memory/inputs.js';
import { startSemanticInBackground } from '../../main.js';
import { serveMcp } from '../../mcp/server.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import { oneOf, str } from '../args.js';
import type { CommandSpec, OptionValues } from '../spec.js';
import { packageVersion } from '../../config/package.js';
import { untilStopped } from './serve.js';

const AGENT_ROLES = CALLER_ROLES.filter((r) => r !== 'operator');

/**
 * The tools' caller: the flags, else the config's `agent` section; a run without a session id gets a fresh
 * one. The role defaults to specialist (least privilege); orchestrator is an explicit choice (`--role`, or
 * `agent.role`). A specialist without an agent id sees global facts and its session's, and writes no
 * agent-scoped facts.
 */
export function mcpCaller(config: ResolvedConfig, opts: OptionValues): Caller {
  const a = config.agent;
  const sessionId = str(opts, 'session') ?? a.sessionId ?? `mcp-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const role = oneOf(opts, 'role', AGENT_ROLES) ?? a.role;
  const agentId = str(opts, 'agent') ?? a.id;
  return parseCaller({ role, agentId, sessionId });
}

/**
 * From here on, writes to process.stdout (console.log, a library's banner, a worker thread's output piped
 * to it) go to stderr; the returned stream writes to the real stdout, for the protocol alone.
 */
function claimStdout(): { protocol: Writable; release: () => void } {
  const out = process.stdout;
  const write = out.write.bind(out);
  const own = Object.getOwnPropertyDescriptor(out, 'write');
  out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, (err?: Error | null) => callback(err ?? null));
    },
  });
  const release = (): void => {
    if (own) Object.defineProperty(out, 'write', own);
    else delete (out as { write?: unknown }).write;
  };
  return { protocol, release };
}

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'serve the agent tools to an MCP client over stdio (memory_store, memory_link, memory_recall, credential_get)',
  args: [],
  details: [
    'Speaks the Model Context Protocol on stdin/stdout (nothing else is printed there; logs go to stderr).',
    'The caller comes from the config\'s "agent" section (role, id, sessionId); the flags override it. The role defaults to',
    'specialist (global facts, its own agent\'s and session\'s); an orchestrator (every agent\'s facts) must be asked for.',
    'A run without a session id gets a fresh one, so session-scoped facts last one run. Stops when the client closes stdin, or on SIGINT/SIGTERM.',
  ],
  options: {
    role: { type: 'string', value: 'ROLE', help: `${AGENT_ROLES.join(' | ')} (default: agent.role, specialist)` },
    agent: { type: 'string', value: 'ID', help: 'the agent id (default: agent.id)' },
    session: { type: 'string', value: 'ID', help: 'the session id (default: agent.sessionId, else a fresh id per run)' },
  },
  async run({ opts, cli }) {
    const config = cli.config();
    const caller = mcpCaller(config, opts);
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem mcp: ${line}\n`);
    const { protocol, release } = claimStdout();
    const stopper = untilStopped(cli.io.signal);
    try {
      const svc = await cli.serviceWithPlugins();
      const transport = new StdioServerTransport(process.stdin, protocol);
      transport.onerror = (err) => log(`protocol error: ${err.message}`);
      const served = serveMcp({ svc, caller, version: packageVersion() }, transport);
      log(`serving ${config.dbPath} as ${caller.role}${caller.agentId ? ` ${caller.agentId}` : ''} (session ${caller.sessionId ?? 'none'})`);
      // Recall is full-text until the embedding model is loaded (1-2 s), then hybrid.
      const semantic = startSemanticInBackground(svc, config, log);
      const why = await Promise.race([served.then(() => 'client closed'), stopper.stopped]);
      log(`${why}: stopping`);
      await transport.close();
      // The service closes after this command: let a semantic start in flight attach first, so it is closed too.
      await semantic;
    } finally {
      stopper.release();
      release();
    }
    return { human: '', json: null, silent: true };
  },
};
