/**
 * `hybrid-mem doctor`: checks a database without changing it, and recovers what can be read of a damaged
 * one into a new file. Both work on a snapshot in a temp folder (SQLite's online backup, which copies pages
 * as they are, or a plain copy when the file cannot even be opened), so the original, damaged or in use,
 * is never written: no WAL checkpoint, no migration, no FTS command touches it.
 */
import type { Database as Db } from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { MemoryError, corruptionMessage, invalidInput } from '../core/errors.js';
import { openDatabase } from './db.js';
import { ftsProblems, integrityProblems, vectorState } from './integrity.js';
import { MIGRATIONS } from './migrations.js';
import { sqliteDriver } from './native.js';
import { recoverRows, type RecoveryReport } from './recover.js';

export type Severity = 'ok' | 'warn' | 'fail';

/** One line of the doctor's report. */
export interface Finding {
  readonly check: 'file' | 'permissions' | 'schema' | 'integrity' | 'fts' | 'vectors';
  readonly severity: Severity;
  readonly message: string;
}

export interface DoctorReport {
  readonly dbPath: string;
  /** No finding failed (warnings allowed). */
  readonly ok: boolean;
  readonly findings: readonly Finding[];
}

const SQLITE_HEADER = 'SQLite format 3\0';
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Check the database at `dbPath` and the files of its data dir. Never changes them. */
export async function diagnose(dbPath: string, dataDir: string): Promise<DoctorReport> {
  const findings: Finding[] = [];
  const add = (check: Finding['check'], severity: Severity, message: string): void => void findings.push({ check, severity, message });
  const done = (): DoctorReport => ({ dbPath, ok: !findings.some((f) => f.severity === 'fail'), findings });
  if (!existsSync(dbPath)) {
    add('file', 'fail', `no database at ${dbPath}`);
    return done();
  }
  findings.push(...permissionFindings(dbPath, dataDir));
  if (readHeader(dbPath) !== SQLITE_HEADER) {
    add('file', 'fail', `${dbPath} is not a SQLite database (its first bytes are not the SQLite header)`);
    return done();
  }
  await withSnapshot(dbPath, (db) => {
    const started = Date.now();
    let version: number;
    try {
      version = (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
    } catch (err) {
      add('schema', 'fail', `the schema cannot be read: ${messageOf(err)}`);
      return;
    }
    const newest = Math.max(...MIGRATIONS.map((m) => m.version));
    add('schema', version > newest ? 'fail' : 'ok', version > newest ? `schema version ${version} is newer than this build (${newest}): upgrade hybrid-mem` : `schema version ${version}${version < newest ? ` (migrates to ${newest} on next open)` : ''}`);
    const problems = integrityProblems(db);
    add('integrity', problems.length ? 'fail' : 'ok', problems.length ? `integrity_check: ${problems.join('; ')}` : `integrity_check ok (${Date.now() - started} ms)`);
    const fts = ftsProblems(db);
    add('fts', fts.length ? 'fail' : 'ok', fts.length ? fts.join('; ') : 'the full-text index matches the facts');
    const v = vectorState(db);
    if (v) add('vectors', 'ok', `${v.embedded} of ${v.current} current facts have an embedding (the vector index is derived from them)`);
  });
  return done();
}

/** What `doctor --recover` saved. */
export interface RecoverResult extends RecoveryReport {
  readonly from: string;
  readonly out: string;
  readonly facts: number;
}

/** Copy what can be read of `dbPath` into the new file `out` (refused when it exists). */
export async function recoverDatabase(dbPath: string, out: string): Promise<RecoverResult> {
  if (!existsSync(dbPath)) throw invalidInput('doctor.db', 'an existing database file', dbPath);
  if (existsSync(out)) throw invalidInput('doctor.out', 'a file that does not exist yet (recovery never overwrites)', out);
  if (readHeader(dbPath) !== SQLITE_HEADER) {
    throw new MemoryError('MEM_ERR_DB_CORRUPT', `${dbPath} is not a SQLite database (its first bytes are not the SQLite header): there is nothing to recover from it; restore a backup or an export`);
  }
  return withSnapshot(dbPath, (from) => {
    let target: Db | null = null;
    try {
      try {
        from.prepare('SELECT count(*) FROM sqlite_schema').get();
      } catch (err) {
        throw new MemoryError('MEM_ERR_DB_CORRUPT', corruptionMessage(`cannot recover ${dbPath}`, `its schema is unreadable: ${messageOf(err)}; nothing can be copied, restore a backup or an export`), { cause: err });
      }
      target = openDatabase(out);
      const report = recoverRows(from, target);
      target.pragma('wal_checkpoint(TRUNCATE)');
      const facts = report.tables.find((t) => t.table === 'facts')?.copied ?? 0;
      return { from: dbPath, out, facts, ...report };
    } catch (err) {
      target?.close();
      target = null;
      for (const f of [out, `${out}-wal`, `${out}-shm`]) rmSync(f, { force: true });
      throw err;
    } finally {
      target?.close();
      if (existsSync(out)) chmodSync(out, 0o600);
    }
  });
}

/** The default name of a recovered copy: memory.recovered-20260101T120000Z.db next to the original. */
export function defaultRecoverPath(dbPath: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return join(dirname(dbPath), `${basename(dbPath).replace(/\.db$/, '')}.recovered-${stamp}.db`);
}

/** Run `fn` on a private copy of the database (online backup, else a file copy); the copy is removed after. */
async function withSnapshot<T>(dbPath: string, fn: (db: Db) => T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-doctor-'));
  const copy = join(dir, 'snapshot.db');
  const Database = sqliteDriver();
  try {
    try {
      const source = new Database(dbPath, { readonly: true, fileMustExist: true });
      try {
        await source.backup(copy);
      } finally {
        source.close();
      }
    } catch {
      // Too damaged (or locked) for the backup API: the bytes as they are, with the WAL beside them.
      rmSync(copy, { force: true });
      copyFileSync(dbPath, copy);
      if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
    }
    const db = new Database(copy);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readHeader(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/**
 * The data dir should be 0700 and its files 0600: the database holds every memory and vault.key decrypts
 * the vault. Readable by others: a warning; writable by others: a failure.
 */
function permissionFindings(dbPath: string, dataDir: string): Finding[] {
  if (process.platform === 'win32') return [];
  const findings: Finding[] = [];
  const paths: Array<readonly [string, number]> = [
    [dataDir, 0o700],
    [dbPath, 0o600],
    [`${dbPath}-wal`, 0o600],
    [`${dbPath}-shm`, 0o600],
    [join(dataDir, 'vault.key'), 0o600],
  ];
  for (const [path, want] of paths) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      continue;
    }
    const octal = mode.toString(8).padStart(3, '0');
    if (mode & 0o022) findings.push({ check: 'permissions', severity: 'fail', message: `${path} is writable by others (mode ${octal}): chmod ${want.toString(8)} ${JSON.stringify(path)}` });
    else if (mode & 0o044) findings.push({ check: 'permissions', severity: 'warn', message: `${path} is readable by others (mode ${octal}): chmod ${want.toString(8)} ${JSON.stringify(path)}` });
  }
  if (findings.length === 0) findings.push({ check: 'permissions', severity: 'ok', message: 'the data dir and its files are private to this user' });
  return findings;
}
