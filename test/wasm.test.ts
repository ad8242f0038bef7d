/**
 * The WASM vector core against its plain-JS reference: every kernel agrees within 1e-5 (relative above
 * magnitude 1), on random vectors and edge cases; top-k order and ties; int8 search recall; arena growth;
 * the loader's errors; and the committed .wasm matches a fresh build of src/wasm/assembly.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import {
  compileCore, refCosine, refCosineMany, refDot, refDotI8, refDotMany, refNorm, refNormalize, refPairwise,
  refQuantizeI8, refSearchExact, refTopK, VectorCore, VectorKernels, type ScoredRow,
} from '../src/wasm/index.js';
import { mulberry32 } from './support/prng.js';

const TOL = 1e-5;
const DIMS = [1, 3, 5, 16, 17, 384, 512] as const;

/** Deterministic PRNG (mulberry32, shared: test/support/prng.ts). */
const rng = mulberry32;

function randomMatrix(n: number, dim: number, seed: number): Float32Array {
  const r = rng(seed);
  return Float32Array.from({ length: n * dim }, () => r() * 2 - 1);
}

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** n vectors around `clusters` gaussian centres (structured data: random vectors say nothing about recall). */
function clustered(n: number, dim: number, clusters: number, spread: number, seed: number): Float32Array {
  const r = rng(seed);
  const centres = Float32Array.from({ length: clusters * dim }, () => gaussian(r));
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(r() * clusters);
    for (let d = 0; d < dim; d++) out[i * dim + d] = (centres[c * dim + d] as number) + spread * gaussian(r);
  }
  return out;
}

function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= TOL * Math.max(1, Math.abs(expected));
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!close(actual[i] as number, expected[i] as number)) {
      expect.fail(`index ${i}: ${actual[i]} vs reference ${expected[i]}`);
    }
  }
}

/**
 * Same results as the reference: scores agree position by position, and each returned row really has
 * that score (rows may differ only where two reference scores are within tolerance of each other).
 */
function expectSameTop(actual: ScoredRow[], expected: ScoredRow[], scoreOf: (row: number) => number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((hit, i) => {
    expect(close(hit.score, (expected[i] as ScoredRow).score), `score at ${i}`).toBe(true);
    expect(close(hit.score, scoreOf(hit.row)), `row ${hit.row} score`).toBe(true);
  });
  const nearTie = expected.some((e, i) => i > 0 && Math.abs(e.score - (expected[i - 1] as ScoredRow).score) < TOL);
  if (!nearTie) expect(actual.map((h) => h.row)).toEqual(expected.map((h) => h.row));
}

const kernels = VectorKernels.load();
const compiled = compileCore();

describe('f32 kernels equal the JS reference', () => {
  for (const dim of DIMS) {
    it(`dim ${dim}: dot, cosine, norm, normalize, dotMany, cosineMany`, () => {
      const m = randomMatrix(50, dim, dim);
      const q = m.subarray(0, dim);
      const b = m.subarray(dim, 2 * dim);
      expect(close(kernels.dot(q, b), refDot(q, b))).toBe(true);
      expect(close(kernels.cosine(q, b), refCosine(q, b))).toBe(true);
      expect(close(kernels.norm(q), refNorm(q))).toBe(true);
      expectClose(kernels.normalize(q), refNormalize(q));
      expectClose(kernels.dotMany(q, m), refDotMany(q, m, dim));
      expectClose(kernels.cosineMany(q, m), refCosineMany(q, m, dim));
    });
  }

  it('zero vectors: cosine 0 (not NaN), normalize leaves them zero', () => {
    for (const dim of DIMS) {
      const zero = new Float32Array(dim);
      const one = Float32Array.from({ length: dim }, (_, i) => i + 1);
      expect(kernels.dot(zero, one)).toBe(0);
      expect(kernels.cosine(zero, one)).toBe(0);
      expect(kernels.cosine(zero, zero)).toBe(0);
      expect(Array.from(kernels.normalize(zero))).toEqual(Array.from(zero));
      const m = new Float32Array(3 * dim);
      m.set(one, dim);
      expectClose(kernels.cosineMany(one, m), [0, 1, 0]);
      expectClose(kernels.cosineMany(zero, m), [0, 0, 0]);
    }
  });

  it('cosine of a vector with itself and its negation is exactly clamped to +-1', () => {
    const v = randomMatrix(1, 384, 9);
    expect(kernels.cosine(v, v)).toBeLessThanOrEqual(1);
    expect(close(kernels.cosine(v, v), 1)).toBe(true);
    expect(close(kernels.cosine(v, v.map((x) => -x)), -1)).toBe(true);
  });

  it('rejects mismatched lengths with a typed error', () => {
    expect(() => kernels.dot([1, 2], [1, 2, 3])).toThrow(MemoryError);
    expect(() => kernels.dotMany([1, 2], [1, 2, 3])).toThrow(/multiple of the query length/);
  });
});

describe('top-k', () => {
  it('orders by score, ties by lower index, k > n returns all n', () => {
    const scores = [0.5, 0.9, 0.5, -1, 0.9, 0.1, 0.5];
    const want = [
      { row: 1, score: 0.9 }, { row: 4, score: 0.9 }, { row: 0, score: 0.5 }, { row: 2, score: 0.5 },
      { row: 6, score: 0.5 }, { row: 5, score: 0.1 }, { row: 3, score: -1 },
    ];
    expect(refTopK(scores, 100)).toEqual(want);
    const got = kernels.topK(scores, 100);
    expect(got.map((h) => h.row)).toEqual(want.map((h) => h.row));
    expect(kernels.topK(scores, 3).map((h) => h.row)).toEqual([1, 4, 0]);
    expect(kernels.topK(scores, 0)).toEqual([]);
    expect(kernels.topK([], 5)).toEqual([]);
    expect(() => kernels.topK(scores, -1)).toThrow(/non-negative integer/);
  });

  it('equals the reference on random scores for many k', () => {
    const scores = randomMatrix(1, 5000, 3);
    for (const k of [1, 2, 10, 100, 4999, 5000, 6000]) {
      const got = kernels.topK(scores, k);
      const want = refTopK(scores, k);
      expect(got.map((h) => h.row)).toEqual(want.map((h) => h.row));
      expectClose(got.map((h) => h.score), want.map((h) => h.score));
    }
  });

  it('searchExact breaks ties between identical rows by lower row index', () => {
    const core = VectorCore.create({ dim: 5, compiled });
    const v = [1, 2, 3, 4, 5];
    core.addMany([...v, 0, 0, 0, 0, 1, ...v, ...v.map((x) => x * 2), 5, 4, 3, 2, 1]);
    const hits = core.searchExact(v, 10);
    expect(hits.length).toBe(5);
    expect(hits.slice(0, 3).map((h) => h.row)).toEqual([0, 2, 3]);
    expect(hits[0]?.score).toBe(hits[2]?.score);
  });
});

describe('VectorCore (f32) equals the reference', () => {
  for (const dim of DIMS) {
    it(`dim ${dim}: searchExact (all, predicate, set), k > n, cosineMany, pairwise`, () => {
      const n = 300;
      const m = clustered(n, dim, 8, 0.5, dim + 1);
      const core = VectorCore.create({ dim, initialCapacity: 7, compiled });
      core.addMany(m);
      const q = clustered(1, dim, 8, 0.5, 999);
      const scoreOf = (row: number): number => refCosine(q, m, dim, 0, row * dim);
      expectSameTop(core.searchExact(q, 10), refSearchExact(m, dim, q, 10), scoreOf);
      const even = (r: number): boolean => r % 2 === 0;
      expectSameTop(core.searchExact(q, 10, even), refSearchExact(m, dim, q, 10, even), scoreOf);
      const set = new Set([5, 17, 250, 3, 299, 1000, -1, 2.5]);
      expectSameTop(core.searchExact(q, 10, set), refSearchExact(m, dim, q, 10, set), scoreOf);
      expect(core.searchExact(q, 10, set).map((h) => h.row).sort((a, b) => a - b)).toEqual([3, 5, 17, 250, 299]);
      expectSameTop(core.searchExact(q, 1000), refSearchExact(m, dim, q, 1000), scoreOf);
      expect(core.searchExact(q, 0)).toEqual([]);
      expect(core.searchExact(q, 5, () => false)).toEqual([]);
      const rows = [4, 0, 299, 4, 150];
      expectClose(core.cosineMany(q, rows), rows.map(scoreOf));
      expectClose(core.scoreAll(q), refCosineMany(q, m, dim));
      expectClose(core.scoreAll(q, 'dot'), refDotMany(q, m, dim));
      const some = Array.from({ length: 40 }, (_, i) => (i * 7) % n);
      const pairs = core.pairwise(some, 0.3);
      const want = refPairwise(m, dim, some, 0.3);
      expect(pairs.length).toBe(want.length);
      const key = (p: { a: number; b: number }): string => `${p.a}-${p.b}`;
      expect(new Set(pairs.map(key))).toEqual(new Set(want.map(key)));
      for (const p of pairs) expect(close(p.score, refCosine(m, m, dim, p.a * dim, p.b * dim))).toBe(true);
    });
  }

  it('zero rows and a zero query score 0', () => {
    const core = VectorCore.create({ dim: 3, compiled });
    core.addMany([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expectClose(core.scoreAll([1, 0, 0]), [0, 1, 0]);
    expectClose(core.scoreAll([0, 0, 0]), [0, 0, 0]);
    expect(core.searchExact([0, 0, 0], 2)).toEqual([{ row: 0, score: 0 }, { row: 1, score: 0 }]);
  });

  it('pairwise rejects repeated rows; everything rejects rows out of range', () => {
    const core = VectorCore.create({ dim: 2, compiled });
    core.addMany([1, 0, 0, 1]);
    expect(() => core.pairwise([0, 1, 0], 0.5)).toThrow(/distinct/);
    expect(() => core.cosineMany([1, 0], [2])).toThrow(/row index in \[0, 2\)/);
    expect(() => core.get(-1)).toThrow(MemoryError);
  });
});

describe('arena', () => {
  it('grows past its initial capacity, one row at a time and in bulk, keeping every row', () => {
    const dim = 17;
    const m = randomMatrix(3000, dim, 5);
    const core = VectorCore.create({ dim, initialCapacity: 2, compiled });
    for (let r = 0; r < 100; r++) expect(core.add(m.subarray(r * dim, (r + 1) * dim))).toBe(r);
    expect(core.addMany(m.subarray(100 * dim))).toBe(100);
    expect(core.size).toBe(3000);
    expect(core.capacity).toBeGreaterThanOrEqual(3000);
    for (const r of [0, 1, 2, 99, 100, 1500, 2999]) expect(Array.from(core.get(r))).toEqual(Array.from(m.subarray(r * dim, (r + 1) * dim)));
    const q = m.subarray(42 * dim, 43 * dim);
    expectSameTop(core.searchExact(q, 5), refSearchExact(m, dim, q, 5), (row) => refCosine(q, m, dim, 0, row * dim));
  });

  it('remove swaps the last row in; set replaces; clear empties', () => {
    const core = VectorCore.create({ dim: 2, compiled });
    core.addMany([1, 0, 0, 1, -1, 0, 0, -1]);
    expect(core.remove(1)).toBe(3);
    expect(Array.from(core.get(1))).toEqual([0, -1]);
    expect(core.size).toBe(3);
    expect(core.remove(2)).toBeNull();
    expect(core.size).toBe(2);
    expect(core.searchExact([0, -1], 1)).toEqual([{ row: 1, score: 1 }]);
    core.set(0, [0, -3]);
    expect(core.searchExact([0, -1], 2).map((h) => h.score)).toEqual([1, 1]);
    core.clear();
    expect(core.size).toBe(0);
    expect(core.searchExact([0, -1], 2)).toEqual([]);
    core.add([5, 5]);
    expect(core.get(0)).toEqual(Float32Array.from([5, 5]));
  });

  it('rejects NaN / Infinity / wrong lengths with a typed error and changes nothing', () => {
    for (const precision of ['f32', 'i8'] as const) {
      const core = VectorCore.create({ dim: 3, precision, compiled });
      core.add([1, 2, 3]);
      expect(() => core.addMany([1, 1, 1, 2, Number.NaN, 2])).toThrow(/vectors\[row 1\]: expected finite numbers/);
      expect(() => core.set(0, [1, Number.POSITIVE_INFINITY, 0])).toThrow(MemoryError);
      expect(() => core.add([1, 2])).toThrow(/expected 3 values/);
      expect(() => core.searchExact([Number.NaN, 0, 0], 1)).toThrow(/query/);
      expect(core.size).toBe(1);
      expect(core.searchExact([1, 2, 3], 1)[0]?.score).toBeGreaterThan(0.999); // i8: within quantization error
    }
  });
});

describe('int8 quantization', () => {
  it('quantizeI8 and dotI8 equal the reference exactly', () => {
    for (const dim of DIMS) {
      const m = randomMatrix(2, dim, 77 + dim);
      const a = m.subarray(0, dim);
      const b = m.subarray(dim);
      const qa = kernels.quantizeI8(a);
      const ra = refQuantizeI8(a);
      expect(Array.from(qa.codes)).toEqual(Array.from(ra.codes));
      expect(qa.scale).toBe(ra.scale);
      const qb = kernels.quantizeI8(b);
      expect(kernels.dotI8(qa.codes, qb.codes)).toBe(refDotI8(qa.codes, qb.codes));
      for (let i = 0; i < dim; i++) expect(Math.abs((qa.codes[i] as number) * qa.scale - (a[i] as number))).toBeLessThanOrEqual(qa.scale / 2 + 1e-7);
    }
    expect(kernels.quantizeI8(new Float32Array(5))).toEqual({ codes: new Int8Array(5), scale: 0 });
    const extreme = Int8Array.from({ length: 4096 }, () => -127);
    expect(kernels.dotI8(extreme, extreme)).toBe(4096 * 127 * 127);
  });

  it('i8 scores equal the quantized reference and approximate f32 cosine', () => {
    const dim = 384;
    const m = clustered(200, dim, 5, 0.5, 11);
    const core = VectorCore.create({ dim, precision: 'i8', compiled });
    core.addMany(m);
    const q = clustered(1, dim, 5, 0.5, 12);
    const qq = refQuantizeI8(refNormalize(q));
    const scores = core.scoreAll(q);
    for (let r = 0; r < 200; r++) {
      const rq = refQuantizeI8(refNormalize(m.subarray(r * dim, (r + 1) * dim)));
      expect(close(scores[r] as number, refDotI8(qq.codes, rq.codes) * qq.scale * rq.scale)).toBe(true);
      expect(Math.abs((scores[r] as number) - refCosine(q, m, dim, 0, r * dim))).toBeLessThan(0.01);
    }
    expect(() => core.scoreAll(q, 'dot')).toThrow(/cosine/);
  });

  it('i8 exact search keeps recall@10 >= 0.95 against f32 exact search on clustered data', () => {
    const dim = 384;
    const n = 4000;
    const m = clustered(n, dim, 40, 0.6, 21);
    const f32 = VectorCore.create({ dim, compiled });
    const i8 = VectorCore.create({ dim, precision: 'i8', initialCapacity: 16, compiled });
    f32.addMany(m);
    i8.addMany(m);
    expect(i8.memoryBytes).toBeLessThan(f32.memoryBytes / 2);
    const queries = clustered(50, dim, 40, 0.6, 22);
    let found = 0;
    for (let i = 0; i < 50; i++) {
      const q = queries.subarray(i * dim, (i + 1) * dim);
      const truth = new Set(f32.searchExact(q, 10).map((h) => h.row));
      found += i8.searchExact(q, 10).filter((h) => truth.has(h.row)).length;
    }
    expect(found / 500).toBeGreaterThanOrEqual(0.95);
  });
});

describe('loader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-wasm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a clear typed error when the .wasm is missing', () => {
    const path = join(dir, 'nope', 'vector-core.wasm');
    let err: unknown;
    try {
      VectorCore.create({ dim: 4, wasmPath: path });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MemoryError);
    expect((err as MemoryError).code).toBe('MEM_ERR_INTERNAL');
    expect((err as MemoryError).message).toContain(path);
    expect((err as MemoryError).message).toMatch(/is missing; rebuild it with `npm run build:wasm`/);
    expect(() => VectorKernels.load({ wasmPath: path })).toThrow(/is missing/);
  });

  it('fails clearly on a file that is not WebAssembly', () => {
    const path = join(dir, 'bad.wasm');
    writeFileSync(path, 'not wasm');
    expect(() => compileCore(path)).toThrow(/is not a valid WebAssembly module/);
  });

  it('the committed vector-core.wasm is what src/wasm/assembly compiles to', () => {
    const script = fileURLToPath(new URL('../scripts/build-wasm.mjs', import.meta.url));
    const out = execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });
});
