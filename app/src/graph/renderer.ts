/**
 * Drawing one frame of the graph on a 2D canvas: edges batched by style and width, nodes batched by colour
 * (one path each), pinned rings, then search and selection outlines, the recall rings with their scores,
 * and the labels (labels.ts: by zoom level, never overlapping). Colours come from the palette (the theme's
 * tokens). Pure drawing: what it keeps between frames (label widths) is handed in.
 */
import type { ZoomTransform } from 'd3-zoom';
import type { Category } from '../lib/types';
import { drawLabels, placeLabels, type LabelBox, type LabelCache, type LabelNode, type Placement } from './labels';
import type { EdgeStyle, Palette } from './style';

/** What the view draws at one position: a fact, or a group of facts in the clustered view. */
export interface Item {
  readonly id: string;
  readonly group: boolean;
  readonly category: Category;
  readonly strength: number;
  readonly pinned: boolean;
  readonly superseded: boolean;
  readonly label: string;
  readonly size: number;
}

export interface DrawnEdge {
  readonly s: number;
  readonly t: number;
  readonly w: number;
  readonly style: EdgeStyle;
}

export interface Frame {
  readonly dpr: number;
  readonly width: number;
  readonly height: number;
  readonly canvasWidth: number;
  readonly canvasHeight: number;
  readonly transform: ZoomTransform;
  readonly items: readonly Item[];
  /** Item indexes in label priority order (groups, then facts from the largest down). */
  readonly labelOrder: Int32Array;
  /** Interleaved x, y per item. */
  readonly pos: Float32Array;
  readonly edges: readonly DrawnEdge[];
  readonly highlight: ReadonlySet<string> | null;
  readonly selected: number | undefined;
  readonly hovered: number | null;
  readonly rings: readonly { index: number | undefined; start: number; score: number }[];
  readonly indexOf: (id: string) => number | undefined;
  readonly now: number;
  readonly ringMs: number;
  /** The layout is moving: edges drawn as thin lines whatever their strength. */
  readonly animating: boolean;
  readonly palette: Palette;
  readonly labels: LabelCache;
  /** Panels over the canvas (CSS px relative to it): no label goes under them. */
  readonly avoid: readonly { readonly x: number; readonly y: number; readonly w: number; readonly h: number }[];
}

/** Draw the frame; answers the labels placed (CSS pixels relative to the canvas). */
export function drawFrame(ctx: CanvasRenderingContext2D, f: Frame): LabelBox[] {
  const t = f.transform;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  // Painted, not cleared: the canvas's own pixels follow the theme (screenshots, a pan's copied frame).
  ctx.fillStyle = f.palette.background;
  ctx.fillRect(0, 0, f.canvasWidth, f.canvasHeight);
  ctx.setTransform(f.dpr * t.k, 0, 0, f.dpr * t.k, f.dpr * (f.width / 2 + t.x), f.dpr * (f.height / 2 + t.y));
  drawEdges(ctx, f);
  drawNodes(ctx, f);
  drawMarks(ctx, f);
  ctx.setTransform(f.dpr, 0, 0, f.dpr, 0, 0);
  ctx.font = `500 12px ${f.palette.fontFamily}`;
  const boxes = placeLabels(ctx, f.labels, placement(f));
  drawLabels(ctx, boxes, { fill: f.palette.label, strong: f.palette.labelStrong, halo: f.palette.labelHalo });
  drawRingScores(ctx, f);
  return boxes;
}

const px = (f: Frame, i: number): number => f.pos[2 * i] ?? 0;
const py = (f: Frame, i: number): number => f.pos[2 * i + 1] ?? 0;

const STYLES: readonly EdgeStyle[] = ['solid', 'conflict', 'version'];

function drawEdges(ctx: CanvasRenderingContext2D, f: Frame): void {
  const k = f.transform.k;
  // One path per (style, width bucket); while the layout moves, one width for all.
  const buckets = new Map<number, DrawnEdge[]>();
  for (const e of f.edges) {
    const key = STYLES.indexOf(e.style) * 1000 + (f.animating ? 0 : Math.round(e.w * 2));
    const b = buckets.get(key);
    if (b) b.push(e);
    else buckets.set(key, [e]);
  }
  const p = f.palette;
  for (const [key, list] of buckets) {
    const style = STYLES[Math.floor(key / 1000)] ?? 'solid';
    const w = (key % 1000) / 2;
    ctx.strokeStyle = style === 'conflict' ? p.edgeConflict : style === 'version' ? p.edgeVersion : p.edge;
    ctx.lineWidth = f.animating ? 1 / k : w / Math.max(1, k * 0.5);
    ctx.setLineDash(style === 'conflict' ? [6 / k, 4 / k] : style === 'version' ? [2 / k, 3 / k] : []);
    ctx.beginPath();
    for (const e of list) {
      ctx.moveTo(px(f, e.s), py(f, e.s));
      ctx.lineTo(px(f, e.t), py(f, e.t));
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

/** Nodes batched by colour; grey when superseded, or when a search highlight is on and they do not match; pinned ringed. */
function drawNodes(ctx: CanvasRenderingContext2D, f: Frame): void {
  const p = f.palette;
  const byColor = new Map<string, number[]>();
  for (let i = 0; i < f.items.length; i++) {
    const it = f.items[i] as Item;
    const key = it.superseded ? p.superseded : f.highlight !== null && !it.group && !f.highlight.has(it.id) ? p.dim : p.categories[it.category];
    const list = byColor.get(key);
    if (list) list.push(i);
    else byColor.set(key, [i]);
  }
  for (const [color, list] of byColor) {
    ctx.fillStyle = color;
    ctx.beginPath();
    for (const i of list) {
      const it = f.items[i] as Item;
      ctx.moveTo(px(f, i) + it.size, py(f, i));
      ctx.arc(px(f, i), py(f, i), it.size, 0, 2 * Math.PI);
    }
    ctx.fill();
  }
  ctx.lineWidth = 2 / f.transform.k;
  ctx.strokeStyle = p.pinned;
  ctx.beginPath();
  for (let i = 0; i < f.items.length; i++) {
    const it = f.items[i] as Item;
    if (!it.pinned) continue;
    ctx.moveTo(px(f, i) + it.size + 2.5, py(f, i));
    ctx.arc(px(f, i), py(f, i), it.size + 2.5, 0, 2 * Math.PI);
  }
  ctx.stroke();
}

/** Search and selection outlines, and the recall rings. */
function drawMarks(ctx: CanvasRenderingContext2D, f: Frame): void {
  const k = f.transform.k;
  const outline = (i: number, color: string, width: number): void => {
    const it = f.items[i] as Item;
    ctx.strokeStyle = color;
    ctx.lineWidth = width / k;
    ctx.beginPath();
    ctx.arc(px(f, i), py(f, i), it.size + 4 / k, 0, 2 * Math.PI);
    ctx.stroke();
  };
  if (f.highlight) {
    for (const id of f.highlight) {
      const i = f.indexOf(id);
      if (i !== undefined) outline(i, f.palette.highlight, 2);
    }
  }
  if (f.selected !== undefined) outline(f.selected, f.palette.selected, 3);
  ctx.strokeStyle = f.palette.ring;
  ctx.lineWidth = 3 / k;
  for (const r of f.rings) {
    if (r.index === undefined) continue;
    const it = f.items[r.index] as Item;
    const a = (f.now - r.start) / f.ringMs;
    ctx.globalAlpha = Math.max(0, 1 - a);
    ctx.beginPath();
    ctx.arc(px(f, r.index), py(f, r.index), it.size + (4 + 28 * a) / k, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

/** A recall ring's score, next to the ring, fading with it (screen space). */
function drawRingScores(ctx: CanvasRenderingContext2D, f: Frame): void {
  if (f.rings.length === 0) return;
  const t = f.transform;
  ctx.fillStyle = f.palette.ringText;
  ctx.textBaseline = 'alphabetic';
  for (const r of f.rings) {
    if (r.index === undefined) continue;
    const s = (f.items[r.index] as Item).size * t.k;
    ctx.globalAlpha = Math.max(0, 1 - (f.now - r.start) / f.ringMs);
    ctx.fillText(r.score.toFixed(2), f.width / 2 + t.x + px(f, r.index) * t.k + s + 6, f.height / 2 + t.y + py(f, r.index) * t.k - s - 4);
  }
  ctx.globalAlpha = 1;
}

/** What the label placement sees of this frame: screen positions, the focus first, visible nodes as obstacles. */
function placement(f: Frame): Placement {
  const t = f.transform;
  const ox = f.width / 2 + t.x;
  const oy = f.height / 2 + t.y;
  const at = (i: number): LabelNode | null => {
    const it = f.items[i];
    if (!it) return null;
    const r = it.size * t.k;
    const x = ox + px(f, i) * t.k;
    const y = oy + py(f, i) * t.k;
    if (x + r < 0 || y + r < 0 || x - r > f.width || y - r > f.height) return null;
    return { id: it.id, label: it.label, x, y, r, group: it.group };
  };
  const focus: LabelNode[] = [];
  for (const i of [f.hovered, f.selected]) {
    const n = i === null || i === undefined ? null : at(i);
    if (n) focus.push(n);
  }
  return {
    width: f.width,
    height: f.height,
    focus,
    count: f.labelOrder.length,
    avoid: f.avoid,
    node: (i) => at(f.labelOrder[i] ?? -1),
    obstacles: {
      *[Symbol.iterator]() {
        for (let i = 0; i < f.items.length; i++) {
          const n = at(i);
          if (n) yield n;
        }
      },
    },
  };
}
