/**
 * End-to-end support: a headless Chromium (browser.ts: a system one, else the one in an npm package)
 * driven by playwright-core against a real dashboard server over a real SQLite file. Builds the graph app once when app/dist is missing (or older than its sources), opens
 * the app and waits for it to be live, clicks facts on the canvas by their drawn position, reads the view
 * through window.__hybridGraph and the canvas pixels, and saves screenshots to test/e2e/artifacts/.
 *
 * Callbacks handed to page.evaluate run in the browser: they are self-contained, and reach the page
 * through `globalThis` typed with the small interfaces below (the test tsconfig has no DOM lib).
 */
import { spawnSync } from 'node:child_process';
import { runProcess, type Finished } from './spawn.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startDashboard, type Dashboard } from '../../src/http/server.js';
import { startSemantic } from '../../src/main.js';
import { MemoryService } from '../../src/memory/service.js';
import { tempHome, type TestHome } from '../helpers.js';
import { chooseBrowser } from './browser.js';

export const ROOT = resolve(__dirname, '../..');
export const APP_DIR = join(ROOT, 'app');
export const DIST_INDEX = join(APP_DIR, 'dist', 'index.html');
export const ARTIFACTS = join(ROOT, 'test', 'e2e', 'artifacts');
const BIN = join(ROOT, 'bin', 'hybrid-mem.js');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const VIEWPORT = { width: 1400, height: 900 } as const;

// ---------------------------------------------------------------------------------------------------------
// The app build

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when app/dist/index.html is missing or older than anything the build reads. */
export function appBuildNeeded(): boolean {
  if (!existsSync(DIST_INDEX)) return true;
  const built = statSync(DIST_INDEX).mtimeMs;
  const sources = Math.max(newestMtime(join(APP_DIR, 'src')), newestMtime(join(APP_DIR, 'index.html')), newestMtime(join(APP_DIR, 'vite.config.ts')));
  return sources > built;
}

/**
 * Build the app (npx vite build --config app/vite.config.ts) when needed, once: e2e files run in parallel
 * workers, so the build holds a lock directory and the others wait for it, then find the build fresh.
 */
export async function ensureAppBuilt(): Promise<void> {
  if (!appBuildNeeded()) return;
  const lock = join(tmpdir(), `hybrid-mem-app-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds. A lock older than 3 minutes is left over from a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmdirSync(lock);
      } catch {
        // gone meanwhile
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the app build lock ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!appBuildNeeded()) return;
    const r = spawnSync('npx', ['vite', 'build', '--config', 'app/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
    if (r.status !== 0 || !existsSync(DIST_INDEX)) throw new Error(`the app build failed (status ${r.status}): ${r.stderr}\n${r.stdout}`);
  } finally {
    rmdirSync(lock);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Polling assertions (vitest has no locator matchers: these read the page and retry)

/** expect.poll with an e2e-sized timeout. */
export function poll<T>(fn: () => T | Promise<T>, timeout = 8000): ReturnType<typeof expect.poll<T | Promise<T>>> {
  return expect.poll(fn, { timeout, interval: 50 });
}

/** Wait until `read()` satisfies `ok` (usable in hooks, where expect.poll is not); returns the last value. */
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeout = 8000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Non-waiting reads of a locator (null while it matches nothing), for poll(). */
export const attr = (loc: Locator, name: string): Promise<string | null> => loc.getAttribute(name, { timeout: 200 }).catch(() => null);
export const textOf = (loc: Locator): Promise<string | null> => loc.textContent({ timeout: 200 }).catch(() => null);
export const valueOf = (loc: Locator): Promise<string | null> => loc.inputValue({ timeout: 200 }).catch(() => null);
/** Data attribute `name` of every element the locator matches. */
export const dataOf = (loc: Locator, name: string): Promise<string[]> => loc.evaluateAll((els, n) => els.map((e) => (e as unknown as { dataset: Record<string, string | undefined> }).dataset[n] ?? ''), name);

// ---------------------------------------------------------------------------------------------------------
// Browser and pages

/**
 * Launch the browser (the machine's, else the bundled one) with a temp folder of its own: Chromium leaves
 * `.org.chromium.Chromium.*` folders in TMPDIR, removed only as its helper processes wind down, so its
 * folder goes with it when the browser closes and nothing of it outlives the test.
 */
export async function launchBrowser(executablePath?: string): Promise<Browser> {
  const path = executablePath ?? (await chooseBrowser()).executablePath;
  const dir = mkdtempSync(join(tmpdir(), 'hm-chromium-'));
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS, env: { ...process.env, TMPDIR: dir } });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    try {
      await close(options);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return browser;
}

/** What the app puts on window for tests (see app/src/app.tsx), as far as these tests read it. */
export interface ViewNode {
  readonly id: string;
  readonly label: string;
  readonly category: string;
  readonly entity: string | null;
  readonly strength: number;
  readonly pinned: boolean;
  readonly superseded: boolean;
}
export interface ViewEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly linkType: string;
  readonly strength: number;
}
export interface ViewStats {
  readonly fps: number;
  readonly facts: number;
  readonly edges: number;
  readonly drawnItems: number;
  readonly mode: 'facts' | 'clusters';
  readonly clusters: number;
  readonly alpha: number;
}
export interface Point {
  readonly x: number;
  readonly y: number;
}
export interface GraphViewHandle {
  readonly nodes: Map<string, ViewNode>;
  readonly edges: Map<string, ViewEdge>;
  screenPosition(factId: string): Point | null;
  stats(): ViewStats;
  panBy(dx: number, dy: number): void;
  toggleCluster(key: string): void;
}
export interface HybridGraphWindow {
  readonly __hybridGraph?: { readonly view: GraphViewHandle; readonly controller: unknown };
}

/** The few DOM shapes the in-page callbacks use. */
interface RectLike {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}
interface CanvasLike {
  readonly width: number;
  readonly height: number;
  getBoundingClientRect(): RectLike;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { readonly data: ArrayLike<number> } } | null;
}
export interface PageGlobals extends HybridGraphWindow {
  readonly document: { querySelector(selector: string): unknown };
  readonly localStorage: { getItem(key: string): string | null };
  requestAnimationFrame(cb: (t: number) => void): number;
}

export const TOKEN_KEY = 'hybrid-mem.dashboard-token';

/** A page on the graph app, with the helpers the e2e tests share. */
export class GraphPage {
  /** Uncaught errors on the page (any is a failure). */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.errors.push(`${e.name}: ${e.message}`));
  }

  testId(id: string) {
    return this.page.getByTestId(id);
  }

  stats(): Promise<ViewStats> {
    return this.page.evaluate(() => {
      const g = (globalThis as unknown as PageGlobals).__hybridGraph;
      if (!g) throw new Error('window.__hybridGraph is not set');
      return g.view.stats();
    });
  }

  /** Ids of the facts the view holds. */
  nodeIds(): Promise<string[]> {
    return this.page.evaluate(() => [...((globalThis as unknown as PageGlobals).__hybridGraph?.view.nodes.keys() ?? [])]);
  }

  node(id: string): Promise<ViewNode | null> {
    return this.page.evaluate((fid) => (globalThis as unknown as PageGlobals).__hybridGraph?.view.nodes.get(fid) ?? null, id);
  }

  edgeIds(): Promise<string[]> {
    return this.page.evaluate(() => [...((globalThis as unknown as PageGlobals).__hybridGraph?.view.edges.keys() ?? [])]);
  }

  edge(id: string): Promise<ViewEdge | null> {
    return this.page.evaluate((eid) => (globalThis as unknown as PageGlobals).__hybridGraph?.view.edges.get(eid) ?? null, id);
  }

  screenPosition(id: string): Promise<Point | null> {
    return this.page.evaluate((fid) => (globalThis as unknown as PageGlobals).__hybridGraph?.view.screenPosition(fid) ?? null, id);
  }

  /** Client positions of every fact the view holds (null while not laid out). */
  positions(): Promise<Record<string, Point | null>> {
    return this.page.evaluate(() => {
      const view = (globalThis as unknown as PageGlobals).__hybridGraph?.view;
      const out: Record<string, Point | null> = {};
      if (view) for (const id of view.nodes.keys()) out[id] = view.screenPosition(id);
      return out;
    });
  }

  /** The canvas's box in client coordinates. */
  canvasBox(): Promise<RectLike> {
    return this.page.evaluate(() => {
      const c = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=graph-canvas]') as CanvasLike;
      const r = c.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    });
  }

  /** Wait until no drawn fact moves more than half a pixel over 150 ms (the layout has settled). */
  async settle(ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    let before = await this.positions();
    for (;;) {
      await this.page.waitForTimeout(150);
      const after = await this.positions();
      const ids = Object.keys(after);
      const still = ids.length > 0 && ids.every((id) => {
        const a = before[id];
        const b = after[id];
        return a != null && b != null && Math.hypot(a.x - b.x, a.y - b.y) < 0.5;
      });
      if (still) return;
      if (Date.now() > end) throw new Error(`the layout did not settle within ${ms} ms`);
      before = after;
    }
  }

  /**
   * Click a fact's node on the canvas (real mouse events at its drawn position), panning it into view when
   * needed, until `done` says the click landed (default: the inspector shows the fact).
   */
  async clickFact(id: string, done?: () => Promise<boolean>): Promise<void> {
    const landed = done ?? (async () => (await this.inspected()) === id);
    for (let attempt = 0; attempt < 10; attempt++) {
      const box = await this.canvasBox();
      let p = await this.screenPosition(id);
      if (p === null) {
        await this.page.waitForTimeout(100);
        continue;
      }
      const cx = box.left + box.width / 2;
      const cy = box.top + box.height / 2;
      if (p.x < box.left + 20 || p.x > box.left + box.width - 20 || p.y < box.top + 20 || p.y > box.top + box.height - 20) {
        await this.page.evaluate(([dx, dy]) => (globalThis as unknown as PageGlobals).__hybridGraph?.view.panBy(dx ?? 0, dy ?? 0), [cx - p.x, cy - p.y]);
        await this.page.waitForTimeout(50);
        p = await this.screenPosition(id);
        if (p === null) continue;
      }
      await this.page.mouse.click(p.x, p.y);
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        if (await landed()) return;
        await this.page.waitForTimeout(50);
      }
    }
    throw new Error(`clicking fact ${id} on the canvas never landed`);
  }

  /**
   * Colours of the canvas pixels in a disc of radius r around a client point, sampled over `ms`
   * (every animation frame): for each frame, how many pixels `kind` matched; returns the largest count,
   * or -1 when the point is not on the canvas. Stops early once a frame has `enough` matches.
   * kinds: 'ring' (the recall ring's orange), 'dim' (the grey of facts a search leaves out),
   * 'highlight' (the yellow outline of search matches).
   */
  countPixels(at: Point, r: number, kind: 'ring' | 'dim' | 'highlight', ms = 0, enough = Infinity): Promise<number> {
    return this.page.evaluate(
      ({ at, r, kind, ms, enough }) =>
        new Promise<number>((done) => {
          const g = globalThis as unknown as PageGlobals;
          const canvas = g.document.querySelector('[data-testid=graph-canvas]') as CanvasLike;
          const ctx = canvas.getContext('2d');
          if (!ctx) return done(-1);
          const rect = canvas.getBoundingClientRect();
          const scale = canvas.width / rect.width;
          const cx = Math.round((at.x - rect.left) * scale);
          const cy = Math.round((at.y - rect.top) * scale);
          const rr = Math.round(r * scale);
          if (cx < 0 || cy < 0 || cx >= canvas.width || cy >= canvas.height) return done(-1);
          const match = (red: number, green: number, blue: number): boolean => {
            if (kind === 'ring') return red > 230 && green < 230 && green - blue > 50 && green > 100;
            if (kind === 'highlight') return red > 220 && green > 160 && green < 200 && blue < 60;
            return Math.max(red, green, blue) - Math.min(red, green, blue) < 20 && red > 190 && red < 235;
          };
          const count = (): number => {
            const x0 = Math.max(0, cx - rr);
            const y0 = Math.max(0, cy - rr);
            const w = Math.max(1, Math.min(canvas.width, cx + rr + 1) - x0);
            const h = Math.max(1, Math.min(canvas.height, cy + rr + 1) - y0);
            const d = ctx.getImageData(x0, y0, w, h).data;
            let n = 0;
            for (let y = 0; y < h; y++)
              for (let x = 0; x < w; x++) {
                if ((x0 + x - cx) ** 2 + (y0 + y - cy) ** 2 > rr * rr) continue;
                const i = 4 * (y * w + x);
                if (match(d[i] ?? 0, d[i + 1] ?? 0, d[i + 2] ?? 0)) n++;
              }
            return n;
          };
          const start = performance.now();
          let best = count();
          if (ms <= 0) return done(best);
          const tick = (): void => {
            best = Math.max(best, count());
            if (best >= enough || performance.now() - start >= ms) done(best);
            else g.requestAnimationFrame(tick);
          };
          g.requestAnimationFrame(tick);
        }),
      { at, r, kind, ms, enough },
    );
  }

  /** Feed lines (newest first), with their kind. */
  feed(): Promise<{ kind: string; text: string }[]> {
    return this.page.getByTestId('feed-line').evaluateAll((els) => els.map((e) => ({ kind: (e as unknown as { dataset: { kind?: string } }).dataset.kind ?? '', text: (e as unknown as { textContent: string | null }).textContent ?? '' })));
  }

  /** The selected fact's id in the inspector (null when none). */
  inspected(): Promise<string | null> {
    return attr(this.testId('inspector'), 'data-id');
  }

  localStorageItem(key: string): Promise<string | null> {
    return this.page.evaluate((k) => (globalThis as unknown as PageGlobals).localStorage.getItem(k), key);
  }

  liveStatus(): Promise<string | null> {
    return this.testId('live-indicator').getAttribute('data-status');
  }

  /** Save a screenshot to test/e2e/artifacts/<name>.png. */
  async shot(name: string): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    await this.page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  }

  close(): Promise<void> {
    return this.page.context().close();
  }
}


/** End an e2e suite: the page had no uncaught error; then the page, the browser and each of `rest` (in order) closed. */
export async function closeGraph(g: GraphPage | undefined, browser: Browser | undefined, ...rest: readonly ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  if (g) expect(g.errors).toEqual([]);
  await g?.page.close();
  await browser?.close();
  for (const r of rest) await r?.close();
}
/**
 * Open the graph app at `url` in a fresh browser context (its own local storage), wait for the live
 * stream and for the first graph load (`facts` facts in the view, when given), and return the page.
 */
export async function openGraph(browser: Browser, url: string, o: { facts?: number } = {}): Promise<GraphPage> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const gp = new GraphPage(await context.newPage());
  await gp.page.goto(`${url}/graph/`);
  gp.page.setDefaultTimeout(10_000);
  await until(() => attr(gp.testId('live-indicator'), 'data-status'), (v) => v === 'live', 'the live indicator to say live', 10_000);
  await gp.page.waitForFunction(() => (globalThis as unknown as PageGlobals).__hybridGraph !== undefined);
  if (o.facts !== undefined) {
    const want = o.facts;
    await until(async () => (await gp.stats()).facts, (n) => n === want, `${want} facts in the view`, 10_000);
  }
  return gp;
}

// ---------------------------------------------------------------------------------------------------------
// Servers

export interface E2eServer {
  readonly home: TestHome;
  readonly svc: MemoryService;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A dashboard over a service with the semantic layer (embedding model, vector worker): suggested links
 * work. Embedding keeps its defaults (enabled, the shipped model, loaded locally).
 */
export async function startSemanticDashboard(userConfig: Record<string, unknown> = {}): Promise<E2eServer> {
  const home = tempHome(userConfig);
  const svc = MemoryService.open({ config: home.config, env: home.env, pollMs: 50 });
  let server: Dashboard | null = null;
  try {
    await startSemantic(svc, home.config, () => undefined);
    server = await startDashboard({ svc, config: home.config, port: 0, record: false });
  } catch (err) {
    await svc.close();
    home.cleanup();
    throw err;
  }
  const s = server;
  return {
    home,
    svc,
    url: s.url,
    port: s.port,
    async close() {
      await s.close();
      await svc.close();
      home.cleanup();
    },
  };
}

/** Run the real CLI (bin/hybrid-mem.js, from source) against a data dir: another process, another connection. */
export function cli(home: TestHome, args: readonly string[]): Promise<Finished> {
  return runProcess(process.execPath, [BIN, '--db', home.config.dbPath, ...args], { ...process.env, ...home.env, HYBRID_MEM_FROM_SOURCE: '1' });
}
