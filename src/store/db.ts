/**
 * Opening the database: WAL, durability level, busy timeout, migrations, and the mapping of SQLite's
 * failures to our typed errors. The main thread holds the one writer connection.
 *
 * Durability: WAL + synchronous=NORMAL survives any process crash (kill -9) without losing a committed
 * transaction; synchronous=FULL additionally survives power loss / OS crash at some write cost.
 */
import type { Database as Db } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { MIGRATIONS, migrate, type Migration } from './migrations.js';
import { sqliteDriver } from './native.js';

export interface OpenOptions {
  readonly durability?: 'normal' | 'full';
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
  /** For tests of the migration runner. */
  readonly migrations?: readonly Migration[];
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  let db: Db;
  try {
    if (!options.readonly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const Database = sqliteDriver();
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (cause) {
    throw sqliteError(cause, `cannot open database ${path}`);
  }
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
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
    throw sqliteError(cause, `cannot prepare database ${path}`);
  }
}

const CODE_MAP: ReadonlyArray<readonly [RegExp, MemoryError['code']]> = [
  [/^SQLITE_READONLY|^SQLITE_CANTOPEN|^SQLITE_PERM|^SQLITE_AUTH/, 'MEM_ERR_DB_READONLY'],
  [/^SQLITE_BUSY|^SQLITE_LOCKED/, 'MEM_ERR_DB_BUSY'],
  [/^SQLITE_FULL|^SQLITE_IOERR_WRITE|^SQLITE_IOERR_FSYNC/, 'MEM_ERR_DB_FULL'],
  [/^SQLITE_CORRUPT|^SQLITE_NOTADB/, 'MEM_ERR_DB_CORRUPT'],
];

/** Map a SQLite failure to a typed error (keeping the original as `cause`); pass MemoryErrors through. */
export function sqliteError(cause: unknown, context: string): MemoryError {
  if (cause instanceof MemoryError) return cause;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
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
