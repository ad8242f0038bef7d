// int8 scalar quantization: each vector gets its own scale (code = round(x * 127 / max|x|)), and dot
// products of codes accumulate in i32 (i16x8 widening + i32x4.dot_i16x8_s), so nothing overflows for
// any realistic dim (|code| <= 127: one 16-lane step adds at most 16 * 127^2 ≈ 258k).

/**
 * Quantizes `dim` floats at `src` into i8 codes at `dst`; returns the dequantization scale
 * (x ≈ code * scale), 0 for a zero vector. Rounding is floor(x * s + 0.5) in f32, as Math.round does.
 */
export function quantizeI8(src: usize, dim: i32, dst: usize): f32 {
  let maxAbs: f32 = 0;
  for (let i: i32 = 0; i < dim; i++) {
    const a = abs<f32>(load<f32>(src + (<usize>i << 2)));
    if (a > maxAbs) maxAbs = a;
  }
  if (maxAbs == 0) {
    memory.fill(dst, 0, <usize>dim);
    return 0;
  }
  const s: f32 = <f32>127 / maxAbs;
  for (let i: i32 = 0; i < dim; i++) {
    let c = floor<f32>(load<f32>(src + (<usize>i << 2)) * s + <f32>0.5);
    if (c > 127) c = 127;
    if (c < -127) c = -127;
    store<i8>(dst + <usize>i, <i8>(<i32>c));
  }
  return maxAbs / <f32>127;
}

/** Quantizes `n` rows of `dim` floats: codes to dst (dim bytes per row), scales to `scales`. */
export function quantizeRows(src: usize, n: i32, dim: i32, dst: usize, scales: usize): void {
  for (let r: i32 = 0; r < n; r++) {
    const s = quantizeI8(src + (<usize>r * <usize>dim << 2), dim, dst + <usize>r * <usize>dim);
    store<f32>(scales + (<usize>r << 2), s);
  }
}

@inline
function dotI8Inline(a: usize, b: usize, dim: i32): i32 {
  let acc = i32x4.splat(0);
  let i: i32 = 0;
  const n16 = dim & ~15;
  for (; i < n16; i += 16) {
    const va = v128.load(a + <usize>i);
    const vb = v128.load(b + <usize>i);
    const lo = i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_s(va), i16x8.extend_low_i8x16_s(vb));
    const hi = i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_s(va), i16x8.extend_high_i8x16_s(vb));
    acc = i32x4.add(acc, i32x4.add(lo, hi));
  }
  let s = i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3);
  for (; i < dim; i++) {
    s += <i32>load<i8>(a + <usize>i) * <i32>load<i8>(b + <usize>i);
  }
  return s;
}

/** Exact integer dot product of two i8 code vectors. */
export function dotI8(a: usize, b: usize, dim: i32): i32 {
  return dotI8Inline(a, b, dim);
}

/**
 * out[r] = (q . row r) * qScale * scales[row id] for `n` i8 rows (or the rows listed at `idx`): the
 * dequantized dot product, which is the cosine when both sides were unit vectors before quantization.
 */
export function dotI8Batch(q: usize, qScale: f32, base: usize, n: i32, dim: i32, scales: usize, idx: usize, out: usize): void {
  const stride = <usize>dim;
  for (let r: i32 = 0; r < n; r++) {
    const id: u32 = idx == 0 ? <u32>r : load<u32>(idx + (<usize>r << 2));
    const d = dotI8Inline(q, base + <usize>id * stride, dim);
    store<f32>(out + (<usize>r << 2), <f32>d * qScale * load<f32>(scales + (<usize>id << 2)));
  }
}
