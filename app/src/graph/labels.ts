/**
 * Labels by level of detail. Candidates come in priority order (the hovered and the selected fact, then
 * groups, then facts from the largest, i.e. strongest, down); a candidate is labelled only when its node is
 * on screen and drawn at least MIN_RADIUS pixels wide, so at low zoom only the strongest facts qualify and
 * more do as you zoom in. Placement is greedy in screen space: right of the node, else left, above, below;
 * a box that overlaps a label already placed or a panel is skipped, so labels never pile up. A label may
 * run over nodes drawn much smaller than its own (COVERS; a dense graph would have no labels otherwise), never
 * over one of comparable size. The work per frame is bounded (a label budget by canvas area, a cap on
 * measured candidates, widths cached), whatever the graph's size.
 */

/** A placed label, in CSS pixels relative to the canvas. */
export interface LabelBox {
  readonly id: string;
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** A group's label, or the hovered or selected fact's: drawn in the stronger colour. */
  readonly strong: boolean;
}

/** One node as the placement sees it: screen position and radius (CSS px). */
export interface LabelNode {
  readonly id: string;
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly r: number;
  readonly group: boolean;
}

/** Nodes drawn at least this wide (screen radius, px) get a label (groups always qualify). */
export const MIN_RADIUS = 2.5;
/** A label may cover nodes drawn smaller than this share of its own node's radius. */
const COVERS = 0.5;
const LINE_HEIGHT = 15;
const GAP = 4;
/** Space kept free around each label. */
const PAD = 2;
const MAX_WIDTH = 180;
const MAX_WIDTH_FOCUS = 300;
/** Candidates measured per frame at most (each may cost a measureText on a cache miss). */
const MAX_TRIES = 400;
const CELL = 64;

/** Truncated label text and its width, per text and width limit, for the current font. */
export class LabelCache {
  private font = '';
  private readonly fitted = new Map<string, { readonly text: string; readonly width: number }>();

  fit(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): { readonly text: string; readonly width: number } {
    if (ctx.font !== this.font) {
      this.fitted.clear();
      this.font = ctx.font;
    }
    const key = `${maxWidth}\u0000${text}`;
    let hit = this.fitted.get(key);
    if (hit) return hit;
    if (this.fitted.size > 20_000) this.fitted.clear();
    hit = truncate(ctx, text, maxWidth);
    this.fitted.set(key, hit);
    return hit;
  }
}

/** The text cut to `maxWidth` pixels with an ellipsis (binary search on its length). */
function truncate(ctx: CanvasRenderingContext2D, raw: string, maxWidth: number): { text: string; width: number } {
  const text = raw.replace(/\s+/g, ' ').trim();
  const full = ctx.measureText(text).width;
  if (full <= maxWidth) return { text, width: full };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid).trimEnd()}…`).width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  const cut = `${text.slice(0, lo).trimEnd()}…`;
  return { text: cut, width: ctx.measureText(cut).width };
}

/** Boxes in a uniform grid of CELL-px cells: an overlap test looks at the few cells a box covers. */
class BoxGrid {
  private readonly cols: number;
  private readonly rows: number;
  private readonly cells: number[][];
  /** x0, y0, x1, y1 and a weight per box. */
  private readonly boxes: number[] = [];

  constructor(width: number, height: number) {
    this.cols = Math.max(1, Math.ceil(width / CELL));
    this.rows = Math.max(1, Math.ceil(height / CELL));
    this.cells = Array.from({ length: this.cols * this.rows }, () => []);
  }

  private span(x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
    const c = (v: number, n: number): number => Math.max(0, Math.min(n - 1, Math.floor(v / CELL)));
    return [c(x0, this.cols), c(y0, this.rows), c(x1, this.cols), c(y1, this.rows)];
  }

  /** Whether the box overlaps one of weight `minWeight` or more. */
  overlaps(x0: number, y0: number, x1: number, y1: number, minWeight = -Infinity): boolean {
    const [c0, r0, c1, r1] = this.span(x0, y0, x1, y1);
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++)
        for (const b of this.cells[r * this.cols + c] as number[]) {
          const bx0 = this.boxes[b] as number;
          const by0 = this.boxes[b + 1] as number;
          const bx1 = this.boxes[b + 2] as number;
          const by1 = this.boxes[b + 3] as number;
          if (x0 < bx1 && x1 > bx0 && y0 < by1 && y1 > by0 && (this.boxes[b + 4] as number) >= minWeight) return true;
        }
    return false;
  }

  add(x0: number, y0: number, x1: number, y1: number, weight = Infinity): void {
    const b = this.boxes.length;
    this.boxes.push(x0, y0, x1, y1, weight);
    const [c0, r0, c1, r1] = this.span(x0, y0, x1, y1);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) (this.cells[r * this.cols + c] as number[]).push(b);
  }
}

export interface Placement {
  readonly width: number;
  readonly height: number;
  /** Labelled first, whatever their size, and with a wider limit (hovered, selected). */
  readonly focus: readonly LabelNode[];
  /** Candidates in priority order (`node(i)` null: off screen or not drawn). */
  readonly count: number;
  node(i: number): LabelNode | null;
  /** Every visible node, to keep labels off them. */
  readonly obstacles: Iterable<LabelNode>;
  /** Rectangles covered by panels over the canvas. */
  readonly avoid: readonly { readonly x: number; readonly y: number; readonly w: number; readonly h: number }[];
}

/** How many labels a canvas of this size holds before it reads as clutter. */
export const labelBudget = (width: number, height: number): number => Math.max(12, Math.min(120, Math.round((width * height) / 14_000)));

/** Place labels greedily (see the file comment); `ctx.font` must be the label font. */
export function placeLabels(ctx: CanvasRenderingContext2D, cache: LabelCache, p: Placement): LabelBox[] {
  // Labels and panels: nothing may overlap them. Nodes (weighted by their drawn radius): see the file comment;
  // the hovered or selected fact's label covers any node when it fits nowhere else.
  const taken = new BoxGrid(p.width, p.height);
  const nodes = new BoxGrid(p.width, p.height);
  for (const a of p.avoid) taken.add(a.x, a.y, a.x + a.w, a.y + a.h);
  for (const o of p.obstacles) nodes.add(o.x - o.r, o.y - o.r, o.x + o.r, o.y + o.r, o.r);
  const placed: LabelBox[] = [];
  const seen = new Set<string>();
  const tryPlace = (n: LabelNode, focus: boolean): void => {
    seen.add(n.id);
    const strong = focus || n.group;
    const { text, width } = cache.fit(ctx, n.label, focus ? MAX_WIDTH_FOCUS : MAX_WIDTH);
    if (text === '' || text === '…') return;
    const h = LINE_HEIGHT;
    const spots: readonly [number, number][] = [
      [n.x + n.r + GAP, n.y - h / 2],
      [n.x - n.r - GAP - width, n.y - h / 2],
      [n.x - width / 2, n.y - n.r - GAP - h],
      [n.x - width / 2, n.y + n.r + GAP],
    ];
    for (const overNodes of focus ? [false, true] : [false])
      for (const [x, y] of spots) {
        const x0 = x - PAD;
        const y0 = y - PAD;
        const x1 = x + width + PAD;
        const y1 = y + h + PAD;
        if (x0 < 0 || y0 < 0 || x1 > p.width || y1 > p.height || taken.overlaps(x0, y0, x1, y1) || (!overNodes && nodes.overlaps(x0, y0, x1, y1, COVERS * n.r))) continue;
        taken.add(x0, y0, x1, y1);
        placed.push({ id: n.id, text, x, y, w: width, h, strong });
        return;
      }
  };
  for (const n of p.focus) if (!seen.has(n.id)) tryPlace(n, true);
  const budget = placed.length + labelBudget(p.width, p.height);
  let tries = 0;
  for (let i = 0; i < p.count && placed.length < budget && tries < MAX_TRIES; i++) {
    const n = p.node(i);
    if (n === null || seen.has(n.id)) continue;
    // Candidates come largest first: once one is too small, so is every one after it.
    if (!n.group && n.r < MIN_RADIUS) break;
    tries++;
    tryPlace(n, false);
  }
  return placed;
}

/** Draw placed labels (screen space; the caller set the transform and the font). */
export function drawLabels(ctx: CanvasRenderingContext2D, boxes: readonly LabelBox[], o: { readonly fill: string; readonly strong: string; readonly halo: string }): void {
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = o.halo;
  for (const b of boxes) ctx.strokeText(b.text, b.x, b.y + b.h / 2);
  for (const strong of [false, true]) {
    ctx.fillStyle = strong ? o.strong : o.fill;
    for (const b of boxes) if (b.strong === strong) ctx.fillText(b.text, b.x, b.y + b.h / 2);
  }
}
