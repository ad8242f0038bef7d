// f32 kernels with v128 SIMD (f32x4). Pointers are byte offsets into linear memory; rows are
// row-major, `dim` floats each. Every loop has a scalar tail, so any dim >= 0 works.

/** Scalar result of the last `dotAndSelf` call: the row's squared norm (AssemblyScript has no tuples). */
let lastSelf: f32 = 0;

@inline
function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

/** a . b over `dim` floats. Four accumulators (16 floats per step) hide the add latency. */
@inline
function dotInline(a: usize, b: usize, dim: i32): f32 {
  let acc0 = f32x4.splat(0);
  let acc1 = f32x4.splat(0);
  let acc2 = f32x4.splat(0);
  let acc3 = f32x4.splat(0);
  let i: i32 = 0;
  const n16 = dim & ~15;
  for (; i < n16; i += 16) {
    const pa = a + (<usize>i << 2);
    const pb = b + (<usize>i << 2);
    acc0 = f32x4.add(acc0, f32x4.mul(v128.load(pa), v128.load(pb)));
    acc1 = f32x4.add(acc1, f32x4.mul(v128.load(pa, 16), v128.load(pb, 16)));
    acc2 = f32x4.add(acc2, f32x4.mul(v128.load(pa, 32), v128.load(pb, 32)));
    acc3 = f32x4.add(acc3, f32x4.mul(v128.load(pa, 48), v128.load(pb, 48)));
  }
  const n4 = dim & ~3;
  for (; i < n4; i += 4) {
    acc0 = f32x4.add(acc0, f32x4.mul(v128.load(a + (<usize>i << 2)), v128.load(b + (<usize>i << 2))));
  }
  let s = hsum(f32x4.add(f32x4.add(acc0, acc1), f32x4.add(acc2, acc3)));
  for (; i < dim; i++) {
    s += load<f32>(a + (<usize>i << 2)) * load<f32>(b + (<usize>i << 2));
  }
  return s;
}

/** a . b, and b . b into `lastSelf`, in one pass over b (for cosine without stored norms). */
@inline
function dotAndSelf(a: usize, b: usize, dim: i32): f32 {
  let ab0 = f32x4.splat(0);
  let ab1 = f32x4.splat(0);
  let bb0 = f32x4.splat(0);
  let bb1 = f32x4.splat(0);
  let i: i32 = 0;
  const n8 = dim & ~7;
  for (; i < n8; i += 8) {
    const pa = a + (<usize>i << 2);
    const pb = b + (<usize>i << 2);
    const vb0 = v128.load(pb);
    const vb1 = v128.load(pb, 16);
    ab0 = f32x4.add(ab0, f32x4.mul(v128.load(pa), vb0));
    ab1 = f32x4.add(ab1, f32x4.mul(v128.load(pa, 16), vb1));
    bb0 = f32x4.add(bb0, f32x4.mul(vb0, vb0));
    bb1 = f32x4.add(bb1, f32x4.mul(vb1, vb1));
  }
  const n4 = dim & ~3;
  for (; i < n4; i += 4) {
    const vb = v128.load(b + (<usize>i << 2));
    ab0 = f32x4.add(ab0, f32x4.mul(v128.load(a + (<usize>i << 2)), vb));
    bb0 = f32x4.add(bb0, f32x4.mul(vb, vb));
  }
  let ab = hsum(f32x4.add(ab0, ab1));
  let bb = hsum(f32x4.add(bb0, bb1));
  for (; i < dim; i++) {
    const x = load<f32>(b + (<usize>i << 2));
    ab += load<f32>(a + (<usize>i << 2)) * x;
    bb += x * x;
  }
  lastSelf = bb;
  return ab;
}

/** Cosine from a dot product and two norms; 0 when either vector is zero; clamped to [-1, 1]. */
@inline
function cosFrom(d: f32, na: f32, nb: f32): f32 {
  if (na == 0 || nb == 0) return 0;
  const c = d / (na * nb);
  return c > 1 ? 1 : c < -1 ? -1 : c;
}

/** Row `r` of a batch: row r itself, or the row named by idx[r] when an index list is given. */
@inline
function rowOf(idx: usize, r: i32): u32 {
  return idx == 0 ? <u32>r : load<u32>(idx + (<usize>r << 2));
}

export function dot(a: usize, b: usize, dim: i32): f32 {
  return dotInline(a, b, dim);
}

export function norm(a: usize, dim: i32): f32 {
  return sqrt<f32>(dotInline(a, a, dim));
}

export function cosine(a: usize, b: usize, dim: i32): f32 {
  const d = dotAndSelf(a, b, dim);
  return cosFrom(d, sqrt<f32>(dotInline(a, a, dim)), sqrt<f32>(lastSelf));
}

/** Scales `dim` floats at `a` to unit length in place; returns the old norm (a zero vector stays zero). */
export function l2Normalize(a: usize, dim: i32): f32 {
  const n = sqrt<f32>(dotInline(a, a, dim));
  if (n == 0) return 0;
  const inv = <f32>1 / n;
  const vinv = f32x4.splat(inv);
  let i: i32 = 0;
  const n4 = dim & ~3;
  for (; i < n4; i += 4) {
    const p = a + (<usize>i << 2);
    v128.store(p, f32x4.mul(v128.load(p), vinv));
  }
  for (; i < dim; i++) {
    const p = a + (<usize>i << 2);
    store<f32>(p, load<f32>(p) * inv);
  }
  return n;
}

/** out[r] = norm of row r, for `n` rows (or the rows listed at `idx` when idx != 0). */
export function rowNorms(base: usize, n: i32, dim: i32, idx: usize, out: usize): void {
  const stride = <usize>dim << 2;
  for (let r: i32 = 0; r < n; r++) {
    const row = base + <usize>rowOf(idx, r) * stride;
    store<f32>(out + (<usize>r << 2), sqrt<f32>(dotInline(row, row, dim)));
  }
}

/** out[r] = q . row r, for `n` rows (or the rows listed at `idx`). */
export function dotBatch(q: usize, base: usize, n: i32, dim: i32, idx: usize, out: usize): void {
  const stride = <usize>dim << 2;
  for (let r: i32 = 0; r < n; r++) {
    store<f32>(out + (<usize>r << 2), dotInline(q, base + <usize>rowOf(idx, r) * stride, dim));
  }
}

/**
 * out[r] = cosine(q, row r). `norms` (when != 0) holds one stored norm per row, indexed by row id, so
 * each row is read once; without it the row norm is computed in the same pass as the dot product.
 */
export function cosineBatch(q: usize, base: usize, n: i32, dim: i32, norms: usize, idx: usize, out: usize): void {
  const stride = <usize>dim << 2;
  const qn = sqrt<f32>(dotInline(q, q, dim));
  for (let r: i32 = 0; r < n; r++) {
    const id = rowOf(idx, r);
    const row = base + <usize>id * stride;
    let c: f32;
    if (norms != 0) {
      c = cosFrom(dotInline(q, row, dim), qn, load<f32>(norms + (<usize>id << 2)));
    } else {
      const d = dotAndSelf(q, row, dim);
      c = cosFrom(d, qn, sqrt<f32>(lastSelf));
    }
    store<f32>(out + (<usize>r << 2), c);
  }
}
