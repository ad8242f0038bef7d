/**
 * A 2-D map of unit vectors by meaning: their two principal components (power iteration with deflation on
 * the centred rows, never forming the d x d covariance), then each axis scaled into [-1, 1]. Deterministic:
 * the same rows give the same map (fixed start vector, each axis's sign fixed by its largest loading).
 */

const ITERATIONS = 40;

/** x, y per row (2 floats each) for `n` rows of `dim` floats. Fewer than 2 rows: all at the origin. */
export function project2d(rows: Float32Array, n: number, dim: number): Float32Array {
  const out = new Float32Array(n * 2);
  if (n < 2 || dim === 0) return out;
  const mean = new Float64Array(dim);
  for (let r = 0; r < n; r++) for (let d = 0; d < dim; d++) mean[d] = (mean[d] as number) + (rows[r * dim + d] as number);
  for (let d = 0; d < dim; d++) mean[d] = (mean[d] as number) / n;
  const components: Float64Array[] = [];
  for (let c = 0; c < 2; c++) {
    const v = new Float64Array(dim);
    for (let d = 0; d < dim; d++) v[d] = 1 + ((d * 7 + c * 13) % 17) / 17;
    normalize(v);
    const proj = new Float64Array(n);
    for (let it = 0; it < ITERATIONS; it++) {
      // v <- X^T X v over the centred rows, minus what earlier components explain.
      for (let r = 0; r < n; r++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += ((rows[r * dim + d] as number) - (mean[d] as number)) * (v[d] as number);
        proj[r] = s;
      }
      const next = new Float64Array(dim);
      for (let r = 0; r < n; r++) {
        const p = proj[r] as number;
        if (p === 0) continue;
        for (let d = 0; d < dim; d++) next[d] = (next[d] as number) + p * ((rows[r * dim + d] as number) - (mean[d] as number));
      }
      for (const u of components) {
        let dot = 0;
        for (let d = 0; d < dim; d++) dot += (next[d] as number) * (u[d] as number);
        for (let d = 0; d < dim; d++) next[d] = (next[d] as number) - dot * (u[d] as number);
      }
      if (normalize(next) === 0) break;
      v.set(next);
    }
    let big = 0;
    for (let d = 1; d < dim; d++) if (Math.abs(v[d] as number) > Math.abs(v[big] as number)) big = d;
    if ((v[big] as number) < 0) for (let d = 0; d < dim; d++) v[d] = -(v[d] as number);
    components.push(v);
  }
  for (let c = 0; c < 2; c++) {
    const v = components[c] as Float64Array;
    let max = 0;
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let d = 0; d < dim; d++) s += ((rows[r * dim + d] as number) - (mean[d] as number)) * (v[d] as number);
      out[r * 2 + c] = s;
      max = Math.max(max, Math.abs(s));
    }
    if (max > 0) for (let r = 0; r < n; r++) out[r * 2 + c] = (out[r * 2 + c] as number) / max;
  }
  return out;
}

function normalize(v: Float64Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  const norm = Math.sqrt(s);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return norm;
}
