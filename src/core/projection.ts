/**
 * A 2-D map of unit vectors by meaning: their two principal components, then each axis scaled into
 * [-1, 1]. Block power iteration on the centred rows (both components at once, re-orthonormalised every
 * step, never forming the d x d covariance), stopped when the components stop turning. Deterministic: the
 * same rows give the same map (fixed start vectors, each axis's sign fixed by its largest loading). Past
 * SAMPLE_ROWS rows the components come from an evenly spaced sample; every row is then projected.
 */

const MAX_ITERATIONS = 40;
/** Stop when both components moved less than this (1 - cosine to the previous step). */
const SETTLED = 1e-6;
/** The components are found on at most this many rows (evenly spaced): plenty for a 2-D picture. */
const SAMPLE_ROWS = 3000;

/** x, y per row (2 floats each) for `n` rows of `dim` floats. Fewer than 2 rows: all at the origin. */
export function project2d(rows: Float32Array, n: number, dim: number): Float32Array {
  const out = new Float32Array(n * 2);
  if (n < 2 || dim === 0) return out;
  const x = centred(rows, n, dim);
  const m = Math.min(n, SAMPLE_ROWS);
  const rowOf = (k: number): number => (m === n ? k : Math.floor((k * n) / m));
  let a = new Float64Array(dim);
  let b = new Float64Array(dim);
  for (let d = 0; d < dim; d++) {
    a[d] = 1 + ((d * 7) % 17) / 17;
    b[d] = 1 + ((d * 7 + 13) % 17) / 17;
  }
  orthonormalise(a, b);
  const pa = new Float64Array(m);
  const pb = new Float64Array(m);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    // (a, b) <- X^T X (a, b): one pass over the rows for both projections, one to accumulate.
    for (let r = 0; r < m; r++) {
      let sa = 0;
      let sb = 0;
      const base = rowOf(r) * dim;
      for (let d = 0; d < dim; d++) {
        const v = x[base + d] as number;
        sa += v * (a[d] as number);
        sb += v * (b[d] as number);
      }
      pa[r] = sa;
      pb[r] = sb;
    }
    const na = new Float64Array(dim);
    const nb = new Float64Array(dim);
    for (let r = 0; r < m; r++) {
      const qa = pa[r] as number;
      const qb = pb[r] as number;
      const base = rowOf(r) * dim;
      for (let d = 0; d < dim; d++) {
        const v = x[base + d] as number;
        na[d] = (na[d] as number) + qa * v;
        nb[d] = (nb[d] as number) + qb * v;
      }
    }
    if (!orthonormalise(na, nb)) break;
    const settled = 1 - Math.abs(dot(na, a)) < SETTLED && 1 - Math.abs(dot(nb, b)) < SETTLED;
    a = na;
    b = nb;
    if (settled) break;
  }
  for (const [c, v] of [a, b].entries()) {
    let big = 0;
    for (let d = 1; d < dim; d++) if (Math.abs(v[d] as number) > Math.abs(v[big] as number)) big = d;
    const sign = (v[big] as number) < 0 ? -1 : 1;
    let max = 0;
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let d = 0; d < dim; d++) s += (x[r * dim + d] as number) * (v[d] as number);
      out[r * 2 + c] = sign * s;
      max = Math.max(max, Math.abs(s));
    }
    if (max > 0) for (let r = 0; r < n; r++) out[r * 2 + c] = (out[r * 2 + c] as number) / max;
  }
  return out;
}

/** The rows minus their mean. */
function centred(rows: Float32Array, n: number, dim: number): Float32Array {
  const mean = new Float64Array(dim);
  for (let r = 0; r < n; r++) for (let d = 0; d < dim; d++) mean[d] = (mean[d] as number) + (rows[r * dim + d] as number);
  const x = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) for (let d = 0; d < dim; d++) x[r * dim + d] = (rows[r * dim + d] as number) - (mean[d] as number) / n;
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** Gram-Schmidt on (a, b) in place; false when either is (numerically) zero. */
function orthonormalise(a: Float64Array, b: Float64Array): boolean {
  const na = Math.sqrt(dot(a, a));
  if (na < 1e-12) return false;
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) / na;
  const p = dot(a, b);
  for (let i = 0; i < b.length; i++) b[i] = (b[i] as number) - p * (a[i] as number);
  const nb = Math.sqrt(dot(b, b));
  if (nb < 1e-12) return false;
  for (let i = 0; i < b.length; i++) b[i] = (b[i] as number) / nb;
  return true;
}
