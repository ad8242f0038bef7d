/**
 * One CLI invocation's session: where the data lives (--db, HYBRID_MEM_HOME, ~/.hybrid-mem), which config
 * applies (--config, else <data dir>/config.json when present, else defaults), and a service opened only
 * when a command needs it, so usage errors and `config check` never touch the database.
 */
import { escapeTerminal } from '../core/terminal.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defaultDataDir, loadConfigFile, resolveConfig, type ResolvedConfig } from '../config/resolve.js';
import { invalidInput } from '../core/errors.js';
import { MemoryService } from '../memory/service.js';
import { attachInstalledPlugins } from '../plugins/presence.js';
import { str } from './args.js';
import type { CliSession, Io, OptionValues } from './spec.js';

export interface OpenSession extends CliSession {
  /** Close the service (awaits the semantic layer persisting its index, when one runs). */
  close(): Promise<void>;
}

/** Resolve the config the way every command does (config errors never echo a token: src/config/issues.ts). */
export function cliConfig(io: Io, opts: OptionValues): ResolvedConfig {
  const db = str(opts, 'db');
  const file = str(opts, 'config');
  if (db !== undefined && db.trim() === '') throw invalidInput('--db', 'a database file path', db);
  if (file !== undefined && file.trim() === '') throw invalidInput('--config', 'a config file path', file);
  const dbPath = db === undefined ? undefined : resolve(io.cwd, db);
  const env = io.env;
  if (file !== undefined) return loadConfigFile(resolve(io.cwd, file), { env, dbPath });
  const candidate = join(dbPath ? dirname(dbPath) : defaultDataDir(env), 'config.json');
  if (existsSync(candidate)) return loadConfigFile(candidate, { env, dbPath });
  return resolveConfig({}, { env, dbPath, baseDir: io.cwd });
}

export function createSession(io: Io, opts: OptionValues): OpenSession {
  let config: ResolvedConfig | null = null;
  let service: MemoryService | null = null;
  let plugged: Promise<MemoryService> | null = null;
  const session: OpenSession = {
    io,
    json: opts.json === true,
    config: () => (config ??= cliConfig(io, opts)),
    service: () => (service ??= MemoryService.open({ config: session.config(), env: io.env })),
    serviceWithPlugins: (level = 'warn') =>
      (plugged ??= (async () => {
        const svc = session.service();
        // Plugins' info lines would be noise in every one-shot command; serve passes its own level.
        await attachInstalledPlugins(svc, { log: (line) => void io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`), logLevel: io.env.HYBRID_MEM_DEBUG === '1' ? 'debug' : level });
        return svc;
      })()),
    readStdin: () => readAll(io),
    path: (p) => resolve(io.cwd, p),
    close: async () => {
      const s = service;
      service = null;
      await s?.close();
    },
  };
  return session;
}

async function readAll(io: Io): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY) io.stderr.write('hybrid-mem: reading stdin (end with Ctrl-D)\n');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
