// Kernels for a small transformer sentence encoder (the offline USE-lite model): a packed f32 matrix
// product, layer norm and multi-head self-attention. Pointers are byte offsets into linear memory; the
// JS side (src/actors/embed/providers/use-lite/encoder.ts) owns the layout.

/** Columns per packed panel: two f32x4 accumulators per row. */
const NR: i32 = 8;
/** Rows of A kept hot in cache while every panel of B passes over them. */
const MC: i32 = 64;

export const GEMM_ACCUMULATE: i32 = 1;
export const GEMM_RELU: i32 = 2;

/**
 * Rewrites B (k x n, row-major, n a multiple of 8) at `src` into panels of 8 columns at `dst`:
 * panel p holds B[0][8p..8p+8], B[1][8p..8p+8], ... so the product reads each panel front to back.
 */
export function packB(src: usize, dst: usize, k: i32, n: i32): void {
  let out = dst;
  for (let p: i32 = 0; p < n; p += NR) {
    for (let kk: i32 = 0; kk < k; kk++) {
      const row = src + ((<usize>kk * <usize>n + <usize>p) << 2);
      v128.store(out, v128.load(row));
      v128.store(out, v128.load(row, 16), 16);
      out += 32;
    }
  }
}

@inline
function finish(acc: v128, bias: v128, c: usize, mode: i32): void {
  let v = f32x4.add(acc, bias);
  if (mode & GEMM_ACCUMULATE) v = f32x4.add(v, v128.load(c));
  if (mode & GEMM_RELU) v = f32x4.max(v, f32x4.splat(0));
  v128.store(c, v);
}

/**
 * C = A B + bias (m x n), or C += A B + bias with GEMM_ACCUMULATE, then max(0, .) with GEMM_RELU.
 * A is m x k with row stride `lda` floats, B is packed by packB, bias has n floats (0 = none), C has row
 * stride `ldc` floats. n must be a multiple of 8; any m and k work.
 */
export function gemm(a: usize, lda: i32, b: usize, bias: usize, c: usize, ldc: i32, m: i32, k: i32, n: i32, mode: i32): void {
  const sa = <usize>lda << 2;
  const sc = <usize>ldc << 2;
  const panelBytes = <usize>k << 5;
  for (let i0: i32 = 0; i0 < m; i0 += MC) {
    const i1 = min(i0 + MC, m);
    for (let p: i32 = 0; p < n; p += NR) {
      const bp = b + <usize>(p / NR) * panelBytes;
      const b0 = bias == 0 ? f32x4.splat(0) : v128.load(bias + (<usize>p << 2));
      const b1 = bias == 0 ? f32x4.splat(0) : v128.load(bias + (<usize>p << 2), 16);
      let i = i0;
      for (; i + 4 <= i1; i += 4) {
        const r0 = a + <usize>i * sa;
        const r1 = r0 + sa;
        const r2 = r1 + sa;
        const r3 = r2 + sa;
        let c00 = f32x4.splat(0), c01 = f32x4.splat(0);
        let c10 = f32x4.splat(0), c11 = f32x4.splat(0);
        let c20 = f32x4.splat(0), c21 = f32x4.splat(0);
        let c30 = f32x4.splat(0), c31 = f32x4.splat(0);
        let pb = bp;
        for (let kk: i32 = 0; kk < k; kk++) {
          const off = <usize>kk << 2;
          const w0 = v128.load(pb);
          const w1 = v128.load(pb, 16);
          const x0 = v128.load32_splat(r0 + off);
          const x1 = v128.load32_splat(r1 + off);
          const x2 = v128.load32_splat(r2 + off);
          const x3 = v128.load32_splat(r3 + off);
          c00 = f32x4.add(c00, f32x4.mul(x0, w0));
          c01 = f32x4.add(c01, f32x4.mul(x0, w1));
          c10 = f32x4.add(c10, f32x4.mul(x1, w0));
          c11 = f32x4.add(c11, f32x4.mul(x1, w1));
          c20 = f32x4.add(c20, f32x4.mul(x2, w0));
          c21 = f32x4.add(c21, f32x4.mul(x2, w1));
          c30 = f32x4.add(c30, f32x4.mul(x3, w0));
          c31 = f32x4.add(c31, f32x4.mul(x3, w1));
          pb += 32;
        }
        const o0 = c + <usize>i * sc + (<usize>p << 2);
        finish(c00, b0, o0, mode);
        finish(c01, b1, o0 + 16, mode);
        finish(c10, b0, o0 + sc, mode);
        finish(c11, b1, o0 + sc + 16, mode);
        finish(c20, b0, o0 + 2 * sc, mode);
        finish(c21, b1, o0 + 2 * sc + 16, mode);
        finish(c30, b0, o0 + 3 * sc, mode);
        finish(c31, b1, o0 + 3 * sc + 16, mode);
      }
      for (; i < i1; i++) {
        const r0 = a + <usize>i * sa;
        let c00 = f32x4.splat(0), c01 = f32x4.splat(0);
        let pb = bp;
        for (let kk: i32 = 0; kk < k; kk++) {
          const x0 = v128.load32_splat(r0 + (<usize>kk << 2));
          c00 = f32x4.add(c00, f32x4.mul(x0, v128.load(pb)));
          c01 = f32x4.add(c01, f32x4.mul(x0, v128.load(pb, 16)));
          pb += 32;
        }
        const o0 = c + <usize>i * sc + (<usize>p << 2);
        finish(c00, b0, o0, mode);
        finish(c01, b1, o0 + 16, mode);
      }
    }
  }
}

/**
 * out = (x - mean) / sqrt(var + eps) * scale + bias, per row of `dim` floats (dim a multiple of 4), over
 * `rows` rows. `out` may be `x`.
 */
export function layerNorm(x: usize, out: usize, rows: i32, dim: i32, scale: usize, bias: usize, eps: f32): void {
  const stride = <usize>dim << 2;
  const inv = <f32>1 / <f32>dim;
  for (let r: i32 = 0; r < rows; r++) {
    const row = x + <usize>r * stride;
    const dst = out + <usize>r * stride;
    let s = f32x4.splat(0);
    for (let d: i32 = 0; d < dim; d += 4) s = f32x4.add(s, v128.load(row + (<usize>d << 2)));
    const mean = hsum(s) * inv;
    const vm = f32x4.splat(mean);
    let q = f32x4.splat(0);
    for (let d: i32 = 0; d < dim; d += 4) {
      const t = f32x4.sub(v128.load(row + (<usize>d << 2)), vm);
      q = f32x4.add(q, f32x4.mul(t, t));
    }
    const rs = f32x4.splat(<f32>1 / sqrt<f32>(hsum(q) * inv + eps));
    for (let d: i32 = 0; d < dim; d += 4) {
      const o = <usize>d << 2;
      const t = f32x4.mul(f32x4.sub(v128.load(row + o), vm), rs);
      v128.store(dst + o, f32x4.add(f32x4.mul(t, v128.load(scale + o)), v128.load(bias + o)));
    }
  }
}

@inline
function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

/**
 * Self-attention of one sequence of `len` positions with `heads` heads: `qkv` holds rows of 3 * dim
 * floats (queries, keys, values, each `dim` wide, head h at columns h * dim / heads); `out` gets rows of
 * `dim` floats. Scores are (scale * q) . k, softmaxed over all positions. `scores` is scratch for `len`
 * floats. dim / heads must be a multiple of 4.
 */
export function attention(qkv: usize, out: usize, len: i32, dim: i32, heads: i32, scale: f32, scores: usize): void {
  const depth = dim / heads;
  const rowBytes = <usize>(3 * dim) << 2;
  const outBytes = <usize>dim << 2;
  const vs = f32x4.splat(scale);
  for (let h: i32 = 0; h < heads; h++) {
    const hoff = <usize>(h * depth) << 2;
    for (let i: i32 = 0; i < len; i++) {
      const q = qkv + <usize>i * rowBytes + hoff;
      let max: f32 = -Infinity;
      for (let j: i32 = 0; j < len; j++) {
        const kr = qkv + <usize>j * rowBytes + outBytes + hoff;
        let acc = f32x4.splat(0);
        for (let d: i32 = 0; d < depth; d += 4) {
          const o = <usize>d << 2;
          acc = f32x4.add(acc, f32x4.mul(f32x4.mul(v128.load(q + o), vs), v128.load(kr + o)));
        }
        const s = hsum(acc);
        store<f32>(scores + (<usize>j << 2), s);
        if (s > max) max = s;
      }
      let total: f32 = 0;
      for (let j: i32 = 0; j < len; j++) {
        const p = scores + (<usize>j << 2);
        const e = Mathf.exp(load<f32>(p) - max);
        store<f32>(p, e);
        total += e;
      }
      const dst = out + <usize>i * outBytes + hoff;
      for (let d: i32 = 0; d < depth; d += 4) v128.store(dst + (<usize>d << 2), f32x4.splat(0));
      const norm = <f32>1 / total;
      for (let j: i32 = 0; j < len; j++) {
        const w = f32x4.splat(load<f32>(scores + (<usize>j << 2)) * norm);
        const vr = qkv + <usize>j * rowBytes + 2 * outBytes + hoff;
        for (let d: i32 = 0; d < depth; d += 4) {
          const o = <usize>d << 2;
          v128.store(dst + o, f32x4.add(v128.load(dst + o), f32x4.mul(w, v128.load(vr + o))));
        }
      }
    }
  }
}
