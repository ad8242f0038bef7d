/**
 * memory_recall's record (recall event, recall counts, strength, co-recall links, episode) is written after
 * the answer, batched (src/memory/deferred.ts): nothing of it is in the answer's path, every read through
 * the service still sees it, and nothing is lost on close, on a locked database or on a failing write.
 * Real SQLite files; a second connection plays another process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeferredWrites, MAX_KEPT, MAX_PENDING } from '../src/memory/deferred.js';
import type { MemoryService } from '../src/memory/service.js';
import { openDatabase } from '../src/store/db.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('deferred recall records', () => {
  let home: TestHome;
  let svc: MemoryService;
  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
  });

  function setUp(): { other: ReturnType<typeof openDatabase>; count: () => number } {
    home = tempHome();
    ({ svc } = openService(home));
    svc.memoryStore({ text: 'the staging database runs on db2.internal', entity: 'staging' });
    svc.memoryStore({ text: 'the staging database is backed up nightly', entity: 'staging' });
    const other = openDatabase(home.config.dbPath);
    return { other, count: () => other.prepare('SELECT count(*) FROM recall_events').pluck().get() as number };
  }

  it('the answer returns before its record is written; the record lands one event-loop turn later', async () => {
    const { other, count } = setUp();
    const r = await svc.memoryRecall({ query: 'staging database' });
    expect(r.recallId).not.toBeNull();
    expect(count()).toBe(0);
    await turn();
    expect(count()).toBe(1);
    const row = other.prepare('SELECT kind, query FROM recall_events WHERE id = ?').get(r.recallId) as { kind: string; query: string };
    expect(row).toEqual({ kind: 'memory_recall', query: 'staging database' });
    const counts = other.prepare('SELECT recall_count FROM facts ORDER BY seq').pluck().all();
    expect(counts).toEqual([1, 1]);
    const event = other.prepare("SELECT count(*) FROM events WHERE kind = 'recall'").pluck().get();
    expect(event).toBe(1);
    other.close();
  });

  it('a burst of recalls in one turn is one batch; every record lands', async () => {
    const { other, count } = setUp();
    const ids = [];
    for (let i = 0; i < 40; i++) ids.push((await svc.memoryRecall({ query: i % 2 ? 'staging' : 'database backed' })).recallId);
    expect(count()).toBe(0);
    await turn();
    expect(count()).toBe(40);
    expect(new Set(other.prepare('SELECT id FROM recall_events').pluck().all())).toEqual(new Set(ids));
    other.close();
  });

  it('reads and writes through the service see the recall answered just before (read-your-writes)', async () => {
    const { other, count } = setUp();
    const r = await svc.memoryRecall({ query: 'staging database' });
    // Same turn, no yield: the history read flushes first.
    expect(svc.recallHistory().map((e) => e.id)).toContain(r.recallId);
    expect(svc.listFacts().every((f) => f.recallCount === 1)).toBe(true);
    const again = await svc.memoryRecall({ query: 'nightly backup' });
    // A write transaction commits the queued record first, in its own transaction.
    svc.memoryStore({ text: 'the production database runs on db1.internal', entity: 'production' });
    expect(count()).toBe(2);
    expect(other.prepare('SELECT count(*) FROM recall_events WHERE id = ?').pluck().get(again.recallId)).toBe(1);
    other.close();
  });

  it('close() writes what is queued: nothing answered is lost', async () => {
    const { other, count } = setUp();
    const r = await svc.memoryRecall({ query: 'staging database' });
    await svc.close();
    expect(count()).toBe(1);
    expect(other.prepare('SELECT id FROM recall_events').pluck().get()).toBe(r.recallId);
    other.close();
  });
});

describe('DeferredWrites', () => {
  let home: TestHome;
  afterEach(() => home?.cleanup());

  function db(busyTimeoutMs = 5000) {
    const d = openDatabase(home.config.dbPath, { busyTimeoutMs });
    d.exec('CREATE TABLE IF NOT EXISTS t (v TEXT NOT NULL)');
    return d;
  }

  it('a write that fails alone is reported and skipped; the others commit', () => {
    home = tempHome();
    const d = db();
    const errors: unknown[] = [];
    let commits = 0;
    const w = new DeferredWrites(d, () => commits++, (e) => errors.push(e));
    const insert = d.prepare('INSERT INTO t (v) VALUES (?)');
    w.later(() => insert.run('a'));
    w.later(() => insert.run(null));
    w.later(() => insert.run('c'));
    w.flush();
    expect(d.prepare('SELECT v FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'c']);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/NOT NULL/);
    expect(commits).toBe(1);
    expect(w.pending).toBe(0);
    w.close();
    d.close();
  });

  it('a database locked by another process keeps the queue and retries until it commits', async () => {
    home = tempHome();
    const d = db(20);
    const locker = db(20);
    const errors: unknown[] = [];
    const w = new DeferredWrites(d, () => undefined, (e) => errors.push(e));
    locker.exec('BEGIN IMMEDIATE');
    w.later(() => d.prepare("INSERT INTO t (v) VALUES ('kept')").run());
    w.flush();
    expect(w.pending).toBe(1);
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual(['MEM_ERR_DB_BUSY']);
    // Meanwhile writes are kept, not flushed one by one against the lock, and within bounds.
    for (let i = 0; i < MAX_KEPT + 4; i++) w.later(() => d.prepare("INSERT INTO t (v) VALUES ('later')").run());
    expect(w.pending).toBe(MAX_KEPT);
    expect(errors).toHaveLength(2);
    expect(String(errors[1])).toMatch(/10000 recall records are kept, older ones dropped/);
    locker.exec('COMMIT');
    await new Promise((done) => setTimeout(done, 600));
    expect(w.pending).toBe(0);
    expect(locker.prepare('SELECT count(*) FROM t').pluck().get()).toBe(MAX_KEPT);
    expect(String(errors[2])).toMatch(/5 recall record\(s\) were dropped/);
    w.close();
    d.close();
    locker.close();
  });

  it(`a caller that never yields is flushed at ${MAX_PENDING} queued writes (bounded memory)`, () => {
    home = tempHome();
    const d = db();
    const w = new DeferredWrites(d, () => undefined);
    const insert = d.prepare("INSERT INTO t (v) VALUES ('x')");
    for (let i = 0; i < MAX_PENDING - 1; i++) w.later(() => insert.run());
    expect(w.pending).toBe(MAX_PENDING - 1);
    w.later(() => insert.run());
    expect(w.pending).toBe(0);
    expect(d.prepare('SELECT count(*) FROM t').pluck().get()).toBe(MAX_PENDING);
    w.close();
    expect(() => w.later(() => insert.run())).toThrow(/closed/);
    d.close();
  });
});
