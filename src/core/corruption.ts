/**
 * Recognising a damaged database (issue 20, part 4). SQLite reports damage in several shapes: the codes
 * SQLITE_CORRUPT* and SQLITE_NOTADB, but also plain SQLITE_ERROR messages when the damage sits in a
 * virtual table's shadow tables or the schema ("vtable constructor failed: facts_fts", FTS5's "fts5:
 * corruption found reading blob ..."). All of them become MEM_ERR_DB_CORRUPT with the recovery steps, never
 * MEM_ERR_INTERNAL. Pure: the shell (src/store/db.ts, src/core/errors.ts asMemoryError) applies it.
 */

const CORRUPT_CODE = /^SQLITE_(CORRUPT|NOTADB)/;
const CORRUPT_MESSAGE = /database disk image is malformed|file is not a database|vtable constructor failed|fts5: corruption|malformed database schema|database corruption/i;

/** True when `err` (a SqliteError or anything carrying its code and message) says the file is damaged. */
export function isCorruption(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CORRUPT_CODE.test(code)) return true;
  return typeof message === 'string' && CORRUPT_MESSAGE.test(message);
}

/**
 * What to do about a damaged database, in one line (the CLI prints errors on one line). `db` is the
 * `--db PATH` to repeat, when known.
 */
export function recoverySteps(dbPath?: string): string {
  const db = dbPath ? ` --db ${JSON.stringify(dbPath)}` : '';
  return (
    `To recover: stop every hybrid-mem process using it; run "hybrid-mem doctor${db}" to see what is damaged; ` +
    `run "hybrid-mem doctor --recover${db}", which copies every row that can still be read into a new file and never changes the damaged one; ` +
    'then move the damaged file (with its -wal and -shm files) aside and put the new file in its place, or use --db with the new file.'
  );
}

/** The message of MEM_ERR_DB_CORRUPT: what failed, what SQLite said, and the recovery steps. */
export function corruptionMessage(what: string, detail: string, dbPath?: string): string {
  return `${what}: the database file is damaged (${detail}). ${recoverySteps(dbPath)}`;
}
