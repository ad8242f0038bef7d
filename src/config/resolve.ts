/**
 * Config in three shapes: what the user writes -> resolved (validated, defaults filled, paths absolute,
 * frozen) -> serialized for workers (plain JSON). Errors name the key path, what was expected and what
 * arrived.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import type { z } from 'zod';
import { MemoryError, describeValue } from '../core/errors.js';
import { describeIssues, issuesMessage } from './issues.js';
import { compileCustomPatterns } from '../core/auth/patterns.js';
import { PLUGIN_ID } from './defaults.js';
import { configSchema, type ParsedConfig } from './schema.js';

export interface ResolvedConfig extends ParsedConfig {
  readonly dataDir: string;
  readonly dbPath: string;
  readonly vaultKeyFile: string;
  /** Where the config came from (a file path), or null for defaults only. */
  readonly source: string | null;
}

export interface ResolveOptions {
  /** Environment to read overrides from (HYBRID_MEM_HOME). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where relative paths in the config resolve from (the config file's folder). */
  readonly baseDir?: string;
  /** An explicit database file (the CLI's --db): its folder becomes the data dir. */
  readonly dbPath?: string;
  readonly source?: string | null;
}

/** The default data directory: HYBRID_MEM_HOME, else ~/.hybrid-mem. */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HYBRID_MEM_HOME ? resolvePath(env.HYBRID_MEM_HOME) : join(homedir(), '.hybrid-mem');
}

/** Validate a plugin config object (the value at plugins.entries.hybrid-mem.config) and resolve it. */
export function resolveConfig(userConfig: unknown, options: ResolveOptions = {}): ResolvedConfig {
  const env = options.env ?? process.env;
  const result = configSchema.safeParse(userConfig ?? {});
  if (!result.success) throw configError(result.error, userConfig, 'plugins.entries.hybrid-mem.config');
  const parsed = result.data;
  checkPatterns(parsed.autoRecall.authFailure.patterns);
  const base = options.baseDir ?? process.cwd();
  // A path in the config: "~" or "~/..." is the home folder, a relative one is relative to the config file.
  const path = (p: string): string => (p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : resolvePath(base, p));
  const dataDir = options.dbPath
    ? resolvePath(options.dbPath, '..')
    : env.HYBRID_MEM_HOME
      ? resolvePath(env.HYBRID_MEM_HOME)
      : parsed.dataDir
        ? path(parsed.dataDir)
        : defaultDataDir(env);
  const dbPath = options.dbPath ? resolvePath(options.dbPath) : join(dataDir, 'memory.db');
  const vaultKeyFile = parsed.vault.keyFile ? path(parsed.vault.keyFile) : join(dataDir, 'vault.key');
  const appDir = parsed.dashboard.appDir ? path(parsed.dashboard.appDir) : null;
  return deepFreeze({ ...parsed, dashboard: { ...parsed.dashboard, appDir }, dataDir, dbPath, vaultKeyFile, source: options.source ?? null });
}

/**
 * Read a gateway-shaped JSON file ({"plugins": {"entries": {"hybrid-mem": {"config": {...}}}}}) and
 * resolve our entry. A file without our entry yields the defaults.
 */
export function loadConfigFile(path: string, options: Omit<ResolveOptions, 'baseDir' | 'source'> = {}): ResolvedConfig {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new MemoryError('MEM_ERR_CONFIG_UNREADABLE', `cannot read config file ${path}: ${(cause as Error).message}`, { cause });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (cause) {
    throw new MemoryError('MEM_ERR_CONFIG_UNREADABLE', `config file ${path} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  const entry = pluginEntry(doc, path);
  return resolveConfig(entry, { ...options, baseDir: resolvePath(path, '..'), source: path });
}

function pluginEntry(doc: unknown, path: string): unknown {
  const at = (v: unknown, key: string, where: string): unknown => {
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new MemoryError('MEM_ERR_CONFIG_INVALID', `${path}: ${where}: expected an object, received ${describeValue(v)}`, {
        details: { path: where, expected: 'an object', received: describeValue(v) },
      });
    }
    return (v as Record<string, unknown>)[key];
  };
  const plugins = at(doc, 'plugins', '(root)');
  const entries = at(plugins, 'entries', 'plugins');
  const entry = at(entries, PLUGIN_ID, 'plugins.entries');
  return at(entry, 'config', `plugins.entries.${PLUGIN_ID}`) ?? {};
}

/** Turn zod issues into one MemoryError naming every bad key path, what was expected and what arrived. */
function configError(error: z.ZodError, input: unknown, root: string): MemoryError {
  const issues = describeIssues(error, input, root);
  const first = issues[0];
  return new MemoryError('MEM_ERR_CONFIG_INVALID', `invalid configuration: ${issuesMessage(issues)}`, {
    details: first ? { ...first, issues } : {},
  });
}

/**
 * Custom patterns must compile as case-insensitive regular expressions and must not risk catastrophic
 * backtracking (src/core/auth/regex-safety.ts); the error names the index and says why.
 */
function checkPatterns(patterns: readonly string[] | null): void {
  if (patterns) compileCustomPatterns(patterns);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The plain-data form a worker receives. */
export function serializeConfig(config: ResolvedConfig): string {
  return JSON.stringify(config);
}
