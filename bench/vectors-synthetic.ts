/**
 * Structured synthetic embeddings for benchmarks (shared by the vector and recall benches).
 *
 * Uniform random vectors in hundreds of dimensions are nearly orthogonal to each other: every point is
 * about equally far from every other, so an approximate index looks either perfect or hopeless and recall
 * figures mean nothing. Real sentence embeddings are clustered, so these are too, on two levels:
 * `topics` broad directions, `clusters` centres scattered around the topics, and points scattered around
 * the centres; everything unit-normalised (cosine). Queries are perturbed copies of points, so a query's
 * true neighbours are its source point's cluster mates, not arbitrary far-away points.
 *
 * Deterministic: the same options give the same vectors (mulberry32 + Box-Muller).
 */

export interface SyntheticOptions {
  readonly count: number;
  readonly dim: number;
  /** Cluster centres (default 1000). */
  readonly clusters?: number;
  /** Broad topics the centres gather around (default 50). */
  readonly topics?: number;
  /** Spread of centres around their topic, relative to a unit-variance topic (default 0.8). */
  readonly centreSpread?: number;
  /** Spread of points around their centre (default 1.0). */
  readonly pointSpread?: number;
  readonly seed?: number;
}

export interface SyntheticSet {
  readonly dim: number;
  readonly count: number;
  /** count x dim, row-major, every row unit length. */
  readonly vectors: Float32Array;
  /** The cluster each point was drawn from. */
  readonly labels: Uint32Array;
}

/** A seeded uniform generator in [0, 1) (mulberry32) with a standard-normal companion. */
export function seededRandom(seed: number): { uniform(): number; gaussian(): number } {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | null = null;
  const gaussian = (): number => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(uniform(), 1e-12);
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  return { uniform, gaussian };
}

/** Scale rows [offset, offset + dim) of `m` to unit length in place. */
export function normaliseRow(m: Float32Array, offset: number, dim: number): void {
  let s = 0;
  for (let j = 0; j < dim; j++) s += (m[offset + j] as number) ** 2;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let j = 0; j < dim; j++) m[offset + j] = (m[offset + j] as number) * inv;
}

function around(base: Float32Array | null, rows: number, dim: number, spread: number, pick: (i: number) => number, g: () => number): Float32Array {
  const out = new Float32Array(rows * dim);
  for (let i = 0; i < rows; i++) {
    const b = base ? pick(i) * dim : -1;
    for (let j = 0; j < dim; j++) out[i * dim + j] = (b >= 0 ? (base as Float32Array)[b + j] as number : 0) + spread * g();
  }
  return out;
}

/** Clustered unit vectors (see the file comment). */
export function clusteredVectors(options: SyntheticOptions): SyntheticSet {
  const { count, dim } = options;
  const clusters = options.clusters ?? 1000;
  const topics = options.topics ?? 50;
  const rnd = seededRandom(options.seed ?? 42);
  const topicVecs = around(null, topics, dim, 1, () => 0, rnd.gaussian);
  const centres = around(topicVecs, clusters, dim, options.centreSpread ?? 0.8, () => Math.floor(rnd.uniform() * topics), rnd.gaussian);
  const labels = new Uint32Array(count);
  for (let i = 0; i < count; i++) labels[i] = Math.floor(rnd.uniform() * clusters);
  const vectors = around(centres, count, dim, options.pointSpread ?? 1.0, (i) => labels[i] as number, rnd.gaussian);
  for (let i = 0; i < count; i++) normaliseRow(vectors, i * dim, dim);
  return { dim, count, vectors, labels };
}

/** `n` queries: copies of random points of `set` plus gaussian noise of `spread`, unit-normalised. */
export function perturbedQueries(set: SyntheticSet, n: number, spread = 0.02, seed = 7): Float32Array {
  const rnd = seededRandom(seed);
  const { dim } = set;
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const src = Math.floor(rnd.uniform() * set.count) * dim;
    for (let j = 0; j < dim; j++) out[i * dim + j] = (set.vectors[src + j] as number) + spread * rnd.gaussian();
    normaliseRow(out, i * dim, dim);
  }
  return out;
}
