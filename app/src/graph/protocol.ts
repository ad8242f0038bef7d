/** Messages between the graph view (main thread) and the layout worker. */
export interface LayoutInput {
  readonly type: 'set';
  /** Per node: the radius of its ring (strong = central = small radius), and its last position (NaN = new). */
  readonly rings: Float32Array;
  readonly xs: Float32Array;
  readonly ys: Float32Array;
  /** Node sizes, for collision in small graphs. */
  readonly sizes: Float32Array;
  /** Edge endpoints as node indexes, pairwise [s0, t0, s1, t1, ...]. */
  readonly links: Int32Array;
  readonly linkStrength: Float32Array;
  /** How hot to restart the layout (1 = from scratch, ~0.3 for small changes). */
  readonly alpha: number;
  /**
   * The semantic map: per node, where its meaning places it (interleaved x, y in layout units; NaN = no
   * vector, left on an outer ring). Nodes are pulled to their places instead of by links and rings.
   */
  readonly targets?: Float32Array;
}

export interface LayoutDrag {
  readonly type: 'drag';
  readonly index: number;
  /** null releases the node. */
  readonly x: number | null;
  readonly y: number | null;
}

export type ToWorker = LayoutInput | LayoutDrag | { readonly type: 'stop' };

export interface LayoutTick {
  readonly type: 'tick';
  /** Interleaved x, y per node, in the order of the last `set`. */
  readonly positions: Float32Array;
  readonly alpha: number;
  /** Increments with every `set`, so stale ticks are ignored. */
  readonly generation: number;
}
