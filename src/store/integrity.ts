/**
 * Whole-database checks (issue 20, part 4): SQLite's full integrity_check, the full-text index against the
 * facts it indexes, and the embedding table against the current facts. Used by `maintenance` (which refuses
 * to write into a damaged file) and `hybrid-mem doctor`. Each check answers with problems (empty: sound)
 * and never throws for damage: a read that fails on a damaged page is a problem found.
 */
import type { Database as Db } from 'better-sqlite3';
import { MemoryError, corruptionMessage } from '../core/errors.js';

/** How many problems integrity_check lists before it stops. */
export const INTEGRITY_MAX_ERRORS = 20;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** PRAGMA integrity_check: every page, every index entry against its table row, constraints. */
export function integrityProblems(db: Db): string[] {
  try {
    const rows = db.pragma(`integrity_check(${INTEGRITY_MAX_ERRORS})`, { simple: false }) as Array<Record<string, unknown>>;
    return rows.map((r) => String(Object.values(r)[0])).filter((m) => m !== 'ok');
  } catch (err) {
    return [messageOf(err)];
  }
}

/**
 * The FTS5 index against the facts it indexes (its 'integrity-check' command with rank 1 compares the two),
 * and its document count against the facts not deleted. Needs a writable connection: the command is an INSERT
 * that changes nothing.
 */
export function ftsProblems(db: Db): string[] {
  const problems: string[] = [];
  try {
    db.exec(`INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)`);
  } catch (err) {
    problems.push(`full-text index: ${messageOf(err)}`);
  }
  try {
    const docs = db.prepare('SELECT count(*) FROM facts_fts_docsize').pluck().get() as number;
    const facts = db.prepare('SELECT count(*) FROM facts WHERE deleted_at IS NULL').pluck().get() as number;
    if (docs !== facts) problems.push(`full-text index holds ${docs} documents for ${facts} facts`);
  } catch (err) {
    problems.push(`full-text index: ${messageOf(err)}`);
  }
  return [...new Set(problems)];
}

/** How many current facts have an embedding (the vector index is rebuilt from these rows). */
export interface VectorState {
  readonly current: number;
  readonly embedded: number;
}

export function vectorState(db: Db): VectorState | null {
  try {
    const current = db.prepare('SELECT count(*) FROM facts WHERE valid_until IS NULL').pluck().get() as number;
    const embedded = db.prepare('SELECT count(*) FROM fact_vectors v JOIN facts f ON f.seq = v.fact_seq WHERE f.valid_until IS NULL').pluck().get() as number;
    return { current, embedded };
  } catch {
    return null;
  }
}

/** Throw MEM_ERR_DB_CORRUPT when integrity_check finds anything (maintenance runs this before it writes). */
export function assertIntegrity(db: Db, what: string): void {
  const problems = integrityProblems(db);
  if (problems.length === 0) return;
  throw new MemoryError('MEM_ERR_DB_CORRUPT', corruptionMessage(what, `integrity_check: ${problems.slice(0, 5).join('; ')}`, db.name), { details: { problems } });
}
