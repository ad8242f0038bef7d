/**
 * Plain-JS reference implementations of every WASM kernel: the baseline for tests (results must agree
 * within 1e-5) and for bench/wasm.bench.ts (the speed the WASM core is measured against). Written the
 * way one would write them without WASM: simple loops over typed arrays, f64 accumulation, a bounded
 * heap for top-k. Rows are row-major in one flat array, `dim` values per row.
 */

/** One search result: a row index and its score (higher is better). */
export interface ScoredRow {
  readonly row: number;
  readonly score: number;
}

/** Two rows and their cosine similarity (`a` < `b` in the caller's order of rows). */
export interface RowPair {
  readonly a: number;
  readonly b: number;
  readonly score: number;
}

/** Which rows a search may return: a predicate on the row index, or a set of row indices. */
export type RowFilter = ((row: number) => boolean) | ReadonlySet<number>;

/** An int8-quantized vector: x[i] ≈ codes[i] * scale. */
export interface QuantizedVector {
  readonly codes: Int8Array;
  readonly scale: number;
}

/** a . b over `dim` values starting at aOff / bOff. */
export function refDot(a: ArrayLike<number>, b: ArrayLike<number>, dim = a.length, aOff = 0, bOff = 0): number {
  let s = 0;
  for (let i = 0; i < dim; i++) s += (a[aOff + i] as number) * (b[bOff + i] as number);
  return s;
}

export function refNorm(a: ArrayLike<number>, dim = a.length, off = 0): number {
  return Math.sqrt(refDot(a, a, dim, off, off));
}

/** Cosine from a dot product and two norms: 0 when either is zero, clamped to [-1, 1] (as the kernel does). */
export function cosineFrom(dot: number, na: number, nb: number): number {
  if (na === 0 || nb === 0) return 0;
  return Math.min(1, Math.max(-1, dot / (na * nb)));
}

export function refCosine(a: ArrayLike<number>, b: ArrayLike<number>, dim = a.length, aOff = 0, bOff = 0): number {
  return cosineFrom(refDot(a, b, dim, aOff, bOff), refNorm(a, dim, aOff), refNorm(b, dim, bOff));
}

/** A unit-length copy of v (a zero vector stays zero). */
export function refNormalize(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  const n = refNorm(v);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / n;
  return out;
}

/** out[r] = query . row r for every row of `matrix`. */
export function refDotMany(query: ArrayLike<number>, matrix: ArrayLike<number>, dim: number, out?: Float32Array): Float32Array {
  const n = Math.floor(matrix.length / dim);
  const res = out ?? new Float32Array(n);
  for (let r = 0; r < n; r++) res[r] = refDot(query, matrix, dim, 0, r * dim);
  return res;
}

/** Norm of every row. */
export function refRowNorms(matrix: ArrayLike<number>, dim: number): Float32Array {
  const n = Math.floor(matrix.length / dim);
  const out = new Float32Array(n);
  for (let r = 0; r < n; r++) out[r] = refNorm(matrix, dim, r * dim);
  return out;
}

/** out[r] = cosine(query, row r); pass precomputed row norms to skip recomputing them. */
export function refCosineMany(
  query: ArrayLike<number>, matrix: ArrayLike<number>, dim: number, norms?: ArrayLike<number>, out?: Float32Array,
): Float32Array {
  const n = Math.floor(matrix.length / dim);
  const res = out ?? new Float32Array(n);
  const qn = refNorm(query, dim);
  for (let r = 0; r < n; r++) {
    const rn = norms ? (norms[r] as number) : refNorm(matrix, dim, r * dim);
    res[r] = cosineFrom(refDot(query, matrix, dim, 0, r * dim), qn, rn);
  }
  return res;
}

/** True when entry a (score, id) ranks below b: lower score, or equal score and higher id. */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

/**
 * The best min(k, n) entries, best first; equal scores order by lower id. Entry r's id is r, or ids[r].
 * A bounded min-heap: O(n log k).
 */
export function refTopK(scores: ArrayLike<number>, k: number, ids?: ArrayLike<number>): ScoredRow[] {
  const m = Math.min(k, scores.length);
  const hs: number[] = [];
  const hi: number[] = [];
  const down = (start: number, size: number): void => {
    let i = start;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) return;
      if (c + 1 < size && worse(hs[c + 1] as number, hi[c + 1] as number, hs[c] as number, hi[c] as number)) c++;
      if (!worse(hs[c] as number, hi[c] as number, hs[i] as number, hi[i] as number)) return;
      [hs[i], hs[c]] = [hs[c] as number, hs[i] as number];
      [hi[i], hi[c]] = [hi[c] as number, hi[i] as number];
      i = c;
    }
  };
  for (let r = 0; r < scores.length && m > 0; r++) {
    const s = scores[r] as number;
    const id = ids ? (ids[r] as number) : r;
    if (hs.length < m) {
      hs.push(s);
      hi.push(id);
      for (let i = hs.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(hs[i] as number, hi[i] as number, hs[p] as number, hi[p] as number)) break;
        [hs[i], hs[p]] = [hs[p] as number, hs[i] as number];
        [hi[i], hi[p]] = [hi[p] as number, hi[i] as number];
        i = p;
      }
    } else if (worse(hs[0] as number, hi[0] as number, s, id)) {
      hs[0] = s;
      hi[0] = id;
      down(0, m);
    }
  }
  const out = hs.map((score, i) => ({ row: hi[i] as number, score }));
  return out.sort((x, y) => (worse(x.score, x.row, y.score, y.row) ? 1 : -1));
}

/** The rows a filter allows, ascending, among rows [0, n). */
export function allowedRows(allowed: RowFilter, n: number): number[] {
  if (typeof allowed === 'function') {
    const rows: number[] = [];
    for (let r = 0; r < n; r++) if (allowed(r)) rows.push(r);
    return rows;
  }
  return [...allowed].filter((r) => Number.isInteger(r) && r >= 0 && r < n).sort((x, y) => x - y);
}

/** Exact top-k rows of `matrix` by cosine to `query`, optionally among allowed rows only. */
export function refSearchExact(
  matrix: ArrayLike<number>, dim: number, query: ArrayLike<number>, k: number, allowed?: RowFilter, norms?: ArrayLike<number>,
): ScoredRow[] {
  const n = Math.floor(matrix.length / dim);
  if (!allowed) return refTopK(refCosineMany(query, matrix, dim, norms), k);
  const rows = allowedRows(allowed, n);
  const qn = refNorm(query, dim);
  const scores = rows.map((r) => cosineFrom(refDot(query, matrix, dim, 0, r * dim), qn, norms ? (norms[r] as number) : refNorm(matrix, dim, r * dim)));
  return refTopK(scores, k, rows);
}

/** Every pair among `rows` with cosine >= threshold, highest first (ties by a, then b). */
export function refPairwise(matrix: ArrayLike<number>, dim: number, rows: readonly number[], threshold: number): RowPair[] {
  const out: RowPair[] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i] as number;
      const b = rows[j] as number;
      const score = refCosine(matrix, matrix, dim, a * dim, b * dim);
      if (score >= threshold) out.push({ a, b, score });
    }
  }
  return sortPairs(out);
}

/** Highest score first, then by a, then by b. */
export function sortPairs(pairs: RowPair[]): RowPair[] {
  return pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
}

/**
 * Per-vector scalar quantization to int8: code = round(x * 127 / max|x|), computed in f32 exactly as the
 * kernel does (so the codes agree bit for bit). Scale 0 for a zero vector.
 */
export function refQuantizeI8(v: ArrayLike<number>): QuantizedVector {
  const codes = new Int8Array(v.length);
  let maxAbs = 0;
  for (let i = 0; i < v.length; i++) maxAbs = Math.max(maxAbs, Math.abs(Math.fround(v[i] as number)));
  if (maxAbs === 0) return { codes, scale: 0 };
  const s = Math.fround(127 / maxAbs);
  for (let i = 0; i < v.length; i++) {
    const c = Math.floor(Math.fround(Math.fround(Math.fround(v[i] as number) * s) + 0.5));
    codes[i] = Math.max(-127, Math.min(127, c));
  }
  return { codes, scale: Math.fround(maxAbs / 127) };
}

/** Integer dot product of two code vectors. */
export function refDotI8(a: Int8Array, b: Int8Array, dim = a.length, aOff = 0, bOff = 0): number {
  let s = 0;
  for (let i = 0; i < dim; i++) s += (a[aOff + i] as number) * (b[bOff + i] as number);
  return s;
}
