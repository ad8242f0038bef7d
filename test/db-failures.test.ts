/**
 * The database refusing writes (design/hardening.md, Durability 4): read-only, locked by another
 * process, disk full. Each gives a clear typed error, writes nothing at all (no fact without its index
 * rows or event), leaves a sound file, and the same service works again once the condition clears.
 */
import { chmodSync, readFileSync } from 'node:fs';
import { sqliteDriver } from '../src/store/native.js';
import type { Database as Db } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import type { FactId } from '../src/core/ids.js';
import { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const Database = sqliteDriver();

const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
const BIG_TEXT = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' ').slice(0, 9_999);

/** Row counts of everything a write touches, including the FTS index's own document table. */
interface Counts {
  readonly facts: number;
  readonly current: number;
  readonly ftsRows: number;
  readonly ftsDocs: number;
  readonly links: number;
  readonly events: number;
  readonly recalls: number;
  readonly episodes: number;
  readonly vault: number;
}

function counts(db: Db): Counts {
  const n = (sql: string): number => db.prepare(sql).pluck().get() as number;
  return {
    facts: n('SELECT count(*) FROM facts'),
    current: n('SELECT count(*) FROM facts WHERE valid_until IS NULL'),
    ftsRows: n('SELECT count(*) FROM facts_fts'),
    ftsDocs: n('SELECT count(*) FROM facts_fts_docsize'),
    links: n('SELECT count(*) FROM links'),
    events: n('SELECT count(*) FROM events'),
    recalls: n('SELECT count(*) FROM recall_events'),
    episodes: n('SELECT count(*) FROM episodes'),
    vault: n('SELECT count(*) FROM vault'),
  };
}

function expectSound(db: Db): void {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  // rank = 1 also compares the index with the facts it indexes.
  expect(() => db.exec(`INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
  const c = counts(db);
  expect(c.ftsDocs).toBe(db.prepare('SELECT count(*) FROM facts WHERE deleted_at IS NULL').pluck().get());
}

async function errorOf(fn: () => unknown): Promise<MemoryError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof MemoryError) return err;
    throw err;
  }
  throw new Error('expected a MemoryError, nothing was thrown');
}

/** Seed a small world: facts (one with an entity for conflicts), a link, a recall. */
async function seed(svc: MemoryService): Promise<{ a: FactId; b: FactId }> {
  const a = svc.memoryStore({ text: 'the deploy token rotates monthly', entity: 'Infra', tags: ['deploy'] }).fact.id;
  const b = svc.memoryStore({ text: 'staging runs on the blue cluster', entity: 'Infra' }).fact.id;
  svc.memoryLink({ sourceId: a, targetId: b });
  await svc.memoryRecall({ query: 'deploy' });
  return { a, b };
}

/** Every kind of write the service makes, each expected to fail with `code` and write nothing. */
async function expectEveryWriteRefused(svc: MemoryService, ids: { a: FactId; b: FactId }, code: MemoryError['code']): Promise<void> {
  const before = counts(svc.db);
  const writes: Record<string, () => unknown> = {
    memoryStore: () => svc.memoryStore({ text: 'a brand new fact about kafka' }),
    bigStore: () => svc.memoryStore({ text: BIG_TEXT, tags: ['big'] }),
    memoryLink: () => svc.memoryLink({ sourceId: ids.b, targetId: ids.a, linkType: 'DEPENDS_ON' }),
    editFact: () => svc.editFact({ id: ids.a, text: 'the deploy token rotates weekly' }),
    deleteFact: () => svc.deleteFact(ids.b),
    pin: () => svc.pin(ids.a),
    vaultPut: () => svc.vaultPut({ service: 'github', secret: 'ghp_canary' }),
  };
  for (const [name, write] of Object.entries(writes)) {
    const err = await errorOf(write);
    expect(err.code, `${name}: ${err.message}`).toBe(code);
    expect(err.cause, `${name} keeps the SQLite error as cause`).toBeDefined();
    expect(svc.db.inTransaction, `${name} left a transaction open`).toBe(false);
    expect(counts(svc.db), `${name} wrote something`).toEqual(before);
  }
  // Reads keep working meanwhile, recall included: its record is written after the answer
  // (src/memory/deferred.ts), so it waits for the database instead of failing the recall.
  expect(svc.getFact(ids.a).text).toBe('the deploy token rotates monthly');
  expect(svc.listFacts().length).toBe(before.current);
  const recall = await svc.memoryRecall({ query: 'deploy' });
  expect(recall.results.map((r) => r.fact.id)).toContain(ids.a);
  expect(counts(svc.db), 'a recall wrote while the database refused writes').toEqual(before);
}

/** Once the condition clears, the same service writes again (and the file is sound). */
async function expectWorksAgain(svc: MemoryService, ids: { a: FactId; b: FactId }): Promise<void> {
  const before = counts(svc.db);
  const big = svc.memoryStore({ text: BIG_TEXT, tags: ['big'] });
  expect(big.created).toBe(true);
  svc.memoryLink({ sourceId: ids.b, targetId: ids.a, linkType: 'DEPENDS_ON' });
  expect((await svc.memoryRecall({ query: 'word7' })).recallId).not.toBeNull();
  svc.editFact({ id: ids.a, text: 'the deploy token rotates weekly' });
  const after = counts(svc.db);
  expect(after.facts).toBe(before.facts + 2);
  expect(after.ftsDocs).toBe(before.ftsDocs + 2);
  expect(after.events).toBeGreaterThan(before.events);
  expectSound(svc.db);
}

describe('database failures', () => {
  let home: TestHome;
  let svc: MemoryService | null = null;
  afterEach(() => {
    svc?.close();
    svc = null;
    home.cleanup();
  });

  it('read-only connection (PRAGMA query_only): MEM_ERR_DB_READONLY, nothing written, works after', async () => {
    // Works as root too, where chmod does not stop writes: SQLite itself refuses every write.
    home = tempHome();
    svc = openService(home).svc;
    const ids = await seed(svc);
    svc.db.pragma('query_only = ON');
    await expectEveryWriteRefused(svc, ids, 'MEM_ERR_DB_READONLY');
    svc.db.pragma('query_only = OFF');
    // The seed's recall and the one answered while refused: kept, and written now.
    expect(counts(svc.db).recalls).toBe(2);
    await expectWorksAgain(svc, ids);
  });

  it.skipIf(IS_ROOT)('read-only file and folder (chmod): opening fails with MEM_ERR_DB_READONLY, file untouched, opens after', async () => {
    // Skipped as root: root ignores file modes, so chmod cannot produce the failure there (the
    // query_only test above covers the write path for everyone).
    home = tempHome();
    const first = openService(home).svc;
    await seed(first);
    first.close();
    const bytes = readFileSync(home.config.dbPath);
    chmodSync(home.config.dbPath, 0o444);
    chmodSync(home.dir, 0o555);
    try {
      const err = await errorOf(() => MemoryService.open({ config: home.config, env: home.env }));
      expect(err.code, err.message).toBe('MEM_ERR_DB_READONLY');
      expect(readFileSync(home.config.dbPath).equals(bytes)).toBe(true);
    } finally {
      chmodSync(home.dir, 0o755);
      chmodSync(home.config.dbPath, 0o644);
    }
    svc = openService(home).svc;
    const ids = { a: svc.listFacts({ entity: 'Infra' })[1]?.id as FactId, b: svc.listFacts({ entity: 'Infra' })[0]?.id as FactId };
    await expectWorksAgain(svc, ids);
  });

  it('locked by another connection (BEGIN EXCLUSIVE): MEM_ERR_DB_BUSY after the configured timeout, nothing written, works after', async () => {
    home = tempHome({ store: { busyTimeoutMs: 50 } });
    svc = openService(home).svc;
    const ids = await seed(svc);
    const locker = new Database(home.config.dbPath);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      locker.prepare(`INSERT INTO meta (key, value) VALUES ('locker', 'uncommitted')`).run();
      const started = Date.now();
      await expectEveryWriteRefused(svc, ids, 'MEM_ERR_DB_BUSY');
      // Eight refused writes, each bounded by the 50 ms timeout: far below one default 5 s timeout.
      expect(Date.now() - started).toBeLessThan(4_000);
      locker.exec('ROLLBACK');
    } finally {
      if (locker.inTransaction) locker.exec('ROLLBACK');
      locker.close();
    }
    expect(counts(svc.db).recalls).toBe(2);
    await expectWorksAgain(svc, ids);
  });

  it('disk full (PRAGMA max_page_count): MEM_ERR_DB_FULL, no half-written fact, works after', async () => {
    home = tempHome();
    svc = openService(home).svc;
    const ids = await seed(svc);
    const pages = svc.db.pragma('page_count', { simple: true }) as number;
    // The file may not grow at all: every write that needs a new page fails as on a full disk.
    expect(svc.db.pragma(`max_page_count = ${pages}`, { simple: true })).toBe(pages);
    const before = counts(svc.db);
    const err = await errorOf(() => svc?.memoryStore({ text: BIG_TEXT, tags: ['big'] }));
    expect(err.code, err.message).toBe('MEM_ERR_DB_FULL');
    expect((err.cause as { code?: string }).code).toBe('SQLITE_FULL');
    expect(svc.db.inTransaction).toBe(false);
    expect(counts(svc.db)).toEqual(before);
    expectSound(svc.db);
    // Small writes may still fit in free pages; keep writing until they fill up. Each write fails whole or
    // succeeds whole.
    let filled = false;
    for (let i = 0; i < 200 && !filled; i++) {
      const c0 = counts(svc.db);
      try {
        svc.memoryStore({ text: `filler fact number ${i} ${'pad '.repeat(200)}` });
        expect(counts(svc.db).facts).toBe(c0.facts + 1);
      } catch (e) {
        expect((e as MemoryError).code).toBe('MEM_ERR_DB_FULL');
        expect(counts(svc.db)).toEqual(c0);
        filled = true;
      }
    }
    expect(filled).toBe(true);
    expectSound(svc.db);
    svc.db.pragma('max_page_count = 1073741823');
    await expectWorksAgain(svc, ids);
  });
});
