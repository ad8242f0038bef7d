/**
 * The graph view: facts as nodes, links as edges, drawn on a canvas. The force layout runs in a Web Worker
 * (sim-worker.ts); this thread only draws the latest positions, handles zoom/pan (d3-zoom), hover and
 * click, recall rings, and the level of detail (clusters.ts) past CLUSTER_THRESHOLD facts. Settled
 * positions survive a reload of the graph (they are kept by id and handed back to the layout).
 */
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { Category, GEdge, GNode } from '../lib/types';
import { buildGroups, CLUSTER_THRESHOLD, groupEdges } from './clusters';
import type { LayoutTick, ToWorker } from './protocol';
import { CATEGORY_COLORS, edgeWidth, ringOf, sizeOf } from './style';

interface Item {
  readonly id: string;
  readonly group: boolean;
  readonly category: Category;
  readonly strength: number;
  readonly pinned: boolean;
  readonly superseded: boolean;
  readonly label: string;
  readonly size: number;
}

export interface ViewCallbacks {
  onSelect(id: string | null): void;
  onHover(id: string | null): void;
}

export interface ViewStats {
  fps: number;
  facts: number;
  edges: number;
  drawnItems: number;
  mode: 'facts' | 'clusters';
  clusters: number;
  alpha: number;
}

const RING_MS = 1600;

export class GraphView {
  readonly nodes = new Map<string, GNode>();
  readonly edges = new Map<string, GEdge>();
  private items: Item[] = [];
  private index = new Map<string, number>();
  private itemOfFact = new Map<string, string>();
  private drawnEdges: { s: number; t: number; w: number }[] = [];
  private pos: Float32Array = new Float32Array(0);
  private readonly known = new Map<string, [number, number]>();
  private readonly expanded = new Set<string>();
  private transform: ZoomTransform = zoomIdentity;
  private highlight: ReadonlySet<string> | null = null;
  private selected: string | null = null;
  private hovered: number | null = null;
  private rings: { id: string; start: number; score: number }[] = [];
  private readonly worker: Worker;
  private generation = 0;
  private alpha = 0;
  private dirty = false;
  private needsDraw = true;
  private raf = 0;
  private frames: number[] = [];
  private readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly resize: ResizeObserver;
  private width = 0;
  private height = 0;
  mode: 'facts' | 'clusters' = 'facts';

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly cb: ViewCallbacks,
  ) {
    this.worker = new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<LayoutTick>) => this.onTick(ev.data);
    this.zoomer = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.03, 12])
      .on('zoom', (e: { transform: ZoomTransform }) => {
        this.transform = e.transform;
        this.needsDraw = true;
      });
    select(canvas).call(this.zoomer);
    canvas.addEventListener('click', (ev) => this.onClick(ev));
    canvas.addEventListener('mousemove', (ev) => this.onMove(ev));
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(canvas);
    this.fit();
    const loop = (): void => {
      this.raf = requestAnimationFrame(loop);
      this.frame();
    };
    this.raf = requestAnimationFrame(loop);
  }

  /** Replace everything (a fresh read of the graph); positions of facts seen before are kept. */
  setGraph(nodes: readonly GNode[], edges: readonly GEdge[]): void {
    this.nodes.clear();
    this.edges.clear();
    for (const n of nodes) this.nodes.set(n.id, n);
    for (const e of edges) this.edges.set(e.id, e);
    this.schedule();
  }

  upsertNode(n: GNode): void {
    this.nodes.set(n.id, { ...this.nodes.get(n.id), ...n });
    this.schedule();
  }

  patchNode(id: string, patch: Partial<GNode>): void {
    const n = this.nodes.get(id);
    if (!n) return;
    this.nodes.set(id, { ...n, ...patch });
    this.schedule();
  }

  removeNode(id: string): void {
    this.nodes.delete(id);
    for (const [k, e] of this.edges) if (e.source === id || e.target === id) this.edges.delete(k);
    if (this.selected === id) this.select(null);
    this.schedule();
  }

  upsertEdge(e: GEdge): void {
    this.edges.set(e.id, e);
    this.schedule();
  }

  removeEdge(id: string): void {
    this.edges.delete(id);
    this.schedule();
  }

  /** An expanding ring on a recalled fact (or its cluster), labelled with the score. */
  pulse(factId: string, score: number): void {
    if (!this.itemOfFact.has(factId)) return;
    this.rings.push({ id: factId, start: performance.now(), score });
  }

  setHighlight(ids: ReadonlySet<string> | null): void {
    this.highlight = ids;
    this.needsDraw = true;
  }

  select(id: string | null): void {
    this.selected = id;
    this.needsDraw = true;
    this.cb.onSelect(id);
  }

  /** Draw a cluster's facts one by one (or collapse it again). */
  toggleCluster(key: string): void {
    if (this.expanded.has(key)) this.expanded.delete(key);
    else this.expanded.add(key);
    this.schedule();
  }

  /** Client coordinates of a fact (or of the cluster drawing it), for tests and benches. */
  screenPosition(factId: string): { x: number; y: number } | null {
    const item = this.itemOfFact.get(factId);
    const i = item === undefined ? undefined : this.index.get(item);
    if (i === undefined || this.pos.length < 2 * (i + 1)) return null;
    const r = this.canvas.getBoundingClientRect();
    const [sx, sy] = this.toScreen(this.pos[2 * i] ?? 0, this.pos[2 * i + 1] ?? 0);
    return { x: r.left + sx, y: r.top + sy };
  }

  stats(): ViewStats {
    const now = performance.now();
    this.frames = this.frames.filter((t) => now - t <= 1000);
    return {
      fps: this.frames.length,
      facts: this.nodes.size,
      edges: this.edges.size,
      drawnItems: this.items.length,
      mode: this.mode,
      clusters: this.items.filter((i) => i.group).length,
      alpha: this.alpha,
    };
  }

  /** Pan by (dx, dy) screen pixels (benchmarks drive it). */
  panBy(dx: number, dy: number): void {
    this.zoomer.translateBy(select(this.canvas), dx / this.transform.k, dy / this.transform.k);
  }

  destroy(): void {
    cancelAnimationFrame(this.raf);
    this.resize.disconnect();
    this.worker.postMessage({ type: 'stop' } satisfies ToWorker);
    this.worker.terminate();
  }

  private schedule(): void {
    this.dirty = true;
  }

  /** Rebuild what is drawn (facts or groups) and restart the layout from the kept positions. */
  private resync(): void {
    this.dirty = false;
    for (let i = 0; i < this.items.length && 2 * i + 1 < this.pos.length; i++) this.known.set((this.items[i] as Item).id, [this.pos[2 * i] ?? 0, this.pos[2 * i + 1] ?? 0]);
    const nodes = [...this.nodes.values()];
    const items: Item[] = [];
    this.itemOfFact.clear();
    this.mode = nodes.length > CLUSTER_THRESHOLD ? 'clusters' : 'facts';
    const addFact = (n: GNode): void => {
      items.push({ id: n.id, group: false, category: n.category, strength: n.strength, pinned: n.pinned, superseded: n.superseded, label: n.label, size: sizeOf(n.strength) });
      this.itemOfFact.set(n.id, n.id);
    };
    if (this.mode === 'facts') nodes.forEach(addFact);
    else {
      for (const g of buildGroups(nodes).values()) {
        const key = `group:${g.key}`;
        if (this.expanded.has(key) || g.members.length === 1) {
          for (const id of g.members) {
            const n = this.nodes.get(id);
            if (n) addFact(n);
          }
          continue;
        }
        items.push({ id: key, group: true, category: g.category, strength: g.strength, pinned: false, superseded: false, label: g.label, size: Math.min(40, 6 + 3 * Math.sqrt(g.members.length)) });
        for (const id of g.members) this.itemOfFact.set(id, key);
      }
    }
    const index = new Map(items.map((it, i) => [it.id, i]));
    const merged = groupEdges(this.edges.values(), (f) => this.itemOfFact.get(f));
    const fresh = items.filter((it) => !this.known.has(it.id)).length;
    const xs = new Float32Array(items.length);
    const ys = new Float32Array(items.length);
    items.forEach((it, i) => {
      const p = this.known.get(it.id);
      xs[i] = p ? p[0] : NaN;
      ys[i] = p ? p[1] : NaN;
    });
    const links = new Int32Array(merged.length * 2);
    const linkStrength = new Float32Array(merged.length);
    this.drawnEdges = merged.map((e, k) => {
      const s = index.get(e.source) ?? 0;
      const t = index.get(e.target) ?? 0;
      links[2 * k] = s;
      links[2 * k + 1] = t;
      linkStrength[k] = e.strength;
      return { s, t, w: edgeWidth(e.strength) };
    });
    this.items = items;
    this.index = index;
    const pos = new Float32Array(items.length * 2);
    items.forEach((_, i) => {
      pos[2 * i] = Number.isNaN(xs[i] ?? NaN) ? 0 : (xs[i] ?? 0);
      pos[2 * i + 1] = Number.isNaN(ys[i] ?? NaN) ? 0 : (ys[i] ?? 0);
    });
    this.pos = pos;
    this.generation++;
    const msg: ToWorker = {
      type: 'set',
      rings: Float32Array.from(items, (it) => ringOf(it.strength)),
      xs,
      ys,
      sizes: Float32Array.from(items, (it) => it.size),
      links,
      linkStrength,
      // Settled graphs with a few changes only warm up a little: existing nodes barely move.
      alpha: fresh > items.length / 2 ? 1 : 0.3,
    };
    this.worker.postMessage(msg);
    this.needsDraw = true;
  }

  private onTick(t: LayoutTick): void {
    if (t.generation !== this.generation || t.positions.length !== this.items.length * 2) return;
    this.pos = t.positions;
    this.alpha = t.alpha;
    this.needsDraw = true;
  }

  private fit(): void {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.width = r.width;
    this.height = r.height;
    this.canvas.width = Math.max(1, Math.round(r.width * dpr));
    this.canvas.height = Math.max(1, Math.round(r.height * dpr));
    this.needsDraw = true;
  }

  private toScreen(x: number, y: number): [number, number] {
    const t = this.transform;
    return [this.width / 2 + t.x + x * t.k, this.height / 2 + t.y + y * t.k];
  }

  private hit(ev: MouseEvent): number | null {
    const r = this.canvas.getBoundingClientRect();
    const t = this.transform;
    const gx = (ev.clientX - r.left - this.width / 2 - t.x) / t.k;
    const gy = (ev.clientY - r.top - this.height / 2 - t.y) / t.k;
    let best: number | null = null;
    let bestD = Infinity;
    for (let i = 0; i < this.items.length; i++) {
      const dx = (this.pos[2 * i] ?? 0) - gx;
      const dy = (this.pos[2 * i + 1] ?? 0) - gy;
      const d = dx * dx + dy * dy;
      const reach = (this.items[i] as Item).size + 4 / t.k;
      if (d < reach * reach && d < bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  }

  private onClick(ev: MouseEvent): void {
    const i = this.hit(ev);
    const item = i === null ? null : this.items[i];
    if (!item) return this.select(null);
    if (item.group) this.toggleCluster(item.id);
    else this.select(item.id);
  }

  private onMove(ev: MouseEvent): void {
    const i = this.hit(ev);
    if (i === this.hovered) return;
    this.hovered = i;
    this.needsDraw = true;
    const item = i === null ? null : this.items[i];
    this.canvas.style.cursor = item ? 'pointer' : 'grab';
    this.cb.onHover(item && !item.group ? item.id : null);
  }

  private frame(): void {
    if (this.dirty) this.resync();
    const now = performance.now();
    this.rings = this.rings.filter((r) => now - r.start < RING_MS);
    if (!this.needsDraw && this.rings.length === 0) return;
    this.needsDraw = false;
    this.frames.push(now);
    if (this.frames.length > 240) this.frames.splice(0, this.frames.length - 240);
    this.draw(now);
  }

  private draw(now: number): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const t = this.transform;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * (this.width / 2 + t.x), dpr * (this.height / 2 + t.y));
    const p = this.pos;
    const px = (i: number): number => p[2 * i] ?? 0;
    const py = (i: number): number => p[2 * i + 1] ?? 0;
    // Edges, batched by width.
    ctx.strokeStyle = 'rgba(120,130,150,0.45)';
    const buckets = new Map<number, { s: number; t: number }[]>();
    for (const e of this.drawnEdges) {
      const w = Math.round(e.w * 2) / 2;
      const b = buckets.get(w) ?? [];
      b.push(e);
      buckets.set(w, b);
    }
    for (const [w, list] of buckets) {
      ctx.lineWidth = w / Math.max(1, t.k * 0.5);
      ctx.beginPath();
      for (const e of list) {
        ctx.moveTo(px(e.s), py(e.s));
        ctx.lineTo(px(e.t), py(e.t));
      }
      ctx.stroke();
    }
    // Nodes, batched by colour; dimmed when a search highlight is on and they do not match.
    const byColor = new Map<string, number[]>();
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i] as Item;
      const dim = this.highlight !== null && !it.group && !this.highlight.has(it.id);
      const key = dim ? '#d0d4dc' : CATEGORY_COLORS[it.category];
      const list = byColor.get(key) ?? [];
      list.push(i);
      byColor.set(key, list);
    }
    for (const [color, list] of byColor) {
      ctx.fillStyle = color;
      ctx.globalAlpha = 0.92;
      ctx.beginPath();
      for (const i of list) {
        const it = this.items[i] as Item;
        ctx.moveTo(px(i) + it.size, py(i));
        ctx.arc(px(i), py(i), it.size, 0, 2 * Math.PI);
      }
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 2 / t.k;
    ctx.strokeStyle = '#111';
    ctx.beginPath();
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i] as Item;
      if (!it.pinned) continue;
      ctx.moveTo(px(i) + it.size + 2.5, py(i));
      ctx.arc(px(i), py(i), it.size + 2.5, 0, 2 * Math.PI);
    }
    ctx.stroke();
    this.drawMarks(ctx, now, px, py);
  }

  /** Selection, hover, highlight outlines, labels and recall rings. */
  private drawMarks(ctx: CanvasRenderingContext2D, now: number, px: (i: number) => number, py: (i: number) => number): void {
    const t = this.transform;
    const outline = (i: number, color: string, width: number): void => {
      const it = this.items[i] as Item;
      ctx.strokeStyle = color;
      ctx.lineWidth = width / t.k;
      ctx.beginPath();
      ctx.arc(px(i), py(i), it.size + 4 / t.k, 0, 2 * Math.PI);
      ctx.stroke();
    };
    if (this.highlight) for (const id of this.highlight) {
      const i = this.index.get(id);
      if (i !== undefined) outline(i, '#f5b700', 2);
    }
    const sel = this.selected === null ? undefined : this.index.get(this.selected);
    if (sel !== undefined) outline(sel, '#d62728', 3);
    ctx.fillStyle = '#222';
    ctx.font = `${12 / t.k}px system-ui, sans-serif`;
    const labelled = new Set<number>();
    if (this.hovered !== null) labelled.add(this.hovered);
    if (sel !== undefined) labelled.add(sel);
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i] as Item;
      if (it.group || it.size * t.k > 14) labelled.add(i);
      if (labelled.size > 400) break;
    }
    for (const i of labelled) {
      const it = this.items[i] as Item;
      ctx.fillText(it.label.slice(0, 60), px(i) + it.size + 3 / t.k, py(i) + 4 / t.k);
    }
    for (const r of this.rings) {
      const i = this.index.get(this.itemOfFact.get(r.id) ?? '');
      if (i === undefined) continue;
      const it = this.items[i] as Item;
      const f = (now - r.start) / RING_MS;
      ctx.strokeStyle = `rgba(255,140,0,${1 - f})`;
      ctx.lineWidth = 3 / t.k;
      ctx.beginPath();
      ctx.arc(px(i), py(i), it.size + (4 + 28 * f) / t.k, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillStyle = `rgba(160,80,0,${1 - f})`;
      ctx.fillText(r.score.toFixed(2), px(i) + it.size + 6 / t.k, py(i) - it.size - 4 / t.k);
    }
  }
}
