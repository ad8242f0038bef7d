/**
 * A per-connection cache of prepared statements. Preparing costs more than running most of our
 * statements, and repos build some SQL per call (scope predicates), so statements are cached by text.
 */
import type { Database, Statement } from 'better-sqlite3';

const caches = new WeakMap<Database, Map<string, Statement>>();
/** Bound on distinct statements per connection (scope predicates vary with the number of ids). */
const MAX_CACHED = 500;

export function prep(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(sql, stmt);
  }
  return stmt;
}
