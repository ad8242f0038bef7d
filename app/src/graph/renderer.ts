/**
 * Drawing one frame of the graph on a 2D canvas: edges batched by width, nodes batched by colour (one
 * path each), pinned rings, then selection, hover and search outlines, labels (only when zoomed in far
 * enough, or for groups), and the recall rings with their scores. Pure drawing: no state is kept here.
 */
import type { ZoomTransform } from 'd3-zoom';
import type { Category } from '../lib/types';
import { CATEGORY_COLORS } from './style';

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

export interface Frame {
  readonly dpr: number;
  readonly width: number;
  readonly height: number;
  readonly canvasWidth: number;
  readonly canvasHeight: number;
  readonly transform: ZoomTransform;
  readonly items: readonly Item[];
  /** Interleaved x, y per item. */
  readonly pos: Float32Array;
  readonly edges: readonly { s: number; t: number; w: number }[];
  readonly highlight: ReadonlySet<string> | null;
  readonly selected: number | undefined;
  readonly hovered: number | null;
  readonly rings: readonly { index: number | undefined; start: number; score: number }[];
  readonly indexOf: (id: string) => number | undefined;
  readonly now: number;
  readonly ringMs: number;
  /** The layout is moving: edges drawn as thin lines whatever their strength. */
  readonly animating: boolean;
}

const MAX_LABELS = 400;

export function drawFrame(ctx: CanvasRenderingContext2D, f: Frame): void {
  const t = f.transform;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, f.canvasWidth, f.canvasHeight);
  ctx.setTransform(f.dpr * t.k, 0, 0, f.dpr * t.k, f.dpr * (f.width / 2 + t.x), f.dpr * (f.height / 2 + t.y));
  drawEdges(ctx, f);
  drawNodes(ctx, f);
  drawMarks(ctx, f);
}

const px = (f: Frame, i: number): number => f.pos[2 * i] ?? 0;
const py = (f: Frame, i: number): number => f.pos[2 * i + 1] ?? 0;

function drawEdges(ctx: CanvasRenderingContext2D, f: Frame): void {
  ctx.strokeStyle = 'rgba(120,130,150,0.45)';
  if (f.animating) {
    ctx.lineWidth = 1 / f.transform.k;
    ctx.beginPath();
    for (const e of f.edges) {
      ctx.moveTo(px(f, e.s), py(f, e.s));
      ctx.lineTo(px(f, e.t), py(f, e.t));
    }
    ctx.stroke();
    return;
  }
  const buckets = new Map<number, { s: number; t: number }[]>();
  for (const e of f.edges) {
    const w = Math.round(e.w * 2) / 2;
    const b = buckets.get(w) ?? [];
    b.push(e);
    buckets.set(w, b);
  }
  for (const [w, list] of buckets) {
    ctx.lineWidth = w / Math.max(1, f.transform.k * 0.5);
    ctx.beginPath();
    for (const e of list) {
      ctx.moveTo(px(f, e.s), py(f, e.s));
      ctx.lineTo(px(f, e.t), py(f, e.t));
    }
    ctx.stroke();
  }
}

/** Nodes batched by colour; grey when superseded, or when a search highlight is on and they do not match; pinned ringed. */
function drawNodes(ctx: CanvasRenderingContext2D, f: Frame): void {
  const byColor = new Map<string, number[]>();
  for (let i = 0; i < f.items.length; i++) {
    const it = f.items[i] as Item;
    const dim = (f.highlight !== null && !it.group && !f.highlight.has(it.id)) || it.superseded;
    const key = dim ? (it.superseded ? '#b9bec8' : '#d0d4dc') : CATEGORY_COLORS[it.category];
    const list = byColor.get(key) ?? [];
    list.push(i);
    byColor.set(key, list);
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
  ctx.strokeStyle = '#111';
  ctx.beginPath();
  for (let i = 0; i < f.items.length; i++) {
    const it = f.items[i] as Item;
    if (!it.pinned) continue;
    ctx.moveTo(px(f, i) + it.size + 2.5, py(f, i));
    ctx.arc(px(f, i), py(f, i), it.size + 2.5, 0, 2 * Math.PI);
  }
  ctx.stroke();
}

/** Selection, hover and highlight outlines, labels and recall rings. */
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
      if (i !== undefined) outline(i, '#f5b700', 2);
    }
  }
  if (f.selected !== undefined) outline(f.selected, '#d62728', 3);
  ctx.fillStyle = '#222';
  ctx.font = `${12 / k}px system-ui, sans-serif`;
  const labelled = new Set<number>();
  if (f.hovered !== null) labelled.add(f.hovered);
  if (f.selected !== undefined) labelled.add(f.selected);
  for (let i = 0; i < f.items.length && labelled.size <= MAX_LABELS; i++) {
    const it = f.items[i] as Item;
    if (it.group || it.size * k > 14) labelled.add(i);
  }
  for (const i of labelled) {
    const it = f.items[i] as Item;
    ctx.fillText(it.label.slice(0, 60), px(f, i) + it.size + 3 / k, py(f, i) + 4 / k);
  }
  for (const r of f.rings) {
    if (r.index === undefined) continue;
    const it = f.items[r.index] as Item;
    const a = (f.now - r.start) / f.ringMs;
    ctx.strokeStyle = `rgba(255,140,0,${1 - a})`;
    ctx.lineWidth = 3 / k;
    ctx.beginPath();
    ctx.arc(px(f, r.index), py(f, r.index), it.size + (4 + 28 * a) / k, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = `rgba(160,80,0,${1 - a})`;
    ctx.fillText(r.score.toFixed(2), px(f, r.index) + it.size + 6 / k, py(f, r.index) - it.size - 4 / k);
  }
}
