// Exact top-k over a score array with a bounded min-heap kept in the output arrays themselves.
// Order: higher score first; equal scores by lower row id first. The heap root is the worst kept entry.

@inline
function worse(sa: f32, ia: u32, sb: f32, ib: u32): bool {
  return sa < sb || (sa == sb && ia > ib);
}

@inline
function siftDown(outIdx: usize, outScores: usize, start: i32, size: i32): void {
  let i = start;
  const s = load<f32>(outScores + (<usize>i << 2));
  const id = load<u32>(outIdx + (<usize>i << 2));
  while (true) {
    let c = 2 * i + 1;
    if (c >= size) break;
    let cs = load<f32>(outScores + (<usize>c << 2));
    let ci = load<u32>(outIdx + (<usize>c << 2));
    if (c + 1 < size) {
      const rs = load<f32>(outScores + (<usize>(c + 1) << 2));
      const ri = load<u32>(outIdx + (<usize>(c + 1) << 2));
      if (worse(rs, ri, cs, ci)) { c = c + 1; cs = rs; ci = ri; }
    }
    if (!worse(cs, ci, s, id)) break;
    store<f32>(outScores + (<usize>i << 2), cs);
    store<u32>(outIdx + (<usize>i << 2), ci);
    i = c;
  }
  store<f32>(outScores + (<usize>i << 2), s);
  store<u32>(outIdx + (<usize>i << 2), id);
}

/**
 * Writes the best min(k, n) of `n` scores to outIdx/outScores, best first, and returns that count.
 * Entry r's id is r, or idx[r] when `idx` != 0 (a gathered subset: ties then break by real row id).
 */
export function topK(scores: usize, n: i32, k: i32, idx: usize, outIdx: usize, outScores: usize): i32 {
  const m = k < n ? k : n;
  if (m <= 0) return 0;
  let size: i32 = 0;
  for (let r: i32 = 0; r < n; r++) {
    const s = load<f32>(scores + (<usize>r << 2));
    const id: u32 = idx == 0 ? <u32>r : load<u32>(idx + (<usize>r << 2));
    if (size < m) {
      // push, then sift up
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        const ps = load<f32>(outScores + (<usize>p << 2));
        const pi = load<u32>(outIdx + (<usize>p << 2));
        if (!worse(s, id, ps, pi)) break;
        store<f32>(outScores + (<usize>i << 2), ps);
        store<u32>(outIdx + (<usize>i << 2), pi);
        i = p;
      }
      store<f32>(outScores + (<usize>i << 2), s);
      store<u32>(outIdx + (<usize>i << 2), id);
    } else if (worse(load<f32>(outScores), load<u32>(outIdx), s, id)) {
      store<f32>(outScores, s);
      store<u32>(outIdx, id);
      siftDown(outIdx, outScores, 0, size);
    }
  }
  // Heap sort in place: move the worst to the end each round, leaving best-first order.
  for (let end = size - 1; end > 0; end--) {
    const ts = load<f32>(outScores);
    const ti = load<u32>(outIdx);
    store<f32>(outScores, load<f32>(outScores + (<usize>end << 2)));
    store<u32>(outIdx, load<u32>(outIdx + (<usize>end << 2)));
    store<f32>(outScores + (<usize>end << 2), ts);
    store<u32>(outIdx + (<usize>end << 2), ti);
    siftDown(outIdx, outScores, 0, end);
  }
  return size;
}
