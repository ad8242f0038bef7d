/**
 * mcp: the agent tools over the Model Context Protocol on stdio, for Claude Code, Claude Desktop, Cursor
 * and any MCP client. stdout carries protocol messages only: everything else this process (or any of its
 * worker threads, or a library in them) would print on stdout is sent to stderr for the whole run.
 */
import { escapeTerminal } from '../../core/terminal.js';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { CALLER_ROLES, type Caller } from '../../core/types.js';
import { parseCaller } from '../../memory/inputs.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import { oneOf, str } from '../args.js';
import type { CommandSpec, OptionValues } from '../spec.js';
import { packageVersion } from '../../config/package.js';
import { untilStopped, type Stopper } from '../stopper.js';

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

/**
 * The client's side of stdio going away stops the server: stdin at EOF or failing (the client closed it or
 * died), stdout failing (EPIPE: nobody reads the answers). MCP clients end a server by closing its stdin.
 */
function watchClient(input: NodeJS.ReadableStream, protocol: Writable, stopper: Stopper): () => void {
  const onEnd = (): void => stopper.stop('stdin closed');
  const onInputError = (): void => stopper.stop('stdin failed');
  const onOutputError = (): void => stopper.stop('stdout closed');
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onInputError);
  // Kept after unwatch: a late EPIPE while shutting down must not become an uncaught error.
  protocol.on('error', onOutputError);
  // A log line to a stderr nobody reads any more must not become an uncaught EPIPE.
  const onLogError = (): void => undefined;
  process.stderr.on('error', onLogError);
  return () => {
    input.off('end', onEnd);
    input.off('close', onEnd);
    input.off('error', onInputError);
    process.stderr.off('error', onLogError);
  };
}

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'serve the agent tools to an MCP client over stdio (memory_store, memory_link, memory_recall, credential_get)',
  args: [],
  details: [
    'Speaks the Model Context Protocol on stdin/stdout (nothing else is printed there; logs go to stderr).',
    'The caller comes from the config\'s "agent" section (role, id, sessionId); the flags override it. The role defaults to',
    'specialist (global facts, its own agent\'s and session\'s); an orchestrator (every agent\'s facts) must be asked for.',
    'A run without a session id gets a fresh one, so session-scoped facts last one run. Stops (exit 0, store and workers closed)',
    'when the client goes away: stdin at EOF, stdout closed, or the parent process gone; and on SIGINT, SIGTERM or SIGHUP.',
  ],
  options: {
    role: { type: 'string', value: 'ROLE', help: `${AGENT_ROLES.join(' | ')} (default: agent.role, specialist)` },
    agent: { type: 'string', value: 'ID', help: 'the agent id (default: agent.id)' },
    session: { type: 'string', value: 'ID', help: 'the session id (default: agent.sessionId, else a fresh id per run)' },
  },
  async run({ opts, cli }) {
    const config = cli.config();
    const caller = mcpCaller(config, opts);
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem mcp: ${escapeTerminal(line)}\n`);
    const { protocol, release } = claimStdout();
    const stopper = untilStopped({ signal: cli.io.signal, hangup: true, withParent: true });
    const unwatch = watchClient(process.stdin, protocol, stopper);
    try {
      const svc = await cli.serviceWithPlugins();
      const [{ StdioServerTransport }, { serveMcp }, { startSemanticInBackground }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.js'),
        import('../../main.js'),
      ]);
      const transport = new StdioServerTransport(process.stdin, protocol);
      transport.onerror = (err) => log(`protocol error: ${err.message}`);
      const served = serveMcp({ svc, caller, version: packageVersion() }, transport);
      log(`serving ${config.dbPath} as ${caller.role}${caller.agentId ? ` ${caller.agentId}` : ''} (session ${caller.sessionId ?? 'none'})`);
      // Recall is full-text until the embedding model is loaded (1-2 s), then hybrid.
      const starting = new AbortController();
      const semantic = startSemanticInBackground(svc, config, log, starting.signal);
      void served.then(() => stopper.stop('client closed'));
      const why = await stopper.stopped;
      log(`${why}: stopping`);
      await transport.close();
      // The service closes after this command: a semantic start still in flight is cut short (its workers end).
      starting.abort();
      await semantic;
    } finally {
      stopper.release();
      unwatch();
      release();
    }
    return { human: '', json: null, silent: true };
  },
};
