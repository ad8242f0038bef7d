/**
 * Versioned schema migrations. Each migration runs in one transaction together with the row that records
 * it (SQLite DDL is transactional), so a crash midway leaves the previous version intact and the next
 * open simply runs it again. A database written by a newer build is refused, never downgraded.
 */
import type { Database } from 'better-sqlite3';
import { MemoryError } from '../core/errors.js';
import { SCHEMA_V1 } from './schema-v1.js';
import { SCHEMA_V2 } from './schema-v2.js';
import { SCHEMA_V3 } from './schema-v3.js';
import { SCHEMA_V4 } from './schema-v4.js';
import { SCHEMA_V5 } from './schema-v5.js';
import { SCHEMA_V6 } from './schema-v6.js';
import { SCHEMA_V7 } from './schema-v7.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Runs inside the migration's transaction. */
  readonly up: (db: Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'core: facts, fts, links, episodes, recalls, events, vault', up: (db) => db.exec(SCHEMA_V1) },
  { version: 2, name: 'embeddings: fact_vectors', up: (db) => db.exec(SCHEMA_V2) },
  { version: 3, name: 'collaboration: orgs, members, spaces, grants, space facts, suggestions, comments, activities', up: (db) => db.exec(SCHEMA_V3) },
  { version: 4, name: 'vault: imported entries awaiting their secret', up: (db) => db.exec(SCHEMA_V4) },
  { version: 5, name: 'recalls: auth hints per session and target', up: (db) => db.exec(SCHEMA_V5) },
  { version: 6, name: "recalls: the kind 'relevant' (memories injected into a turn)", up: (db) => db.exec(SCHEMA_V6) },
  { version: 7, name: 'recalls: the excerpt of the turn that triggered them', up: (db) => db.exec(SCHEMA_V7) },
];

export function schemaVersion(db: Database): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/** Bring the database up to the newest version this build knows. Returns the versions applied. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = schemaVersion(db);
  const newest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  if (current > newest) {
    throw new MemoryError('MEM_ERR_DB_TOO_NEW', `database schema version ${current} is newer than this build supports (${newest}); upgrade hybrid-mem`);
  }
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
    applied.push(m.version);
  }
  return applied;
}
