/**
 * Opening the database: WAL, durability level, busy timeout, migrations, and the mapping of SQLite's
 * failures to our typed errors. The main thread holds the one writer connection.
 *
 * Durability: WAL + synchronous=NORMAL survives any process crash (kill -9) without losing a committed
 * transaction; synchronous=FULL additionally survives power loss / OS crash at some write cost.
 */
import type { Database as Db } from 'better-sqlite3';
import { statSync } from 'node:fs';
import { preparePrivateDatabase } from './private-files.js';
import { MemoryError, corruptionMessage, isCorruption } from '../core/errors.js';
import { MIGRATIONS, migrate, type Migration } from './migrations.js';
import { sqliteDriver } from './native.js';
import { forgetCleanClose, unchangedSinceCleanClose } from './clean-close.js';

/** quick_checks run and skipped on open in this process (src/store/clean-close.ts), for tests and logs. */
export const openChecks = { run: 0, skipped: 0 };

export interface OpenOptions {
  readonly durability?: 'normal' | 'full';
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
  /** For tests of the migration runner. */
  readonly migrations?: readonly Migration[];
  /**
   * Run PRAGMA quick_check before anything else touches the file (default: on for read-write opens): a
   * damaged page is found on open, as MEM_ERR_DB_CORRUPT, instead of by whichever read lands on it.
   * Worker connections to a database the main thread already checked (read-only or not) skip it, and so
   * does an open of a file exactly as a checked process's clean, last close left it (clean-close.ts).
   */
  readonly quickCheck?: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  let db: Db;
  try {
    if (!options.readonly && path !== ':memory:') preparePrivateDatabase(path);
    const Database = sqliteDriver();
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (cause) {
    throw sqliteError(cause, `cannot open database ${path}`, path);
  }
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    const file = path !== ':memory:';
    if ((options.quickCheck ?? !options.readonly) && file) {
      if (unchangedSinceCleanClose(path)) openChecks.skipped++;
      else {
        quickCheck(db, path);
        openChecks.run++;
      }
    }
    if (!options.readonly && file) forgetCleanClose(path);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}`);
      db.pragma('foreign_keys = ON');
      migrate(db, options.migrations ?? MIGRATIONS);
    }
    return db;
  } catch (cause) {
    db.close();
    if (cause instanceof MemoryError) throw cause;
    throw sqliteError(cause, `cannot prepare database ${path}`, path);
  }
}

/**
 * Page cache per connection, in KiB (SQLite's default is 2 MiB). A recall over 100k facts reads candidate
 * rows and postings from most of the file; with them cached it answers about a tenth faster. SQLite
 * fills the cache only as pages are read, so a small store uses no more memory than before.
 */
export const PAGE_CACHE_KIB = 32 * 1024;

/** How many problems quick_check may list before it stops. */
const QUICK_CHECK_MAX_ERRORS = 5;
/** Up to this size (database plus WAL) the whole file is checked on open; above it, the tables users read. */
export const QUICK_CHECK_FULL_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The tables checked on open of a larger file: what list, recall, show and the vault read, with their
 * indexes and the full-text index. Left out are the append-only logs (events, recall_events, episodes,
 * collab_activities): the bulk of a large file, trimmed by maintenance, and checked there in full.
 */
const CORE_TABLES = ['schema_migrations', 'meta', 'facts', 'facts_fts_data', 'facts_fts_idx', 'facts_fts_docsize', 'facts_fts_config', 'links', 'conflicts', 'vault', 'fact_vectors'];

/**
 * PRAGMA quick_check on open: pages of tables and indexes are read and their structure checked (not the
 * index-to-table agreement, which integrity_check adds). Its cost is linear in what it reads, so it is
 * bounded by size: the whole file up to QUICK_CHECK_FULL_MAX_BYTES, else the core tables only (figures in
 * docs/errors.md). Throws MEM_ERR_DB_CORRUPT naming what it found.
 */
export function quickCheck(db: Db, path: string): void {
  const size = fileSize(path) + fileSize(`${path}-wal`);
  const targets = size <= QUICK_CHECK_FULL_MAX_BYTES ? [null] : presentTables(db, CORE_TABLES);
  const problems: string[] = [];
  for (const table of targets) {
    try {
      const rows = db.pragma(table === null ? `quick_check(${QUICK_CHECK_MAX_ERRORS})` : `quick_check("${table}")`, { simple: false }) as Array<Record<string, unknown>>;
      problems.push(...rows.map((r) => String(Object.values(r)[0])).filter((m) => m !== 'ok'));
    } catch (cause) {
      // quick_check itself stops on some damage (a zeroed page): that is its finding.
      if (!isCorruption(cause)) throw cause;
      problems.push(cause instanceof Error ? cause.message : String(cause));
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, QUICK_CHECK_MAX_ERRORS);
    throw new MemoryError('MEM_ERR_DB_CORRUPT', corruptionMessage(`cannot open database ${path}`, `quick_check: ${shown.join('; ')}`, path), { details: { problems: shown } });
  }
}

function presentTables(db: Db, names: readonly string[]): string[] {
  const have = new Set(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[]);
  return names.filter((n) => have.has(n));
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

const CODE_MAP: ReadonlyArray<readonly [RegExp, MemoryError['code']]> = [
  [/^SQLITE_READONLY|^SQLITE_CANTOPEN|^SQLITE_PERM|^SQLITE_AUTH/, 'MEM_ERR_DB_READONLY'],
  [/^SQLITE_BUSY|^SQLITE_LOCKED/, 'MEM_ERR_DB_BUSY'],
  [/^SQLITE_FULL|^SQLITE_IOERR_WRITE|^SQLITE_IOERR_FSYNC/, 'MEM_ERR_DB_FULL'],
];

/**
 * Map a SQLite failure to a typed error (keeping the original as `cause`); pass MemoryErrors through.
 * Every form of damage (isCorruption in src/core/errors.ts) becomes MEM_ERR_DB_CORRUPT with the recovery steps.
 */
export function sqliteError(cause: unknown, context: string, dbPath?: string): MemoryError {
  if (cause instanceof MemoryError) return cause;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (isCorruption(cause)) return new MemoryError('MEM_ERR_DB_CORRUPT', corruptionMessage(context, message, dbPath), { cause });
  if (typeof code === 'string') {
    for (const [re, mapped] of CODE_MAP) if (re.test(code)) return new MemoryError(mapped, `${context}: ${message}`, { cause });
  }
  return new MemoryError('MEM_ERR_INTERNAL', `${context}: ${message}`, { cause });
}

/** Run `fn` in an IMMEDIATE transaction, mapping SQLite failures to typed errors. All or nothing. */
export function writeTx<T>(db: Db, context: string, fn: () => T): T {
  try {
    // Inside an open transaction, join it: any error aborts the outermost one (all or nothing), so a
    // savepoint per nested call would only cost time.
    if (db.inTransaction) return fn();
    return db.transaction(fn).immediate();
  } catch (cause) {
    throw sqliteError(cause, context);
  }
}
