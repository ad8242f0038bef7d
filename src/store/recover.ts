/**
 * Recovery of a damaged database into a new file (`hybrid-mem doctor --recover`). better-sqlite3 has no
 * `.recover` and the sqlite3 shell may not be installed, so this copies what can still be read, table by
 * table and row by row, into a fresh database created with the current schema, then rebuilds the
 * full-text index. The damaged file is only ever read (the caller passes a snapshot of it).
 *
 * How damage is stepped over: rows are read in rowid order with `WHERE rowid > ?` seeks on the table's own
 * b-tree (NOT INDEXED, so a damaged index cannot hide rows). When a read fails, the next readable rowid is
 * found by probing further and further ahead (1, 2, 4, ... rowids) and then bisecting back, so a damaged
 * leaf page costs the rows on it and a few dozen probes, not the rest of the table.
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import { ftsProblems, integrityProblems } from './integrity.js';

/** What was saved of one table. */
export interface TableRecovery {
  readonly table: string;
  /** Rows written into the new file. */
  readonly copied: number;
  /** Rows read but refused by the current schema's constraints (damaged values). */
  readonly refused: number;
  /** Stretches of unreadable rows stepped over, as rowid ranges "a..b" (b: where reading resumed). */
  readonly skipped: readonly string[];
  /** Set when nothing of the table could be read. */
  readonly error?: string;
}

export interface RecoveryReport {
  readonly tables: readonly TableRecovery[];
  /** integrity_check and the full-text check of the new file (empty: sound). */
  readonly problems: readonly string[];
}

const BATCH = 256;
/** Tables the new file fills itself: the migration log, and FTS shadow tables (rebuilt from facts). */
const NOT_COPIED = /^(sqlite_|schema_migrations$|facts_fts)/;

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Copy every readable row of `from` into `to` (a fresh, migrated database), then rebuild the FTS index. */
export function recoverRows(from: Db, to: Db): RecoveryReport {
  to.pragma('foreign_keys = OFF');
  const fromTables = new Map((from.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'table'`).all() as { name: string; sql: string | null }[]).map((t) => [t.name, t.sql ?? '']));
  const toTables = to.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rowid`).pluck().all() as string[];
  const tables: TableRecovery[] = [];
  for (const table of toTables) {
    if (NOT_COPIED.test(table)) continue;
    const sql = fromTables.get(table);
    if (sql === undefined) continue; // an older schema without this table
    try {
      tables.push(copyTable(from, to, table, /WITHOUT\s+ROWID\s*$/i.test(sql.trim())));
    } catch (err) {
      tables.push({ table, copied: 0, refused: 0, skipped: [], error: messageOf(err) });
    }
  }
  to.exec(`INSERT INTO facts_fts (facts_fts) VALUES ('rebuild')`);
  return { tables, problems: [...integrityProblems(to), ...ftsProblems(to)] };
}

function copyTable(from: Db, to: Db, table: string, withoutRowid: boolean): TableRecovery {
  const columnsOf = (db: Db): string[] => (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
  const have = new Set(columnsOf(from));
  const cols = columnsOf(to).filter((c) => have.has(c));
  const list = cols.map(q).join(', ');
  const insert = to.prepare(`INSERT OR IGNORE INTO ${q(table)} (${list}) VALUES (${cols.map(() => '?').join(', ')})`);
  let copied = 0;
  let refused = 0;
  const write = (rows: readonly unknown[][]): void => {
    to.transaction(() => {
      for (const row of rows) {
        if (insert.run(...row).changes === 1) copied++;
        else refused++;
      }
    })();
  };
  const skipped: string[] = [];
  if (withoutRowid) {
    // No rowid to seek by: keep what a scan reads before it meets the damage.
    const rows: unknown[][] = [];
    try {
      for (const row of from.prepare(`SELECT ${list} FROM ${q(table)}`).raw().iterate()) rows.push(row as unknown[]);
    } catch (err) {
      skipped.push(`after row ${rows.length}: ${messageOf(err)}`);
    }
    write(rows);
    return { table, copied, refused, skipped };
  }
  const page = from.prepare(`SELECT rowid, ${list} FROM ${q(table)} NOT INDEXED WHERE rowid > ? ORDER BY rowid LIMIT ${BATCH}`).raw();
  const one = from.prepare(`SELECT rowid, ${list} FROM ${q(table)} NOT INDEXED WHERE rowid > ? ORDER BY rowid LIMIT 1`).raw();
  const last = maxRowid(from, table);
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    let rows: unknown[][];
    try {
      rows = page.all(after) as unknown[][];
    } catch {
      const row = tryRead(one, after);
      if (row === 'damaged') {
        const resume = nextReadable(one, after, last);
        skipped.push(`${after === Number.MIN_SAFE_INTEGER ? 'start' : after}..${resume ?? 'end'}`);
        if (resume === null) break;
        after = resume;
        continue;
      }
      rows = row === undefined ? [] : [row];
    }
    if (rows.length === 0) break;
    write(rows.map((r) => r.slice(1)));
    after = Number(rows[rows.length - 1]?.[0]);
  }
  return { table, copied, refused, skipped };
}

/** The row after `after`, undefined at the end, or 'damaged' when reading it fails. */
function tryRead(one: Statement, after: number): unknown[] | undefined | 'damaged' {
  try {
    return one.get(after) as unknown[] | undefined;
  } catch {
    return 'damaged';
  }
}

/** The smallest start found from which reading works again (rows from there on are readable), or null. */
function nextReadable(one: Statement, after: number, last: number): number | null {
  const base = after === Number.MIN_SAFE_INTEGER ? 0 : after;
  let failed = base;
  for (let step = 1; base + step / 2 < last; step *= 2) {
    const probe = Math.min(base + step, last);
    if (tryRead(one, probe) === 'damaged') {
      failed = probe;
      continue;
    }
    let lo = failed;
    let hi = probe;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (tryRead(one, mid) === 'damaged') lo = mid;
      else hi = mid;
    }
    return hi;
  }
  return null;
}

/** The largest rowid, read from the rightmost path of the table (or a far bound when that is damaged). */
function maxRowid(db: Db, table: string): number {
  try {
    const v = db.prepare(`SELECT max(rowid) FROM ${q(table)}`).pluck().get() as number | null;
    return v ?? 0;
  } catch {
    return 2 ** 40;
  }
}
