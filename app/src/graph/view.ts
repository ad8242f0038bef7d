/**
 * The graph view: facts as nodes, links as edges, drawn on a canvas. The force layout runs in a Web Worker
 * (sim-worker.ts); this thread only draws the latest positions, handles zoom/pan (d3-zoom), hover and
 * click, recall rings, and the level of detail (clusters.ts) past CLUSTER_THRESHOLD facts. Settled
 * positions survive a reload of the graph (they are kept by id and handed back to the layout).
 */
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { GEdge, GNode } from '../lib/types';
import { GraphData } from './graph-data';
import { handleCanvasKey } from './keyboard';
import { LabelCache, type LabelBox } from './labels';
import type { LayoutTick, ToWorker } from './protocol';
import { buildScene } from './scene';
import { fitTransform, freeArea, nearestItem, type Rect } from './free-area';
import { drawFrame, type DrawnEdge, type Item } from './renderer';
import { PanCache } from './pan-cache';
import { LIGHT_PALETTE, type Palette } from './style';
import { watchTheme } from './theme';

export interface ViewCallbacks {
  onSelect(id: string | null): void;
  onHover(id: string | null): void;
  /** After every rebuild of what is drawn (facts or clusters): the mode and how many items are drawn. */
  onScene(mode: 'facts' | 'clusters', drawnItems: number): void;
  /** Panels drawn over the canvas (legend, controls): fitting keeps the graph clear of them, labels avoid them. */
  obstructions?(): readonly Element[];
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
/** Layout temperature above which edges are drawn thin. */
const ANIMATING_ALPHA = 0.03;

export class GraphView extends GraphData {
  private items: readonly Item[] = [];
  private index: ReadonlyMap<string, number> = new Map();
  private itemOfFact: ReadonlyMap<string, string> = new Map();
  private drawnEdges: readonly DrawnEdge[] = [];
  private labelOrder: Int32Array = new Int32Array(0);
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
  /** Something drawn changed (positions, scene, marks, size): the next frame is drawn in full. */
  private needsDraw = true;
  /** Only the zoom transform changed since the last frame. */
  private viewMoved = false;
  /** The last full frame, copied while the view pans (pan-cache.ts). */
  private readonly panCache = new PanCache();
  private raf = 0;
  private frames: number[] = [];
  private readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly resize: ResizeObserver;
  private width = 0;
  private height = 0;
  /** Fit the whole graph into view while a new layout spreads (a first graph or a filter change), unless the user moves the view meanwhile. */
  private fitPending = true;
  private fitAt = 0;
  private palette: Palette = LIGHT_PALETTE;
  private readonly labelCache = new LabelCache();
  /** The labels of the last full frame (CSS px, relative to the canvas at that frame's transform). */
  private labels: LabelBox[] = [];
  private readonly unwatchTheme: () => void;
  /** The semantic map's places, or null for the link layout; the next resync restarts the layout when `reheat`. */
  private places: ReadonlyMap<string, readonly [number, number]> | null = null;
  private reheat = false;
  mode: 'facts' | 'clusters' = 'facts';
  /** The colour scheme the palette was read for. */
  scheme: 'light' | 'dark' = 'light';

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly cb: ViewCallbacks,
  ) {
    super();
    this.worker = new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<LayoutTick>) => this.onTick(ev.data);
    this.zoomer = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.03, 12])
      .on('zoom', (e: { transform: ZoomTransform; sourceEvent: unknown }) => {
        this.transform = e.transform;
        this.viewMoved = true;
        // The user took the view: no automatic fit until the next graph or filter.
        if (e.sourceEvent) this.fitPending = false;
      });
    select(canvas).call(this.zoomer);
    canvas.addEventListener('click', (ev) => this.onClick(ev));
    canvas.addEventListener('mousemove', (ev) => this.onMove(ev));
    canvas.addEventListener('keydown', (ev) => {
      if (!handleCanvasKey(ev, this)) return;
      ev.preventDefault();
      this.fitPending = false;
    });
    this.unwatchTheme = watchTheme(document.documentElement, (p, scheme) => {
      this.palette = p;
      this.scheme = scheme;
      this.needsDraw = true;
    });
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(canvas);
    this.fit();
    const loop = (): void => {
      this.raf = requestAnimationFrame(loop);
      this.frame();
    };
    this.raf = requestAnimationFrame(loop);
  }

  /**
   * Zoom and pan so that every drawn fact is inside the canvas, with a margin (the "fit" control, the F key,
   * and automatically after a fresh graph or filter once the layout has spread).
   */
  fitToView(): void {
    const fit = fitTransform(this.pos, this.items.map((it) => it.size), this.width, this.height, freeArea(this.width, this.height, this.obstructionRects()));
    if (fit) this.zoomer.transform(select(this.canvas), zoomIdentity.translate(fit.x, fit.y).scale(fit.k));
  }

  /**
   * The semantic map (places by fact id, x and y in [-1, 1]) or, with null, the link layout: the layout
   * restarts towards the new places; with `fit` the view fits again as it spreads.
   */
  setPlaces(places: ReadonlyMap<string, readonly [number, number]> | null, fit: boolean): void {
    this.places = places;
    this.reheat = true;
    if (fit) this.fitPending = true;
    this.schedule();
  }

  /** The panels over the canvas, as rectangles relative to it. */
  private obstructionRects(): Rect[] {
    const els = this.cb.obstructions?.() ?? [];
    if (els.length === 0) return [];
    const c = this.canvas.getBoundingClientRect();
    const out: Rect[] = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out.push({ x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height });
    }
    return out;
  }

  /** Replace everything (a fresh read of the graph); positions of facts seen before are kept. */
  setGraph(nodes: readonly GNode[], edges: readonly GEdge[], o: { fit?: boolean } = {}): void {
    this.fitPending = o.fit ?? true;
    this.replace(nodes, edges);
  }

  protected removed(id: string): void {
    if (this.selected === id) this.select(null);
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

  /** Zoom by `factor` about the canvas's centre (the + and - keys). */
  zoomBy(factor: number): void {
    const t = this.transform;
    const k = Math.max(0.03, Math.min(12, t.k * factor));
    // The drawn origin is the canvas centre: scaling about it scales the translation too.
    this.zoomer.transform(select(this.canvas), zoomIdentity.translate((t.x * k) / t.k, (t.y * k) / t.k).scale(k));
  }

  /** Select the next (1) or previous (-1) fact from the strongest down, and bring it into view when it is off screen. */
  selectStep(step: 1 | -1): void {
    const facts = Array.from(this.labelOrder).filter((i) => !(this.items[i] as Item).group);
    if (facts.length === 0) return;
    const at = this.selected === null ? -1 : facts.indexOf(this.index.get(this.selected) ?? -2);
    const next = facts[at === -1 ? (step === 1 ? 0 : facts.length - 1) : (at + step + facts.length) % facts.length] as number;
    this.select((this.items[next] as Item).id);
    const [sx, sy] = this.toScreen(this.pos[2 * next] ?? 0, this.pos[2 * next + 1] ?? 0);
    if (sx < 40 || sy < 40 || sx > this.width - 40 || sy > this.height - 40) this.panBy(this.width / 2 - sx, this.height / 2 - sy);
  }

  /** The labels drawn now, in CSS px relative to the canvas (tests check that none overlap). */
  labelBoxes(): LabelBox[] {
    const at = this.panCache.drawnAt;
    if (!at) return [];
    const dx = this.transform.x - at.x;
    const dy = this.transform.y - at.y;
    return this.labels.map((b) => ({ ...b, x: b.x + dx, y: b.y + dy }));
  }

  /** The canvas colours in use (tests compare the themes). */
  colors(): Palette {
    return this.palette;
  }

  destroy(): void {
    this.unwatchTheme();
    cancelAnimationFrame(this.raf);
    this.resize.disconnect();
    this.worker.postMessage({ type: 'stop' } satisfies ToWorker);
    this.worker.terminate();
  }

  protected schedule(): void {
    this.dirty = true;
  }

  /** Rebuild what is drawn (facts or groups) and restart the layout from the kept positions. */
  private resync(): void {
    this.dirty = false;
    for (let i = 0; i < this.items.length && 2 * i + 1 < this.pos.length; i++) this.known.set((this.items[i] as Item).id, [this.pos[2 * i] ?? 0, this.pos[2 * i + 1] ?? 0]);
    const scene = buildScene(this.nodes, this.edges.values(), this.expanded, this.known, { targets: this.places, reheat: this.reheat });
    this.reheat = false;
    Object.assign(this, { items: scene.items, index: scene.index, itemOfFact: scene.itemOfFact, drawnEdges: scene.edges, labelOrder: scene.labelOrder, pos: scene.pos, mode: scene.mode });
    this.generation++;
    this.worker.postMessage(scene.layout);
    this.needsDraw = true;
    this.cb.onScene(scene.mode, scene.items.length);
  }

  private onTick(t: LayoutTick): void {
    if (t.generation !== this.generation || t.positions.length !== this.items.length * 2) return;
    this.pos = t.positions;
    this.alpha = t.alpha;
    this.needsDraw = true;
    // Fit while the layout spreads (every 250 ms for its first 3 s), then leave the view alone.
    const now = performance.now();
    if (this.fitPending && now - this.fitAt >= 250) {
      this.fitAt = now;
      this.fitToView();
      if (t.alpha < 0.05) this.fitPending = false;
    }
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
    return nearestItem(this.items, this.pos, (ev.clientX - r.left - this.width / 2 - t.x) / t.k, (ev.clientY - r.top - this.height / 2 - t.y) / t.k, 4 / t.k);
  }

  private onClick(ev: MouseEvent): void {
    const i = this.hit(ev);
    const item = i === null ? null : this.items[i];
    if (!item) return this.select(null);
    if (item.group) this.toggleCluster(item.id);
    else this.select(item.id);
  }

  private onMove(ev: MouseEvent): void {
    if (ev.buttons !== 0) return; // dragging pans; hover waits
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
    const ringsBefore = this.rings.length;
    this.rings = this.rings.filter((r) => now - r.start < RING_MS);
    // A ring that ended leaves its last drawn frame on the canvas: draw once more without it.
    if (this.rings.length < ringsBefore) this.needsDraw = true;
    // A pan that ended leaves the edges it uncovered blank: draw in full once it rests.
    const settlePan = this.panCache.resting(now);
    if (!this.needsDraw && !this.viewMoved && !settlePan && this.rings.length === 0) return;
    this.frames.push(now);
    if (this.frames.length > 240) this.frames.splice(0, this.frames.length - 240);
    this.draw(now);
  }

  /** One frame: in full, or while the view only pans, the last full frame moved (pan-cache.ts). */
  private draw(now: number): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const t = this.transform;
    if (!this.needsDraw && this.rings.length === 0 && this.viewMoved && this.panCache.canPan(t)) {
      this.panCache.pan(this.canvas, ctx, t, now);
      this.viewMoved = false;
      return;
    }
    this.needsDraw = this.viewMoved = false;
    this.panCache.full(t);
    this.drawFull(ctx, now);
  }

  private drawFull(ctx: CanvasRenderingContext2D, now: number): void {
    this.labels = drawFrame(ctx, {
      dpr: window.devicePixelRatio || 1,
      width: this.width,
      height: this.height,
      canvasWidth: this.canvas.width,
      canvasHeight: this.canvas.height,
      transform: this.transform,
      items: this.items,
      labelOrder: this.labelOrder,
      pos: this.pos,
      edges: this.drawnEdges,
      highlight: this.highlight,
      selected: this.selected === null ? undefined : this.index.get(this.selected),
      hovered: this.hovered,
      rings: this.rings.map((r) => ({ index: this.index.get(this.itemOfFact.get(r.id) ?? ''), start: r.start, score: r.score })),
      indexOf: (id) => this.index.get(id),
      now,
      ringMs: RING_MS,
      // While the layout moves, edges are drawn as thin lines (wide strokes dominate software drawing);
      // their strength shows again as width once it settles.
      animating: this.alpha > ANIMATING_ALPHA,
      palette: this.palette,
      labels: this.labelCache,
      avoid: this.obstructionRects(),
    });
  }
}
