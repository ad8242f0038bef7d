/**
 * The migration runner under failure (design/hardening.md, Durability 5): a migration killed midway
 * leaves a database that opens and finishes migrating; a newer or foreign file is refused untouched;
 * an up-to-date database is left alone.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteDriver } from '../src/store/native.js';
import type { Database as Db } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import { MemoryService } from '../src/memory/service.js';
import { openDatabase } from '../src/store/db.js';
import { MIGRATIONS, migrate, schemaVersion, type Migration } from '../src/store/migrations.js';
import { tempHome, type TestHome } from './helpers.js';

const Database = sqliteDriver();

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A v2 migration that does real work: DDL, a column added to facts, a backfill of every fact, and a
 * ~6 MB table. The crashing copy below runs it with a small page cache, so uncommitted pages spill into
 * the WAL before the kill and recovery has to ignore them.
 */
const V2_ROWS = 3000;
function v2Up(db: Db): void {
  db.exec('CREATE TABLE fact_notes (fact_id TEXT PRIMARY KEY, note TEXT NOT NULL)');
  db.exec('ALTER TABLE facts ADD COLUMN reviewed INTEGER NOT NULL DEFAULT 0');
  db.exec(`INSERT INTO fact_notes (fact_id, note) SELECT id, 'note for ' || text FROM facts`);
  db.exec('CREATE TABLE bulk (n INTEGER PRIMARY KEY, pad BLOB NOT NULL)');
  const ins = db.prepare('INSERT INTO bulk (n, pad) VALUES (?, randomblob(2000))');
  for (let n = 0; n < V2_ROWS; n++) ins.run(n);
}
/** The test migration comes after every real one. */
const NEXT = Math.max(...MIGRATIONS.map((m) => m.version)) + 1;
const REAL_VERSIONS = MIGRATIONS.map((m) => m.version);
const V2: Migration = { version: NEXT, name: 'notes and bulk', up: v2Up };
const MIGRATIONS_V2: readonly Migration[] = [...MIGRATIONS, V2];

/**
 * The child: open the database with a v2 that runs the same work as V2 above (plus a small page cache)
 * and then SIGKILLs its own process inside the migration's transaction. The source is inlined so the
 * test needs no second fixture file.
 */
const CRASHING_CHILD = `
const { openDatabase } = await import('./src/store/db.ts');
const { MIGRATIONS } = await import('./src/store/migrations.ts');
const [path, rows] = process.argv.slice(1);
const v2 = {
  version: Math.max(...MIGRATIONS.map((m) => m.version)) + 1,
  name: 'notes and bulk',
  up(db) {
    db.pragma('cache_size = 64');
    db.exec('CREATE TABLE fact_notes (fact_id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    db.exec('ALTER TABLE facts ADD COLUMN reviewed INTEGER NOT NULL DEFAULT 0');
    db.exec("INSERT INTO fact_notes (fact_id, note) SELECT id, 'note for ' || text FROM facts");
    db.exec('CREATE TABLE bulk (n INTEGER PRIMARY KEY, pad BLOB NOT NULL)');
    const ins = db.prepare('INSERT INTO bulk (n, pad) VALUES (?, randomblob(2000))');
    for (let n = 0; n < Number(rows); n++) ins.run(n);
    process.stdout.write('midway\\n');
    process.kill(process.pid, 'SIGKILL');
  },
};
openDatabase(path, { migrations: [...MIGRATIONS, v2] });
process.stdout.write('migration finished?!\\n');
`;

function runCrashingMigration(dbPath: string): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CRASHING_CHILD, dbPath, String(V2_ROWS)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout, stderr }));
  });
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof MemoryError) return err.code;
    throw err;
  }
  throw new Error('expected a MemoryError, nothing was thrown');
}

function tableExists(db: Db, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(name) !== undefined;
}

describe('schema migrations', () => {
  let home: TestHome;
  afterEach(() => home.cleanup());

  it('a migration killed midway leaves the previous version; the next open finishes it exactly once', async () => {
    home = tempHome();
    const svc = MemoryService.open({ config: home.config, env: home.env });
    const texts = ['the deploy key lives in the ops vault', 'Alice prefers dark mode', 'backups run nightly at 02:00'];
    const ids = texts.map((text) => svc.memoryStore({ text, entity: 'Ops' }).fact.id);
    svc.memoryLink({ sourceId: ids[0] as string, targetId: ids[1] as string });
    svc.close();
    const before = new Database(home.config.dbPath, { readonly: true });
    const snapshot = before.prepare('SELECT id, text, lineage_id, version FROM facts ORDER BY seq').all();
    const linksBefore = before.prepare('SELECT id, source_id, target_id FROM links ORDER BY seq').all();
    before.close();

    const child = await runCrashingMigration(home.config.dbPath);
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(child.stdout).toBe('midway\n');
    // The kill left megabytes of uncommitted frames in the WAL, which recovery must ignore.
    expect(statSync(`${home.config.dbPath}-wal`).size).toBeGreaterThan(1_000_000);

    // A reader of the crashed file sees version 1, untouched: none of v2's work is visible.
    const crashed = new Database(home.config.dbPath, { readonly: true });
    expect(crashed.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(REAL_VERSIONS);
    expect(tableExists(crashed, 'fact_notes')).toBe(false);
    expect(tableExists(crashed, 'bulk')).toBe(false);
    expect((crashed.prepare('PRAGMA table_info(facts)').all() as { name: string }[]).map((c) => c.name)).not.toContain('reviewed');
    crashed.close();

    const db = openDatabase(home.config.dbPath, { migrations: MIGRATIONS_V2 });
    try {
      expect(db.prepare('SELECT version, count(*) AS n FROM schema_migrations GROUP BY version ORDER BY version').all()).toEqual([
        ...REAL_VERSIONS.map((version) => ({ version, n: 1 })),
        { version: NEXT, n: 1 },
      ]);
      expect(schemaVersion(db)).toBe(NEXT);
      // v2's work is there once: one note per fact, the bulk table filled once.
      expect(db.prepare('SELECT count(*) FROM fact_notes').pluck().get()).toBe(texts.length);
      expect(db.prepare('SELECT count(*) FROM bulk').pluck().get()).toBe(V2_ROWS);
      expect(db.prepare('SELECT count(*) FROM facts WHERE reviewed = 0').pluck().get()).toBe(texts.length);
      // v1 data is intact.
      expect(db.prepare('SELECT id, text, lineage_id, version FROM facts ORDER BY seq').all()).toEqual(snapshot);
      expect(db.prepare('SELECT id, source_id, target_id FROM links ORDER BY seq').all()).toEqual(linksBefore);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(() => db.exec(`INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
      expect(db.prepare(`SELECT count(*) FROM facts_fts WHERE facts_fts MATCH 'nightly'`).pluck().get()).toBe(1);
      // And a second pass has nothing left to do.
      expect(migrate(db, MIGRATIONS_V2)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a migration that throws rolls back completely and the open fails with the cause', () => {
    home = tempHome();
    openDatabase(home.config.dbPath).close();
    const failing: Migration = {
      version: NEXT,
      name: 'fails halfway',
      up: (db) => {
        v2Up(db);
        db.exec('INSERT INTO no_such_table VALUES (1)');
      },
    };
    expect(() => openDatabase(home.config.dbPath, { migrations: [...MIGRATIONS, failing] })).toThrow(/no such table/);
    const db = openDatabase(home.config.dbPath);
    try {
      expect(schemaVersion(db)).toBe(NEXT - 1);
      expect(tableExists(db, 'fact_notes')).toBe(false);
      expect(tableExists(db, 'bulk')).toBe(false);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer build with MEM_ERR_DB_TOO_NEW and leaves the file unchanged', () => {
    home = tempHome();
    const svc = MemoryService.open({ config: home.config, env: home.env });
    svc.memoryStore({ text: 'written by a future hybrid-mem' });
    svc.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, ?, ?)').run('from the future', Date.now());
    svc.close();
    const hash = sha(home.config.dbPath);

    expect(codeOf(() => openDatabase(home.config.dbPath))).toBe('MEM_ERR_DB_TOO_NEW');
    expect(codeOf(() => MemoryService.open({ config: home.config, env: home.env }))).toBe('MEM_ERR_DB_TOO_NEW');
    expect(sha(home.config.dbPath)).toBe(hash);
    const db = new Database(home.config.dbPath, { readonly: true });
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(99);
    expect(db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(1);
    db.close();
  });

  it('refuses a file that is not SQLite with MEM_ERR_DB_CORRUPT and leaves it unchanged', () => {
    home = tempHome();
    const path = join(home.dir, 'memory.db');
    const junk = 'this is a text file, not a database. '.repeat(200);
    writeFileSync(path, junk);
    expect(codeOf(() => openDatabase(path))).toBe('MEM_ERR_DB_CORRUPT');
    expect(codeOf(() => MemoryService.open({ config: home.config, env: home.env }))).toBe('MEM_ERR_DB_CORRUPT');
    expect(readFileSync(path, 'utf8')).toBe(junk);
  });

  it("version 6 rebuilds recall_events for the kind 'relevant', keeping every row and index", () => {
    home = tempHome();
    const Database = sqliteDriver();
    const db = new Database(home.config.dbPath);
    try {
      migrate(db, MIGRATIONS.filter((m) => m.version <= 5));
      const insert = db.prepare('INSERT INTO recall_events (id, kind, query, target, owner_role, owner_agent, owner_session, scores, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      insert.run('r1', 'auth_failure', 'db2 credential', 'db2', 'specialist', 'a', 's', '[]', 1);
      insert.run('r2', 'memory_recall', 'staging', null, 'operator', null, null, '[{"factId":"f1"}]', 2);
      expect(() => insert.run('r3', 'relevant', 'q', null, 'operator', null, 's', '[]', 3)).toThrow(/CHECK/);
      expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 6))).toEqual([6]);
      expect(db.prepare('SELECT id, kind, target, scores FROM recall_events ORDER BY id').all()).toEqual([
        { id: 'r1', kind: 'auth_failure', target: 'db2', scores: '[]' },
        { id: 'r2', kind: 'memory_recall', target: null, scores: '[{"factId":"f1"}]' },
      ]);
      insert.run('r3', 'relevant', 'q', null, 'operator', null, 's', '[]', 3);
      expect(() => insert.run('r4', 'other', 'q', null, 'operator', null, null, '[]', 4)).toThrow(/CHECK/);
      const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'recall_events' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
      expect(indexes).toEqual(['recall_events_owner', 'recall_events_session_target', 'recall_events_time']);
      // Version 7 adds the turn excerpt; the rows keep theirs empty.
      expect(migrate(db)).toEqual([7]);
      expect(db.prepare('SELECT id, excerpt FROM recall_events ORDER BY id').all()).toEqual([
        { id: 'r1', excerpt: null },
        { id: 'r2', excerpt: null },
        { id: 'r3', excerpt: null },
      ]);
    } finally {
      db.close();
    }
  });

  it('reopening an up-to-date database applies nothing', () => {
    home = tempHome();
    const first = openDatabase(home.config.dbPath);
    const rows = first.prepare('SELECT * FROM schema_migrations').all();
    expect(rows).toHaveLength(MIGRATIONS.length);
    first.close();
    const again = openDatabase(home.config.dbPath);
    try {
      expect(again.prepare('SELECT * FROM schema_migrations').all()).toEqual(rows);
      expect(migrate(again)).toEqual([]);
      expect(again.prepare('SELECT * FROM schema_migrations').all()).toEqual(rows);
    } finally {
      again.close();
    }
  });
});
