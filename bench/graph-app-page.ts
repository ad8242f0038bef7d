/**
 * In-page code of bench/graph-app.bench.ts: functions Playwright serialises into the graph app's page, so
 * each is self-contained (no module-level references) and types the page's globals itself (the bench's
 * tsconfig has no DOM lib). The app exposes `window.__hybridGraph = { view, controller }`.
 *
 * installProbe (an init script, before the app runs) traps that assignment and wraps two of the view's
 * methods on the instance: `draw` (one drawn frame: the whole drawFrame call) and `onTick` (a layout tick
 * from the worker). The minified build keeps property names, so the wrappers see every call.
 */

/** What view.stats() answers; one definition, shared with the e2e tests. */
export type { ViewStats } from '../test/support/e2e.js';
import type { ViewStats } from '../test/support/e2e.js';

interface ViewHandle {
  stats(): ViewStats;
  panBy(dx: number, dy: number): void;
}

/** What the probe reaches inside GraphView (runtime properties; `private` in TypeScript only). */
interface ViewInternals extends ViewHandle {
  draw(now: number): void;
  onTick(t: { readonly alpha: number }): void;
  readonly items: readonly unknown[];
  readonly nodes: ReadonlyMap<string, unknown>;
  readonly drawnEdges: readonly unknown[];
  readonly alpha: number;
}

interface Probe {
  /** Facts the page should end up with. */
  readonly expected: number;
  /** Per drawn frame: start (ms since navigation start) and duration of the draw call, flattened. */
  readonly draws: number[];
  /** Arrival of each accepted-or-not layout tick (ms since navigation start). */
  readonly ticks: number[];
  /** The end of the first frame drawn with all expected facts in the scene (positions may still be 0,0). */
  firstDraw: number | null;
  /** The first layout message from the worker. */
  firstTick: number | null;
  /** The end of the first frame drawn with all expected facts at positions from the layout worker. */
  firstLaidOut: number | null;
}

interface PageGlobals {
  __probe?: Probe;
  __hybridGraph?: { readonly view: ViewHandle };
  requestAnimationFrame(cb: (t: number) => void): number;
}

export function installProbe(expected: number): void {
  const g = globalThis as unknown as PageGlobals;
  const probe: Probe = { expected, draws: [], ticks: [], firstDraw: null, firstTick: null, firstLaidOut: null };
  g.__probe = probe;
  let graph: { readonly view: ViewHandle } | undefined;
  Object.defineProperty(g, '__hybridGraph', {
    configurable: true,
    enumerable: true,
    get: () => graph,
    set: (value: { readonly view: ViewHandle }) => {
      graph = value;
      const v = value.view as ViewInternals;
      const draw = v.draw.bind(v);
      const onTick = v.onTick.bind(v);
      v.onTick = (t) => {
        const now = performance.now();
        probe.ticks.push(now);
        if (probe.firstTick === null) probe.firstTick = now;
        onTick(t);
      };
      v.draw = (now) => {
        const t0 = performance.now();
        draw(now);
        const t1 = performance.now();
        probe.draws.push(t0, t1 - t0);
        const full = v.nodes.size === probe.expected && v.items.length > 0;
        if (full && probe.firstDraw === null) probe.firstDraw = t1;
        // alpha is only set by a tick of the current layout generation.
        if (full && v.alpha > 0 && probe.firstLaidOut === null) probe.firstLaidOut = t1;
      };
    },
  });
}

export interface LoadTiming {
  readonly firstDraw: number | null;
  readonly firstTick: number | null;
  readonly firstLaidOut: number | null;
  readonly domContentLoaded: number;
  /** The graph query (the largest /graphql response): request start and response end. */
  readonly graphRequestStart: number;
  readonly graphResponseEnd: number;
  readonly graphBytes: number;
}

/** The fields read from navigation and resource timing entries. */
interface TimingEntry {
  readonly name: string;
  readonly domContentLoadedEventEnd?: number;
  readonly requestStart?: number;
  readonly responseEnd?: number;
  readonly decodedBodySize?: number;
}

/** Navigation-relative times of one load (performance.now() starts at navigation start). */
export function loadTiming(): LoadTiming {
  const g = globalThis as unknown as PageGlobals;
  const p = g.__probe as Probe;
  const perf = performance as unknown as { getEntriesByType(type: string): TimingEntry[] };
  const nav = perf.getEntriesByType('navigation')[0];
  let graph: TimingEntry | null = null;
  for (const e of perf.getEntriesByType('resource')) {
    if (!e.name.includes('/graphql')) continue;
    if (graph === null || (e.decodedBodySize ?? 0) > (graph.decodedBodySize ?? 0)) graph = e;
  }
  return {
    firstDraw: p.firstDraw,
    firstTick: p.firstTick,
    firstLaidOut: p.firstLaidOut,
    domContentLoaded: nav?.domContentLoadedEventEnd ?? NaN,
    graphRequestStart: graph?.requestStart ?? NaN,
    graphResponseEnd: graph?.responseEnd ?? NaN,
    graphBytes: graph?.decodedBodySize ?? NaN,
  };
}

export interface WindowResult {
  readonly seconds: number;
  /** requestAnimationFrame callbacks of the bench's own loop (the page's frame rate). */
  readonly rafCallbacks: number;
  readonly rafIntervals: number[];
  /** Durations of the view's draw calls that started inside the window. */
  readonly drawMs: number[];
  readonly ticks: number;
  /** view.stats().fps read once a second. */
  readonly fpsSamples: number[];
  readonly alphaStart: number;
  readonly stats: ViewStats;
  readonly drawnEdges: number;
}

/**
 * One measuring window of `ms`: a requestAnimationFrame loop counting callbacks; with `pan`, each callback
 * pans the view by (3, 2) screen pixels forth and back (a triangle wave 30 steps either side of where it
 * started, so the graph stays on screen and every frame draws the same amount), and the view is put back
 * where it was at the end (windows in a row do not drift).
 */
export function measureWindow(o: { readonly ms: number; readonly pan: boolean }): Promise<WindowResult> {
  const g = globalThis as unknown as PageGlobals;
  const probe = g.__probe as Probe;
  const view = (g.__hybridGraph as { readonly view: ViewHandle }).view as ViewInternals;
  const raf: number[] = [];
  const fpsSamples: number[] = [];
  const alphaStart = view.stats().alpha;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let nextSample = t0 + 1000;
    let sign = 1;
    let at = 0;
    const step = (t: number): void => {
      raf.push(t);
      const now = performance.now();
      if (now >= nextSample) {
        fpsSamples.push(view.stats().fps);
        nextSample += 1000;
      }
      if (now - t0 >= o.ms) {
        const drawMs: number[] = [];
        for (let i = 0; i < probe.draws.length; i += 2) {
          const start = probe.draws[i] ?? 0;
          if (start >= t0 && start < now) drawMs.push(probe.draws[i + 1] ?? 0);
        }
        const rafIntervals = raf.slice(1).map((x, i) => x - (raf[i] ?? x));
        resolve({
          seconds: (now - t0) / 1000,
          rafCallbacks: raf.length,
          rafIntervals,
          drawMs,
          ticks: probe.ticks.filter((x) => x >= t0 && x < now).length,
          fpsSamples,
          alphaStart,
          stats: view.stats(),
          drawnEdges: view.drawnEdges.length,
        });
        if (at !== 0) view.panBy(-3 * at, -2 * at);
        return;
      }
      if (o.pan) {
        if (Math.abs(at + sign) > 30) sign = -sign;
        at += sign;
        view.panBy(3 * sign, 2 * sign);
      }
      g.requestAnimationFrame(step);
    };
    g.requestAnimationFrame(step);
  });
}

/** The browser's own requestAnimationFrame rate on an empty page: callbacks over `ms`. */
export function rafRate(ms: number): Promise<{ readonly seconds: number; readonly callbacks: number; readonly intervals: number[] }> {
  const g = globalThis as unknown as PageGlobals;
  const raf: number[] = [];
  return new Promise((resolve) => {
    const t0 = performance.now();
    const step = (t: number): void => {
      raf.push(t);
      const now = performance.now();
      if (now - t0 >= ms) {
        resolve({ seconds: (now - t0) / 1000, callbacks: raf.length, intervals: raf.slice(1).map((x, i) => x - (raf[i] ?? x)) });
        return;
      }
      g.requestAnimationFrame(step);
    };
    g.requestAnimationFrame(step);
  });
}

export const settledAlpha = (): number => ((globalThis as unknown as PageGlobals).__hybridGraph?.view.stats().alpha ?? 1);
/** The layout stopped (alpha below d3's alphaMin) after the graph was drawn (alpha is 0 before the first tick too). */
export const settled = (): boolean => {
  const g = globalThis as unknown as PageGlobals;
  return (g.__probe?.firstLaidOut ?? null) !== null && (g.__hybridGraph?.view.stats().alpha ?? 1) < 0.001;
};
export const laidOut = (): boolean => ((globalThis as unknown as PageGlobals).__probe?.firstLaidOut ?? null) !== null;

/** Profiling by ablation: one Canvas 2D method made a no-op on this page ('none' restores them all). */
export function ablate(method: 'none' | 'fillText' | 'stroke' | 'fill'): void {
  const g = globalThis as unknown as { CanvasRenderingContext2D: { prototype: Record<string, unknown> }; __ablated?: Record<string, unknown> };
  const proto = g.CanvasRenderingContext2D.prototype;
  for (const [k, v] of Object.entries(g.__ablated ?? {})) proto[k] = v;
  g.__ablated = {};
  if (method === 'none') return;
  g.__ablated[method] = proto[method];
  proto[method] = () => undefined;
}
