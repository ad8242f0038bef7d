/**
 * Damaged database files (issue 20, part 4; docs/security.md "Files in the data dir"). Random bytes in the
 * middle of the file, or a zeroed table page, must give MEM_ERR_DB_CORRUPT with the recovery steps (never
 * MEM_ERR_INTERNAL, never a silent exit 0); `doctor` reports the damage and exits 1; `doctor --recover`
 * writes a new file that opens, passes integrity_check and holds every fact that could still be read,
 * and never changes the damaged original.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { resolveConfig } from '../src/config/resolve.js';
import { asMemoryError, toWire } from '../src/core/errors.js';
import { createCtx } from '../src/memory/context.js';
import { runMaintenance } from '../src/memory/maintenance.js';
import { MemoryService } from '../src/memory/service.js';
import { openDatabase } from '../src/store/db.js';
import { sqliteDriver } from '../src/store/native.js';
import { tempHome, type TestHome, errorOf } from './helpers.js';

const BIN = resolve(__dirname, '../bin/hybrid-mem.js');
const PAGE = 4096;
const FACTS = 1500;

const homes: TestHome[] = [];
afterAll(() => {
  for (const h of homes) h.cleanup();
});

/** A data dir with FACTS facts (and a link), checkpointed into the main file; returns the ids and texts. */
function seeded(): { home: TestHome; facts: Map<string, string> } {
  const home = tempHome();
  homes.push(home);
  const svc = MemoryService.open({ config: home.config, env: home.env });
  const facts = new Map<string, string>();
  for (let i = 0; i < FACTS; i += 300) {
    const batch = Array.from({ length: 300 }, (_, k) => ({ text: `fact ${i + k} says host${i + k} serves the ${['blue', 'green', 'red'][(i + k) % 3]} cluster ${'x'.repeat((i + k) % 90)}` }));
    for (const r of svc.memoryStoreMany(batch)) facts.set(r.fact.id, r.fact.text);
  }
  const [a, b] = [...facts.keys()];
  svc.memoryLink({ sourceId: a as never, targetId: b as never });
  svc.db.pragma('wal_checkpoint(TRUNCATE)');
  void svc.close();
  return { home, facts };
}

/** The page number of the n-th leaf page of `table`. */
function leafPage(path: string, table: string, n: number): number {
  const db = new (sqliteDriver())(path, { readonly: true });
  try {
    return db.prepare(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET ?`).pluck().get(table, n) as number;
  } finally {
    db.close();
  }
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** Deterministic "random" bytes (xorshift), so a failure can be replayed. */
function noise(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

async function cli(home: TestHome, argv: string[]) {
  const out = { text: '', write: (c: string) => void (out.text += c) };
  const err = { text: '', write: (c: string) => void (err.text += c) };
  const code = await run(argv, { stdout: out, stderr: err, env: home.env, cwd: home.dir, stdin: Readable.from([]) });
  return { code, stdout: out.text, stderr: err.text };
}

describe('every SQLite report of damage is MEM_ERR_DB_CORRUPT with the recovery steps', () => {
  it.each([
    ['SQLITE_CORRUPT', 'database disk image is malformed'],
    ['SQLITE_NOTADB', 'file is not a database'],
    ['SQLITE_ERROR', 'vtable constructor failed: facts_fts'],
    ['SQLITE_CORRUPT_VTAB', 'database disk image is malformed'],
    ['SQLITE_ERROR', 'fts5: corruption found reading blob 137438953473 from table "facts_fts"'],
  ])('%s: %s', (code, message) => {
    const err = Object.assign(new Error(message), { code });
    const mapped = asMemoryError(err);
    expect(mapped.code).toBe('MEM_ERR_DB_CORRUPT');
    expect(mapped.message).toContain(message);
    expect(mapped.message).toContain('hybrid-mem doctor --recover');
    expect(mapped.cause).toBe(err);
    expect(toWire(err).code).toBe('MEM_ERR_DB_CORRUPT');
  });

  it('other failures stay MEM_ERR_INTERNAL', () => {
    expect(asMemoryError(Object.assign(new Error('no such column: x'), { code: 'SQLITE_ERROR' })).code).toBe('MEM_ERR_INTERNAL');
  });
});

describe('random bytes in the middle of the file', () => {
  it('open, the CLI and the real bin answer MEM_ERR_DB_CORRUPT (exit 1) with the recovery steps; the file is untouched', async () => {
    const { home } = seeded();
    const path = home.config.dbPath;
    const middle = Math.floor(statSync(path).size / 2 / PAGE) * PAGE;
    overwrite(path, middle, noise(PAGE));
    const before = sha(path);

    const err = errorOf(() => MemoryService.open({ config: home.config, env: home.env }));
    expect(err.code, err.message).toBe('MEM_ERR_DB_CORRUPT');
    expect(err.message).toContain(`hybrid-mem doctor --recover --db ${path}`);

    for (const argv of [['list'], ['recall', 'blue cluster'], ['stats']]) {
      const r = await cli(home, argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/^hybrid-mem: MEM_ERR_DB_CORRUPT: .*the database file is damaged.*doctor --recover.*\n$/);
    }
    const bin = spawnSync(process.execPath, [BIN, 'list'], { env: { ...process.env, ...home.env, HYBRID_MEM_FROM_SOURCE: '1' }, encoding: 'utf8' });
    expect(bin.status).toBe(1);
    expect(bin.stderr).toMatch(/^hybrid-mem: MEM_ERR_DB_CORRUPT: /);
    expect(bin.stderr).not.toContain('MEM_ERR_INTERNAL');
    const json = await cli(home, ['--json', 'list']);
    expect(JSON.parse(json.stderr).error.code).toBe('MEM_ERR_DB_CORRUPT');
    expect(sha(path)).toBe(before);
  }, 60_000);
});

describe('a zeroed table page', () => {
  const { home, facts } = seeded();
  const path = home.config.dbPath;
  overwrite(path, (leafPage(path, 'facts', 8) - 1) * PAGE, Buffer.alloc(PAGE));
  const damaged = sha(path);

  it('is noticed on open (quick_check): MEM_ERR_DB_CORRUPT naming the problem, file untouched', () => {
    const err = errorOf(() => MemoryService.open({ config: home.config, env: home.env }));
    expect(err.code).toBe('MEM_ERR_DB_CORRUPT');
    expect(err.message).toMatch(/quick_check: /);
    expect(err.message).toContain('hybrid-mem doctor --recover');
    expect(sha(path)).toBe(damaged);
  });

  it('maintenance runs the full integrity_check and writes nothing into the damaged file', () => {
    const db = openDatabase(path, { quickCheck: false });
    try {
      const ctx = createCtx(db, { vaultKey: () => { throw new Error('no vault'); } });
      const err = errorOf(() => runMaintenance(ctx, { eventRetentionDays: 30, deletedRetentionDays: 30, recallRetentionDays: 30 }));
      expect(err.code).toBe('MEM_ERR_DB_CORRUPT');
      expect(err.message).toContain('integrity_check');
    } finally {
      db.close();
    }
  });

  it('doctor reports it and exits 1; a sound database passes with exit 0', async () => {
    const r = await cli(home, ['doctor']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}integrity: integrity_check: /m);
    expect(r.stdout).toContain('doctor --recover');
    const json = await cli(home, ['--json', 'doctor']);
    expect(JSON.parse(json.stdout).ok).toBe(false);

    const sound = seeded().home;
    const ok = await cli(sound, ['doctor']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/^ok {4}integrity: integrity_check ok/m);
    expect(ok.stdout).toMatch(/^ok {4}fts: /m);
    expect(ok.stdout).toMatch(/^ok {4}vectors: no saved vector index/m);
    // A vector index that no longer matches its manifest, and one set aside as damaged: warnings, not failures.
    writeFileSync(join(sound.config.dataDir, 'vectors.usearch'), 'not an index');
    writeFileSync(join(sound.config.dataDir, 'vectors.usearch.manifest.json'), JSON.stringify({ format: 'hybrid-mem/usearch-f32-cos/1', modelId: 'm', dim: 4, count: 1, bytes: 99, sha256: '0'.repeat(64), vectorsHash: 'x', writtenAt: 1 }));
    writeFileSync(join(sound.config.dataDir, 'vectors.usearch.damaged'), 'old');
    const warned = await cli(sound, ['doctor']);
    expect(warned.code, warned.stdout).toBe(0);
    expect(warned.stdout).toMatch(/^warn {2}vectors: the vector index file is 12 bytes, its manifest says 99: it is rebuilt from SQLite at the next start$/m);
    expect(warned.stdout).toMatch(/^warn {2}vectors: a damaged vector index was set aside at .*vectors\.usearch\.damaged/m);
  });

  it('doctor --recover writes a new file that opens, passes integrity_check and holds the readable facts', async () => {
    const out = join(home.dir, 'recovered.db');
    const r = await cli(home, ['doctor', '--recover', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^recovered \d+ facts from /);
    expect(r.stdout).toContain(`mv ${out} ${path}`);
    expect(sha(path)).toBe(damaged);

    const svc = MemoryService.open({ config: resolveConfig({}, { env: home.env, dbPath: out }), env: home.env });
    try {
      expect(svc.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(() => svc.db.exec(`INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
      const kept = svc.db.prepare('SELECT id, text FROM facts').all() as { id: string; text: string }[];
      // One leaf page of ~1500 facts is lost; everything else is there, byte for byte.
      expect(kept.length).toBeGreaterThan(FACTS - 60);
      expect(kept.length).toBeLessThan(FACTS);
      for (const f of kept) expect(f.text).toBe(facts.get(f.id));
      const hits = await svc.memoryRecall({ query: 'green cluster', limit: 5 });
      expect(hits.results.length).toBeGreaterThan(0);
    } finally {
      await svc.close();
    }
    expect((statSync(out).mode & 0o777).toString(8)).toBe('600');
    // Never overwrites: a second run to the same file is refused.
    const again = await cli(home, ['doctor', '--recover', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^hybrid-mem: MEM_ERR_INVALID_INPUT: doctor\.out: /);
  }, 60_000);
});

describe('a file that is not a database at all', () => {
  it('doctor says so and exits 1; --recover refuses with MEM_ERR_DB_CORRUPT and writes nothing', async () => {
    const home = tempHome();
    homes.push(home);
    writeFileSync(home.config.dbPath, 'junk '.repeat(2000));
    const r = await cli(home, ['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}file: .* is not a SQLite database/);
    const out = join(home.dir, 'out.db');
    const rec = await cli(home, ['doctor', '--recover', '--out', out]);
    expect(rec.code).toBe(1);
    expect(rec.stderr).toMatch(/^hybrid-mem: MEM_ERR_DB_CORRUPT: /);
    expect(existsSync(out)).toBe(false);
  });
});
