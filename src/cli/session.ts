/**
 * One CLI invocation's session: where the data lives (--db, HYBRID_MEM_HOME, ~/.hybrid-mem), which config
 * applies (--config, else <data dir>/config.json when present, else defaults), and a service opened only
 * when a command needs it, so usage errors and `config check` never touch the database.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defaultDataDir, loadConfigFile, resolveConfig, type ResolvedConfig } from '../config/resolve.js';
import { MemoryError, invalidInput } from '../core/errors.js';
import { MemoryService } from '../memory/service.js';
import { str } from './args.js';
import type { CliSession, Io, OptionValues } from './spec.js';

export interface OpenSession extends CliSession {
  close(): void;
}

/** Resolve the config the way every command does. */
export function cliConfig(io: Io, opts: OptionValues): ResolvedConfig {
  try {
    return findConfig(io, opts);
  } catch (err) {
    throw maskConfigError(err);
  }
}

function findConfig(io: Io, opts: OptionValues): ResolvedConfig {
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

const TOKEN_PATH = /(^|\.)dashboard\.token$/;

/**
 * A config error names what arrived at each bad key; for dashboard.token that would print (part of) a
 * secret, so the message is rebuilt from the issue list with that value masked.
 */
function maskConfigError(err: unknown): unknown {
  if (!(err instanceof MemoryError) || err.code !== 'MEM_ERR_CONFIG_INVALID') return err;
  const issues = err.details?.issues;
  if (!Array.isArray(issues) || !issues.some((i: { path?: string }) => TOKEN_PATH.test(i.path ?? ''))) return err;
  const masked = (issues as { path: string; expected: string; received: string }[]).map((i) => (TOKEN_PATH.test(i.path) ? { ...i, received: '(a value, masked)' } : i));
  const message = `invalid configuration: ${masked.map((i) => `${i.path}: expected ${i.expected}, received ${i.received}`).join('; ')}`;
  return new MemoryError('MEM_ERR_CONFIG_INVALID', message, { details: { ...masked[0], issues: masked } });
}

export function createSession(io: Io, opts: OptionValues): OpenSession {
  let config: ResolvedConfig | null = null;
  let service: MemoryService | null = null;
  const session: OpenSession = {
    io,
    json: opts.json === true,
    config: () => (config ??= cliConfig(io, opts)),
    service: () => (service ??= MemoryService.open({ config: session.config(), env: io.env })),
    readStdin: () => readAll(io),
    path: (p) => resolve(io.cwd, p),
    close: () => {
      service?.close();
      service = null;
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
