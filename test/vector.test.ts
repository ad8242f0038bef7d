/**
 * The vector actor with a real worker, a real SQLite file and a real index file: search with filters,
 * persistence, and every way the saved index can be wrong (missing, truncated, bit-flipped, another
 * model's, stale, no manifest, a crash between the two renames) leading to a rebuild, never a crash.
 */
import type { Database } from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VectorClient, type VectorClientOptions } from '../src/actors/vector/client.js';
import type { VectorFilter, VectorInit } from '../src/actors/vector/contract.js';
import { manifestPath } from '../src/actors/vector/index-file.js';
import { visibility } from '../src/core/scope.js';
import { OPERATOR, type Caller, type Category } from '../src/core/types.js';
import { openDatabase } from '../src/store/db.js';

const DIM = 16;
const MODEL = 'test-model';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

interface Env {
  readonly dbPath: string;
  readonly indexPath: string;
  readonly db: Database;
}

function setup(from?: string): Env {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-vector-'));
  if (from) cpSync(from, dir, { recursive: true });
  const dbPath = join(dir, 'memory.db');
  const db = openDatabase(dbPath);
  closers.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dbPath, indexPath: join(dir, 'index', 'vectors.usearch'), db };
}

interface FactOpts {
  readonly scope?: 'global' | 'agent' | 'session';
  readonly agent?: string | null;
  readonly session?: string | null;
  readonly category?: Category;
  readonly entity?: string | null;
  readonly tags?: readonly string[];
  readonly ended?: 'superseded' | 'deleted';
}

function addFact(db: Database, seq: number, o: FactOpts = {}): void {
  const ended = o.ended ? 1000 : null;
  db.prepare(
    `INSERT INTO facts (seq, id, text, category, entity, tags, importance, confidence, decay_class, scope_kind, scope_agent, scope_session,
      lineage_id, version, created_at, updated_at, valid_from, valid_until, deleted_at, ended_reason, source, dedupe_key)
     VALUES (?, ?, ?, ?, ?, ?, 0.5, 0.8, 'stable', ?, ?, ?, ?, 1, 1, 1, 1, ?, ?, ?, 'test', ?)`,
  ).run(seq, `fact_${seq}`, `fact number ${seq}`, o.category ?? 'fact', o.entity ?? null, JSON.stringify(o.tags ?? []), o.scope ?? 'global', o.agent ?? null,
    o.session ?? null, `lin_${seq}`, ended, o.ended === 'deleted' ? ended : null, o.ended ?? null, `dk_${seq}`);
}

function addVector(db: Database, seq: number, v: Float32Array, model = MODEL): void {
  db.prepare('INSERT OR REPLACE INTO fact_vectors (fact_seq, model_id, dim, vector, created_at) VALUES (?, ?, ?, ?, 1)').run(seq, model, v.length, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
}

/** A deterministic pseudo-random unit vector; `near(base, eps, i)` is a small perturbation of base. */
function randomUnit(seed: number, dim = DIM): Float32Array {
  let s = (seed * 2654435761) >>> 0;
  const v = new Float32Array(dim);
  for (let j = 0; j < dim; j++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    v[j] = s / 4294967296 - 0.5;
  }
  return unit(v);
}

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function near(base: Float32Array, eps: number, seed: number): Float32Array {
  const r = randomUnit(seed, base.length);
  return unit(base.map((x, j) => x + eps * (r[j] as number)));
}

function axis(j: number): Float32Array {
  const v = new Float32Array(DIM);
  v[j] = 1;
  return v;
}

function open(env: Env, over: Partial<VectorInit> = {}, opts: Partial<VectorClientOptions> = {}): VectorClient {
  const c = new VectorClient({ init: { dbPath: env.dbPath, indexPath: env.indexPath, modelId: MODEL, dim: DIM, ...over }, persistEveryMs: 0, ...opts });
  closers.push(() => c.close());
  return c;
}

const filterFor = (caller: Caller, extra: Partial<VectorFilter> = {}): VectorFilter => ({ visibility: visibility(caller), includeSuperseded: false, ...extra });
const ALL = filterFor(OPERATOR);

/** `n` global facts with vectors scattered around `n / 10` directions; returns the vectors by seq. */
function corpus(env: Env, n: number, first = 1): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  env.db.transaction(() => {
    for (let seq = first; seq < first + n; seq++) {
      const v = near(randomUnit(1 + (seq % Math.max(1, Math.floor(n / 10)))), 0.3, seq);
      addFact(env.db, seq);
      addVector(env.db, seq, v);
      out.set(seq, v);
    }
  })();
  return out;
}

describe('vector index: search', () => {
  it('adds, replaces, searches and removes; vectors travel by transfer', async () => {
    const env = setup();
    for (const seq of [1, 2, 3]) addFact(env.db, seq);
    const c = open(env);
    expect(await c.ready()).toEqual({ source: 'empty', reason: 'no manifest', count: 0 });

    const batch = new Float32Array(3 * DIM);
    [axis(0), axis(1), near(axis(0), 0.2, 9)].forEach((v, i) => batch.set(v, i * DIM));
    expect(await c.upsert([1, 2, 3], batch)).toBe(3);
    expect(batch.byteLength).toBe(0); // transferred, not copied

    const q = axis(0);
    const hits = await c.search(q, 2, ALL);
    expect(q.byteLength).toBe(DIM * 4); // the query is left intact
    expect(hits.map((h) => h.seq)).toEqual([1, 3]);
    expect(hits[0]?.similarity).toBeCloseTo(1, 5);

    await c.upsert([1], axis(5)); // replace: fact 1 moves away
    expect((await c.search(axis(0), 1, ALL))[0]?.seq).toBe(3);
    expect((await c.search(axis(5), 1, ALL))[0]).toMatchObject({ seq: 1 });

    expect(await c.remove([3, 42])).toBe(1);
    expect((await c.search(axis(0), 3, ALL)).map((h) => h.seq)).not.toContain(3);
    expect(await c.stats()).toEqual({ count: 2, dim: DIM, modelId: MODEL, dirty: true });
    await expect(c.search(new Float32Array(DIM + 1), 1, ALL)).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
    await expect(c.upsert([7, 7], new Float32Array(2 * DIM))).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
  });

  it('filters by scope, currency, category and credentials before cutting k', async () => {
    const env = setup();
    const facts: [number, FactOpts][] = [
      [1, {}],
      [2, { scope: 'agent', agent: 'a1' }],
      [3, { scope: 'agent', agent: 'a2' }],
      [4, { scope: 'session', session: 's1' }],
      [5, { ended: 'superseded' }],
      [6, { category: 'preference' }],
      [7, { entity: 'Credentials' }],
      [8, { tags: ['token'] }],
      [9, { ended: 'deleted' }],
    ];
    for (const [seq, o] of facts) {
      addFact(env.db, seq, o);
      addVector(env.db, seq, near(axis(0), 0.05 * seq, seq));
    }
    const c = open(env);
    expect(await c.ready()).toMatchObject({ source: 'rebuilt', count: 7 }); // 5 and 9 are not current
    const seqs = async (f: VectorFilter) => (await c.search(axis(0), 10, f)).map((h) => h.seq).sort((a, b) => a - b);

    expect(await seqs(ALL)).toEqual([1, 2, 3, 4, 6, 7, 8]);
    const a1 = { role: 'specialist', agentId: 'a1', sessionId: 's9' } as const;
    expect(await seqs(filterFor(a1))).toEqual([1, 2, 6, 7, 8]);
    expect(await seqs(filterFor({ role: 'orchestrator', agentId: null, sessionId: 's1' }))).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(await seqs(filterFor({ role: 'specialist', agentId: 'a2', sessionId: 's1' }, { category: 'preference' }))).toEqual([6]);
    expect(await seqs(filterFor(OPERATOR, { credentialsOnly: true }))).toEqual([7, 8]);

    // Superseded versions are not indexed; includeSuperseded only relaxes the filter. A client that
    // upserts one anyway sees the filter decide: hidden by default, shown with includeSuperseded, and a
    // deleted one never.
    await c.upsert([5, 9], new Float32Array([...axis(0), ...axis(0)]));
    expect(await seqs(ALL)).not.toContain(5);
    expect(await seqs(filterFor(OPERATOR, { includeSuperseded: true }))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps k visible hits when thousands of nearer ones are out of scope (over-fetch, then exact)', async () => {
    const env = setup();
    const target = axis(3);
    env.db.transaction(() => {
      for (let seq = 1; seq <= 5000; seq++) {
        addFact(env.db, seq, { scope: 'agent', agent: 'other' });
        addVector(env.db, seq, near(target, 0.2, seq));
      }
      for (let seq = 5001; seq <= 5100; seq++) {
        addFact(env.db, seq, { scope: 'agent', agent: seq <= 5003 ? 'me' : 'other' });
        addVector(env.db, seq, near(axis(7), 0.2, seq));
      }
      for (let seq = 5101; seq <= 5110; seq++) {
        addFact(env.db, seq, { scope: 'agent', agent: 'me' });
        addVector(env.db, seq, near(target, 1.5, seq));
      }
    })();
    const c = open(env);
    const me = filterFor({ role: 'specialist', agentId: 'me', sessionId: null });
    // 5101..5110 are "me" but far out among 5000 nearer "other" facts: reached only by the exact fallback.
    const hits = await c.search(target, 13, me);
    expect(hits.map((h) => h.seq).sort((a, b) => a - b)).toEqual([5001, 5002, 5003, ...Array.from({ length: 10 }, (_, i) => 5101 + i)]);
    expect(hits.map((h) => h.similarity)).toEqual([...hits.map((h) => h.similarity)].sort((a, b) => b - a));
    // The operator's nearest are the 5000 others.
    expect((await c.search(target, 5, ALL)).every((h) => h.seq <= 5000)).toBe(true);
  });
});

describe('vector index: persistence', () => {
  it('persists only when dirty, and a reopened index is loaded, not rebuilt', async () => {
    const env = setup();
    const vecs = corpus(env, 300);
    const c1 = open(env);
    expect(await c1.ready()).toEqual({ source: 'rebuilt', reason: 'no manifest', count: 300 });
    expect(await c1.persist()).toEqual({ written: true, count: 300 });
    expect(await c1.persist()).toEqual({ written: false, count: 300 });
    const before = await c1.search(vecs.get(17) as Float32Array, 5, ALL);
    await c1.close();
    const manifest = JSON.parse(readFileSync(manifestPath(env.indexPath), 'utf8')) as { count: number; bytes: number; modelId: string };
    expect(manifest).toMatchObject({ count: 300, modelId: MODEL, bytes: statSync(env.indexPath).size });

    // Temp files of a writer that died mid-persist are swept at the next start; a live one's are not.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const deadTemp = `${env.indexPath}.tmp-${dead}-1`;
    const liveTemp = `${manifestPath(env.indexPath)}.tmp-${process.pid}-99`;
    for (const f of [deadTemp, liveTemp]) writeFileSync(f, 'partial');
    const c2 = open(env);
    expect(await c2.ready()).toEqual({ source: 'loaded', reason: null, count: 300 });
    expect([existsSync(deadTemp), existsSync(liveTemp)]).toEqual([false, true]);
    expect(await c2.search(vecs.get(17) as Float32Array, 5, ALL)).toEqual(before);
    expect((await c2.stats()).dirty).toBe(false);
  });

  it('a host that never closes still leaves the index and its manifest once changes settle (persistAfterMs)', async () => {
    const env = setup();
    corpus(env, 40);
    const c1 = open(env, {}, { persistEveryMs: 30_000, persistAfterMs: 200 });
    expect(await c1.ready()).toMatchObject({ source: 'rebuilt', reason: 'no manifest' });
    await expect.poll(() => existsSync(manifestPath(env.indexPath)), { timeout: 5000, interval: 50 }).toBe(true);
    const v = randomUnit(4242);
    addFact(env.db, 41);
    addVector(env.db, 41, v);
    await c1.upsert([41], v, { keep: true });
    await expect.poll(() => (JSON.parse(readFileSync(manifestPath(env.indexPath), 'utf8')) as { count: number }).count, { timeout: 5000, interval: 50 }).toBe(41);
    // A second process-like opener (c1 never closed) loads what was left, no rebuild.
    expect(await open(env).ready()).toEqual({ source: 'loaded', reason: null, count: 41 });
  });

  it('close() persists what changed', async () => {
    const env = setup();
    corpus(env, 50);
    const c1 = open(env);
    await c1.ready();
    await c1.close();
    expect(await open(env).ready()).toMatchObject({ source: 'loaded', count: 50 });
  });

  /**
   * One persisted index of 300 facts, built once; every case starts from a copy of its files (so a case
   * costs one worker start, not two) and damages it with `harm`.
   */
  const pristine = { dir: '', vecs: new Map<number, Float32Array>() };
  beforeAll(async () => {
    const env = setup();
    pristine.vecs = corpus(env, 300);
    const c = open(env);
    await c.ready();
    await c.persist();
    await c.close();
    env.db.pragma('wal_checkpoint(TRUNCATE)');
    pristine.dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-vector-pristine-'));
    cpSync(dirname(env.dbPath), pristine.dir, { recursive: true });
    for (const c of closers.splice(0).reverse()) await c();
  });
  afterAll(() => rmSync(pristine.dir, { recursive: true, force: true }));

  function damaged(harm: (env: Env) => void): { env: Env; vecs: Map<number, Float32Array> } {
    const env = setup(pristine.dir);
    harm(env);
    return { env, vecs: new Map(pristine.vecs) };
  }

  async function expectRebuilt(env: Env, vecs: Map<number, Float32Array>, reason: RegExp, count = 300, over: Partial<VectorInit> = {}): Promise<VectorClient> {
    const c = open(env, over);
    const r = await c.ready();
    expect(r).toMatchObject({ source: 'rebuilt', count });
    expect(r.reason).toMatch(reason);
    for (const seq of [1, 150, 300]) {
      const v = vecs.get(seq);
      if (v && !over.modelId) expect((await c.search(v, 1, ALL))[0]?.seq).toBe(seq);
    }
    return c;
  }

  const flip = (file: string, at: (size: number) => number): void => {
    const buf = readFileSync(file);
    const i = at(buf.length);
    buf[i] = (buf[i] as number) ^ 0x01;
    writeFileSync(file, buf);
  };

  it('rebuilds when the index file is missing', async () => {
    const { env, vecs } = damaged((e) => unlinkSync(e.indexPath));
    await expectRebuilt(env, vecs, /index file missing/);
  });

  it('rebuilds when the index file is truncated', async () => {
    const { env, vecs } = damaged((e) => truncateSync(e.indexPath, Math.floor(statSync(e.indexPath).size / 2)));
    await expectRebuilt(env, vecs, /truncated/);
  });

  it('rebuilds when one bit of the index file flipped (header or body)', async () => {
    const { env, vecs } = damaged((e) => flip(e.indexPath, (n) => Math.floor(n / 2)));
    await expectRebuilt(env, vecs, /checksum mismatch/);
    // Byte 0: handed to usearch, this file corrupts the heap and aborts the process (SIGABRT, seen here).
    const second = damaged((e) => flip(e.indexPath, () => 0));
    await expectRebuilt(second.env, second.vecs, /checksum mismatch/);
  });

  it("rebuilds when the manifest is another model's", async () => {
    const { env, vecs } = damaged((e) => {
      const m = JSON.parse(readFileSync(manifestPath(e.indexPath), 'utf8')) as Record<string, unknown>;
      writeFileSync(manifestPath(e.indexPath), JSON.stringify({ ...m, modelId: 'other-model' }));
    });
    await expectRebuilt(env, vecs, /built for model other-model/);
  });

  it('rebuilds for a new model (provider change): only that model\u2019s vectors are indexed', async () => {
    const { env, vecs } = damaged((e) => {
      for (let seq = 301; seq <= 320; seq++) {
        addFact(e.db, seq);
        addVector(e.db, seq, axis(seq % DIM), 'model-b');
      }
    });
    await expectRebuilt(env, vecs, new RegExp(`built for model ${MODEL}, not model-b`), 20, { modelId: 'model-b' });
  });

  it('rebuilds when SQLite moved on after the persist (stale)', async () => {
    const { env, vecs } = damaged((e) => {
      addFact(e.db, 301);
      addVector(e.db, 301, axis(2));
    });
    const c = await expectRebuilt(env, vecs, /^stale/, 301);
    expect((await c.search(axis(2), 1, ALL))[0]?.seq).toBe(301);
  });

  it('rebuilds when a fact was superseded after the persist (stale)', async () => {
    const { env, vecs } = damaged((e) => e.db.prepare("UPDATE facts SET valid_until = 5, ended_reason = 'superseded' WHERE seq = 150").run());
    vecs.delete(150);
    await expectRebuilt(env, vecs, /^stale/, 299);
  });

  it('rebuilds when the manifest is missing or garbage', async () => {
    const a = damaged((e) => unlinkSync(manifestPath(e.indexPath)));
    await expectRebuilt(a.env, a.vecs, /^no manifest$/);
    const b = damaged((e) => writeFileSync(manifestPath(e.indexPath), '{"format": "hybrid-mem/us'));
    await expectRebuilt(b.env, b.vecs, /not JSON/);
  });

  it('rebuilds after a crash between the two renames (new index file, old manifest)', async () => {
    const env = setup();
    const vecs = corpus(env, 300);
    const c = open(env);
    await c.ready();
    await c.persist();
    const oldManifest = readFileSync(manifestPath(env.indexPath));
    await c.upsert([10], near(vecs.get(10) as Float32Array, 0.1, 77)); // same keys, new bytes
    await c.persist();
    await c.close();
    writeFileSync(manifestPath(env.indexPath), oldManifest);
    await expectRebuilt(env, vecs, /checksum mismatch|truncated/);
  });

  it('a child process opening a damaged index exits normally (usearch never sees the file)', async () => {
    const { env } = damaged((e) => flip(e.indexPath, () => 0)); // aborts the process if loaded
    const script = `
      import { VectorClient } from ${JSON.stringify(new URL('../src/actors/vector/client.ts', import.meta.url).href)};
      const c = new VectorClient({ init: ${JSON.stringify({ dbPath: env.dbPath, indexPath: env.indexPath, modelId: MODEL, dim: DIM })}, persistEveryMs: 0 });
      const r = await c.ready();
      const hits = await c.search(new Float32Array(${DIM}).fill(0.25), 3, { visibility: { all: true, agentIds: 'any', sessionIds: 'any' }, includeSuperseded: false });
      await c.close();
      console.log(JSON.stringify({ r, hits: hits.length }));`;
    // A script file, not -e: worker threads inherit execArgv, and --input-type is refused there.
    const file = join(dirname(env.dbPath), 'open-damaged.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8', timeout: 25_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const out = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { r: { source: string; reason: string }; hits: number };
    expect(out).toMatchObject({ r: { source: 'rebuilt' }, hits: 3 });
    expect(out.r.reason).toMatch(/checksum mismatch/);
  });

  /** Rewrite the manifest's size and checksum to match the (damaged) file, as an attacker or a bad tool would. */
  const forgeManifest = (e: Env): void => {
    const m = JSON.parse(readFileSync(manifestPath(e.indexPath), 'utf8')) as Record<string, unknown>;
    const bytes = readFileSync(e.indexPath);
    writeFileSync(manifestPath(e.indexPath), JSON.stringify({ ...m, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }));
    rmSync(`${e.indexPath}.known`, { force: true });
  };

  it('a truncated file whose manifest was made to match is loaded in a separate process first: that one dies, this one rebuilds', async () => {
    for (const cut of [0.2, 0.5, 0.9]) {
      const { env, vecs } = damaged((e) => {
        truncateSync(e.indexPath, Math.floor(statSync(e.indexPath).size * cut));
        forgeManifest(e);
      });
      const c = await expectRebuilt(env, vecs, /failed a load in a separate process \((died of SIGABRT|died of SIGSEGV|exited with \d+)/);
      expect(existsSync(`${env.indexPath}.damaged`)).toBe(true);
      // The rebuilt index is written and known: the next start loads it, with no probe.
      await c.close();
      const manifest = JSON.parse(readFileSync(manifestPath(env.indexPath), 'utf8')) as { sha256: string };
      expect(readFileSync(`${env.indexPath}.known`, 'utf8').trim()).toBe(manifest.sha256);
      expect(await open(env).ready()).toMatchObject({ source: 'loaded', count: 300 });
    }
  }, 60_000);

  it('never crash-loops: a file whose loads twice never returned is set aside; once (a one-shot exit), or a live process loading it, is not', async () => {
    // Pids of processes that are gone (short children that exited).
    const gone = (): number => spawnSync(process.execPath, ['-e', '']).pid;
    const marks = (e: Env, pids: readonly (number | string)[]): void => {
      const m = JSON.parse(readFileSync(manifestPath(e.indexPath), 'utf8')) as { sha256: string };
      for (const pid of pids) writeFileSync(`${e.indexPath}.loading-${pid}`, `${m.sha256}\n`);
    };
    // Once, and a live process (the test's own parent) in the middle of loading it: loaded as usual.
    const once = damaged((e) => marks(e, [gone(), process.ppid]));
    expect(await open(once.env).ready()).toMatchObject({ source: 'loaded', count: 300 });
    expect(existsSync(`${once.env.indexPath}.damaged`)).toBe(false);
    // Twice by processes that are gone: what a crash loop leaves behind.
    const twice = damaged((e) => marks(e, [gone(), gone()]));
    await expectRebuilt(twice.env, twice.vecs, /loads of this index file ended the process twice without returning/);
    expect(existsSync(`${twice.env.indexPath}.damaged`)).toBe(true);
    expect(readdirSync(dirname(twice.env.indexPath)).filter((n) => n.includes('.loading-'))).toEqual([]);
  });
});

describe('vector index: rebuild', () => {
  it('keeps answering during a rebuild and keeps the writes that arrived meanwhile', async () => {
    const env = setup();
    const dim = 64;
    env.db.transaction(() => {
      for (let seq = 1; seq <= 5000; seq++) {
        addFact(env.db, seq);
        addVector(env.db, seq, randomUnit(seq, dim));
      }
    })();
    const c = open(env, { dim });
    await c.ready();
    // Fact 5001 arrives (row committed, then upserted) and fact 7 is superseded while the rebuild runs.
    addFact(env.db, 5001);
    addVector(env.db, 5001, randomUnit(9999, dim));
    let rebuilt = false;
    const rebuilding = c.rebuild().finally(() => (rebuilt = true));
    const during = await c.search(randomUnit(5, dim), 1, ALL);
    await c.upsert([5001], randomUnit(9999, dim));
    env.db.prepare("UPDATE facts SET valid_until = 2, ended_reason = 'superseded' WHERE seq = 7").run();
    await c.remove([7]);
    expect(rebuilt).toBe(false); // all three were answered while the rebuild ran
    expect(await rebuilding).toEqual({ source: 'rebuilt', reason: 'rebuild requested', count: 5000 });
    expect(during[0]?.seq).toBe(5);
    expect((await c.search(randomUnit(9999, dim), 1, ALL))[0]?.seq).toBe(5001);
    expect((await c.search(randomUnit(7, dim), 3, ALL)).map((h) => h.seq)).not.toContain(7);
    // What was persisted is exactly what SQLite says: the next start loads it.
    await c.close();
    expect(await open(env, { dim }).ready()).toEqual({ source: 'loaded', reason: null, count: 5000 });
  });
});

describe('vector index: worker failures', () => {
  it('a worker killed mid-rebuild (deadline) is replaced, reloads the saved index, and answers', async () => {
    const env = setup();
    const dim = 64;
    env.db.transaction(() => {
      for (let seq = 1; seq <= 4000; seq++) {
        addFact(env.db, seq);
        addVector(env.db, seq, randomUnit(seq, dim));
      }
    })();
    const restarts: string[] = [];
    const c = open(env, { dim }, { onRestart: (r) => restarts.push(r) });
    expect(await c.ready()).toMatchObject({ source: 'rebuilt', count: 4000 });
    await c.persist();
    const pending = c.search(randomUnit(12, dim), 1, ALL, { timeoutMs: 10_000 });
    await expect(c.rebuild({ timeoutMs: 5 })).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_TIMEOUT' });
    await pending.catch(() => undefined); // answered before the kill, or rejected by it: never left hanging
    expect(c.restarts).toBe(1);
    expect(restarts[0]).toMatch(/rebuild timed out/);
    expect(await c.ready()).toEqual({ source: 'loaded', reason: null, count: 4000 });
    // HNSW is approximate, and a graph built by several threads differs run to run (random 64-d vectors are its
    // hardest case): nearly every vector is among its own nearest ten (the exact top hit is checked on the
    // deterministic paths above). A broken or empty index finds none.
    let found = 0;
    for (let seq = 1; seq <= 20; seq++) if ((await c.search(randomUnit(seq, dim), 10, ALL)).some((h) => h.seq === seq)) found++;
    expect(found).toBeGreaterThanOrEqual(18);
  });
});

describe('vector index: WASM exact paths and suggestPairs', () => {
  /** Brute force in plain JS (f64): the reference the exact paths must agree with. */
  function reference(vectors: Map<number, Float32Array>, q: Float32Array, k: number, allowed: (seq: number) => boolean = () => true): number[] {
    const cos = (a: Float32Array, b: Float32Array) => {
      let d = 0;
      let na = 0;
      let nb = 0;
      for (let j = 0; j < a.length; j++) {
        d += (a[j] as number) * (b[j] as number);
        na += (a[j] as number) ** 2;
        nb += (b[j] as number) ** 2;
      }
      return d / Math.sqrt(na * nb);
    };
    return [...vectors].filter(([seq]) => allowed(seq)).map(([seq, v]) => ({ seq, s: cos(q, v) })).sort((a, b) => b.s - a.s || a.seq - b.seq).slice(0, k).map((x) => x.seq);
  }

  it('a small index (mirror) returns the brute-force top-k, with and without a filter', async () => {
    const env = setup();
    const vectors = corpus(env, 600);
    env.db.prepare("UPDATE facts SET scope_kind = 'agent', scope_agent = 'other' WHERE seq % 3 = 0").run();
    const c = open(env);
    await c.ready();
    const a1 = filterFor({ role: 'specialist', agentId: 'a1', sessionId: null });
    for (const seed of [1, 2, 3, 4, 5]) {
      const q = near(randomUnit(seed), 0.5, 1000 + seed);
      const hits = await c.search(q, 20, ALL);
      expect(hits.map((h) => h.seq)).toEqual(reference(vectors, q, 20));
      expect(hits.map((h) => h.similarity)).toEqual([...hits.map((h) => h.similarity)].sort((x, y) => y - x));
      expect((await c.search(q, 20, a1)).map((h) => h.seq)).toEqual(reference(vectors, q, 20, (seq) => seq % 3 !== 0));
    }
    // Writes reach the mirror: a replaced vector moves, a removed one is gone.
    await c.upsert([7], axis(2).slice());
    expect((await c.search(axis(2), 1, ALL))[0]).toMatchObject({ seq: 7 });
    expect((await c.search(axis(2), 1, ALL))[0]?.similarity).toBeCloseTo(1, 5);
    await c.remove([7, 8]);
    const q = vectors.get(8) as Float32Array;
    vectors.delete(7);
    vectors.delete(8);
    expect((await c.search(q, 10, ALL)).map((h) => h.seq)).toEqual(reference(vectors, q, 10));
  });

  it('the exact fallback of a large index (WASM scan of SQLite) returns the brute-force top-k', async () => {
    const env = setup();
    const vectors = corpus(env, 4600);
    // Only 40 facts visible to "me", scattered: a first round of candidates shows the filter is selective
    // and the exact scan answers (HNSW's far tail, reached by over-fetching, differs from run to run).
    env.db.prepare("UPDATE facts SET scope_kind = 'agent', scope_agent = CASE WHEN seq % 115 = 0 THEN 'me' ELSE 'other' END").run();
    const c = open(env);
    await c.ready();
    const me = filterFor({ role: 'specialist', agentId: 'me', sessionId: null });
    const q = randomUnit(77);
    const hits = await c.search(q, 30, me);
    // The same 30 facts as the brute-force f64 reference, in its order up to f32 rounding: near-equal
    // similarities (random vectors) may swap places, never by more than the kernels' rounding.
    const ref = reference(vectors, q, 30, (seq) => seq % 115 === 0);
    expect([...hits.map((h) => h.seq)].sort((a, b) => a - b)).toEqual([...ref].sort((a, b) => a - b));
    for (let i = 1; i < hits.length; i++) expect((hits[i - 1]?.similarity ?? 0) - (hits[i]?.similarity ?? 0)).toBeGreaterThan(-1e-5);
  });

  it('a filter that looks selective from the nearest candidates but is not still answers from the index', async () => {
    const env = setup();
    const target = axis(5);
    env.db.transaction(() => {
      // 1,000 hidden facts nearest the query, then 2,000 visible ones further out.
      for (let seq = 1; seq <= 3000; seq++) {
        addFact(env.db, seq, { scope: 'agent', agent: seq <= 1000 ? 'other' : 'me' });
        addVector(env.db, seq, near(target, seq <= 1000 ? 0.1 : 1.2, seq));
      }
    })();
    const c = open(env);
    await c.ready();
    const me = filterFor({ role: 'specialist', agentId: 'me', sessionId: null });
    const hits = await c.search(target, 10, me);
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => h.seq > 1000)).toBe(true);
    expect(hits.map((h) => h.similarity)).toEqual([...hits.map((h) => h.similarity)].sort((a, b) => b - a));
  });

  it('suggestPairs finds the near-duplicate pairs, best first, and respects the filter', async () => {
    const env = setup();
    const base = [randomUnit(501), randomUnit(502), randomUnit(503)];
    const rows: [number, Float32Array, FactOpts][] = [
      [1, base[0] as Float32Array, {}],
      [2, near(base[0] as Float32Array, 0.05, 11), {}],
      [3, base[1] as Float32Array, {}],
      [4, near(base[1] as Float32Array, 0.1, 12), { scope: 'agent', agent: 'a2' }],
      [5, base[2] as Float32Array, { scope: 'agent', agent: 'a1' }],
      [6, near(base[2] as Float32Array, 0.02, 13), { scope: 'agent', agent: 'a1' }],
      [7, near(base[2] as Float32Array, 0.02, 14), { ended: 'superseded' }],
    ];
    for (let seq = 10; seq < 60; seq++) rows.push([seq, randomUnit(9000 + seq), {}]);
    for (const [seq, v, o] of rows) {
      addFact(env.db, seq, o);
      addVector(env.db, seq, v);
    }
    const c = open(env);
    await c.ready();
    const all = await c.suggestPairs(ALL, 0.9, 10);
    expect(all.map((p) => [p.a, p.b])).toEqual([[5, 6], [1, 2], [3, 4]]);
    expect(all.map((p) => p.similarity)).toEqual([...all.map((p) => p.similarity)].sort((x, y) => y - x));
    expect(all[0]?.similarity).toBeGreaterThan(0.99);
    expect(await c.suggestPairs(ALL, 0.9, 1)).toHaveLength(1);
    const a1 = filterFor({ role: 'specialist', agentId: 'a1', sessionId: null });
    expect((await c.suggestPairs(a1, 0.9, 10)).map((p) => [p.a, p.b])).toEqual([[5, 6], [1, 2]]);
    const a2 = filterFor({ role: 'specialist', agentId: 'a2', sessionId: null });
    expect((await c.suggestPairs(a2, 0.9, 10)).map((p) => [p.a, p.b])).toEqual([[1, 2], [3, 4]]);
    await expect(c.suggestPairs(ALL, 2, 10)).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
    await expect(c.suggestPairs(ALL, 0.9, 0)).rejects.toMatchObject({ code: 'MEM_ERR_INVALID_INPUT' });
  });
});
