/**
 * The graph app's design (issue 21, item 1) in Chromium, as a new user meets it: the theme follows the
 * system colour scheme (the tokens, and the canvas drawing with them), the legend lists every category
 * drawn, labels by zoom level never overlap, an empty memory / filters hiding everything / an empty feed
 * and inspector say what to do next, and every control is reachable by Tab with a visible focus ring.
 * Screenshots of each main state in both themes go to test/e2e/artifacts; with UPDATE_DOCS_IMAGES=1 they
 * are also copied to docs/images (graph.png, the README's hero image, is the dark graph with the inspector
 * open), so a plain test run leaves the tracked images alone:
 *   UPDATE_DOCS_IMAGES=1 npx vitest run test/e2e/design.test.ts
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { ARTIFACTS, closeGraph, ensureAppBuilt, type GraphPage, launchBrowser, openGraph, type PageGlobals, poll, ROOT, until } from '../support/e2e.js';

const CATEGORIES = ['preference', 'decision', 'entity', 'fact', 'other', 'technical'] as const;
type Scheme = 'light' | 'dark';

interface Box {
  readonly id: string;
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}
/** What this test reads of the view beyond test/support/e2e.ts's handle. */
interface DesignView {
  labelBoxes(): Box[];
  zoomBy(factor: number): void;
  fitToView(): void;
  colors(): { readonly background: string; readonly categories: Readonly<Record<string, string>> };
  readonly scheme: Scheme;
  readonly nodes: Map<string, { readonly category: string; readonly strength: number }>;
}
interface DomElement {
  readonly tagName: string;
  readonly dataset: Record<string, string | undefined>;
  readonly disabled?: boolean;
  getClientRects(): { readonly length: number };
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
}
interface DesignGlobals {
  readonly __hybridGraph?: { readonly view: DesignView };
  readonly document: {
    readonly documentElement: DomElement;
    readonly activeElement: DomElement | null;
    querySelector(s: string): DomElement | null;
    querySelectorAll(s: string): ArrayLike<DomElement>;
  };
  getComputedStyle(el: DomElement): { getPropertyValue(name: string): string; readonly outlineStyle: string; readonly outlineWidth: string; readonly outlineColor: string; readonly backgroundColor: string };
}

const view = (g: GraphPage) => ({
  labels: () => g.page.evaluate(() => (globalThis as unknown as DesignGlobals).__hybridGraph?.view.labelBoxes() ?? []),
  zoomBy: (f: number) => g.page.evaluate((x) => (globalThis as unknown as DesignGlobals).__hybridGraph?.view.zoomBy(x), f),
  fit: () => g.page.evaluate(() => (globalThis as unknown as DesignGlobals).__hybridGraph?.view.fitToView()),
  theme: () =>
    g.page.evaluate(() => {
      const w = globalThis as unknown as DesignGlobals;
      const v = w.__hybridGraph?.view;
      const css = w.getComputedStyle(w.document.documentElement);
      const canvas = w.document.querySelector('[data-testid=graph-canvas]') as DomElement;
      return {
        scheme: v?.scheme ?? null,
        token: css.getPropertyValue('--graph-background').trim(),
        bodyBg: css.getPropertyValue('--bg').trim(),
        canvasCss: w.getComputedStyle(canvas).backgroundColor,
        drawn: v?.colors().background ?? null,
        categories: v?.colors().categories ?? {},
        categoryTokens: Object.fromEntries(['preference', 'decision', 'entity', 'fact', 'other', 'technical'].map((c) => [c, css.getPropertyValue(`--cat-${c}`).trim()])),
      };
    }),
});

const intersects = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const hex = (s: string): [number, number, number] => {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(s);
  if (!m) throw new Error(`not a #rrggbb colour: ${s}`);
  return [parseInt(m[1] as string, 16), parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
};
/** WCAG relative luminance and contrast ratio. */
const luminance = ([r, g, b]: [number, number, number]): number => {
  const lin = (c: number): number => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
const contrast = (a: string, b: string): number => {
  const [x, y] = [luminance(hex(a)), luminance(hex(b))].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};

/** Screenshots of the main states; copied to docs/images with UPDATE_DOCS_IMAGES=1. */
const DOCS = join(ROOT, 'docs', 'images');
async function shot(g: GraphPage, name: string, docsName?: string): Promise<void> {
  await g.shot(name);
  if (process.env.UPDATE_DOCS_IMAGES !== '1') return;
  mkdirSync(DOCS, { recursive: true });
  copyFileSync(join(ARTIFACTS, `${name}.png`), join(DOCS, `${docsName ?? name}.png`));
}

describe('design', { timeout: 120_000 }, () => {
  let browser: Browser;
  let d: TestDashboard;
  let empty: TestDashboard;
  let g: GraphPage;
  let facts = 0;
  const ids: string[] = [];

  beforeAll(async () => {
    await ensureAppBuilt();
    [browser, d, empty] = await Promise.all([launchBrowser(), startTestDashboard('uws'), startTestDashboard('uws')]);
    // A few dozen facts a new user might have: every category, a spread of strengths, links of several types.
    const topics = [
      ['preference', 'Ada prefers short answers with code first'],
      ['preference', 'The team writes commit messages in the imperative mood'],
      ['decision', 'We chose SQLite with FTS5 over Postgres for the local store'],
      ['decision', 'Releases are cut every second Thursday'],
      ['entity', 'Kestrel is the internal deployment service'],
      ['entity', 'Marlin is the staging cluster in Frankfurt'],
      ['fact', 'The staging database listens on port 5433'],
      ['fact', 'The nightly backup runs at 02:00 UTC and keeps 14 days'],
      ['other', 'The office wifi is called meadow-5'],
      ['technical', 'Kestrel deploys through a blue-green switch on the load balancer'],
      ['technical', 'The search index is rebuilt when the embedding model changes'],
    ] as const;
    const drafts = Array.from({ length: 36 }, (_, i) => {
      const [category, text] = topics[i % topics.length] as (typeof topics)[number];
      return { text: i < topics.length ? text : `${text} (note ${i})`, category, entity: ['kestrel', 'marlin', 'ada', null][i % 4] ?? undefined, importance: 0.2 + ((i * 7) % 10) / 12 };
    });
    ids.push(...d.svc.memoryStoreMany(drafts).map((r) => r.fact.id));
    const link = (a: number, b: number, linkType?: 'DEPENDS_ON' | 'PART_OF' | 'CONTRADICTS') => d.svc.memoryLink({ sourceId: ids[a] as string, targetId: ids[b] as string, ...(linkType ? { linkType } : {}) });
    // Chains of six, a few links across them, one contradiction.
    for (let i = 1; i < ids.length; i++) if (i % 6 !== 0) link(i, i - 1, i % 4 === 0 ? 'DEPENDS_ON' : i % 5 === 0 ? 'PART_OF' : undefined);
    for (let i = 0; i < ids.length; i += 7) link(i, (i + 11) % ids.length);
    link(2, 15, 'CONTRADICTS');
    d.svc.pin(ids[4] as string);
    facts = d.svc.graph().nodes.length;
    g = await openGraph(browser, d.url, { facts });
    await d.svc.memoryRecall({ query: 'Kestrel deployment' });
    await until(async () => (await g.feed()).some((l) => l.kind === 'RECALL'), (v) => v, 'the recall in the feed');
    await g.settle();
  });

  afterAll(async () => {
    await closeGraph(g, browser, d, empty);
  });

  it('the theme follows the system colour scheme, the canvas drawing with the same tokens', async () => {
    const seen: Partial<Record<Scheme, Awaited<ReturnType<ReturnType<typeof view>['theme']>>>> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await g.page.emulateMedia({ colorScheme: scheme });
      const t = await until(view(g).theme, (x) => x.scheme === scheme, `the view to read the ${scheme} palette`);
      seen[scheme] = t;
      // The canvas draws what the tokens say: its palette, and its element's background.
      expect(t.drawn).toBe(t.token);
      expect(t.categories).toEqual(t.categoryTokens);
      const [r, gr, b] = hex(t.token);
      expect(t.canvasCss).toBe(`rgb(${r}, ${gr}, ${b})`);
      // Every category stands out from the canvas and from each other.
      const colours = Object.values(t.categoryTokens);
      expect(new Set(colours).size).toBe(CATEGORIES.length);
      for (const c of colours) expect(contrast(c, t.token), `${c} on ${t.token}`).toBeGreaterThanOrEqual(3);
      // A drawn fact's pixels are its category's colour in this theme.
      const v = await g.page.evaluate(() => {
        const view = (globalThis as unknown as DesignGlobals).__hybridGraph?.view;
        let best: [string, number] = ['', -1];
        for (const [id, n] of view?.nodes ?? []) if (n.strength > best[1]) best = [id, n.strength];
        return { id: best[0], category: view?.nodes.get(best[0])?.category ?? '' };
      });
      const at = await g.screenPosition(v.id);
      expect(at).not.toBeNull();
      const pixel = await g.page.evaluate(
        ([x, y]) => {
          interface Canvas {
            getBoundingClientRect(): { left: number; top: number };
            getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } };
          }
          const c = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=graph-canvas]') as Canvas;
          const r = c.getBoundingClientRect();
          const d = c.getContext('2d').getImageData(Math.round((x ?? 0) - r.left), Math.round((y ?? 0) - r.top), 1, 1).data;
          return [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0];
        },
        [at?.x ?? 0, at?.y ?? 0],
      );
      const want = hex(t.categoryTokens[v.category] ?? '');
      expect(Math.max(...pixel.map((p, i) => Math.abs(p - (want[i] ?? 0)))), `pixel ${pixel} vs ${want}`).toBeLessThanOrEqual(8);
      await g.settle();
      await shot(g, `design-graph-${scheme}`, `graph-${scheme}`);
    }
    expect(seen.light?.token).not.toBe(seen.dark?.token);
    expect(seen.light?.bodyBg).not.toBe(seen.dark?.bodyBg);
    expect(seen.light?.categories).not.toEqual(seen.dark?.categories);
    await g.page.emulateMedia({ colorScheme: 'light' });
  });

  it('the legend lists every category drawn, with counts, and collapses', async () => {
    const legend = g.testId('legend');
    expect(await legend.isVisible()).toBe(true);
    const drawn = await g.page.evaluate(() => {
      const out: Record<string, number> = {};
      for (const n of (globalThis as unknown as DesignGlobals).__hybridGraph?.view.nodes.values() ?? []) out[n.category] = (out[n.category] ?? 0) + 1;
      return out;
    });
    expect(Object.keys(drawn).sort()).toEqual([...CATEGORIES].sort());
    const rows = await g.page.locator('[data-testid=legend-category]').evaluateAll((els) => els.map((e) => [(e as unknown as DomElement).dataset.category ?? '', (e as unknown as { textContent: string }).textContent]));
    for (const [category, n] of Object.entries(drawn)) expect(rows.find(([c]) => c === category)?.[1]).toMatch(new RegExp(`${category}\\s*${n}$`));
    for (const mark of ['legend-strength', 'legend-pinned', 'legend-superseded', 'legend-link-strength', 'legend-link-conflict', 'legend-link-version']) expect(await g.testId(mark).isVisible(), mark).toBe(true);
    const toggle = g.testId('legend-toggle');
    await toggle.click();
    await poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await g.page.locator('[data-testid=legend-category]').count()).toBe(0);
    await toggle.click();
    await poll(() => g.page.locator('[data-testid=legend-category]').count()).toBe(CATEGORIES.length);
  });

  it('labels appear by zoom level, truncated, and never overlap', async () => {
    const box = await g.canvasBox();
    const check = async (): Promise<Box[]> => {
      const labels = await view(g).labels();
      for (let i = 0; i < labels.length; i++) {
        const a = labels[i] as Box;
        expect(a.x).toBeGreaterThanOrEqual(0);
        expect(a.y).toBeGreaterThanOrEqual(0);
        expect(a.x + a.w).toBeLessThanOrEqual(box.width);
        expect(a.y + a.h).toBeLessThanOrEqual(box.height);
        expect(a.w).toBeLessThanOrEqual(300);
        for (let j = i + 1; j < labels.length; j++) expect(intersects(a, labels[j] as Box), `${a.text} / ${(labels[j] as Box).text}`).toBe(false);
      }
      return labels;
    };
    // The legend folded, the whole canvas is free for labels.
    await g.testId('legend-toggle').click();
    await poll(() => g.testId('legend-toggle').getAttribute('aria-expanded')).toBe('false');
    await view(g).fit();
    await g.settle();
    const fitted = await check();
    expect(fitted.length).toBeGreaterThan(0);
    // Long texts end in an ellipsis instead of running on.
    expect(fitted.every((l) => l.text.length <= 60)).toBe(true);
    /** Labelled facts over facts drawn on the canvas. */
    const share = async (labels: readonly Box[]): Promise<number> => {
      const on = Object.values(await g.positions()).filter((p) => p && p.x >= box.left && p.y >= box.top && p.x <= box.left + box.width && p.y <= box.top + box.height).length;
      return labels.length / Math.max(1, on);
    };
    const fittedShare = await share(fitted);
    await view(g).zoomBy(0.3);
    await g.page.waitForTimeout(200);
    const far = await check();
    const farShare = await share(far);
    // Zoomed in on the first labelled fact.
    await view(g).fit();
    await view(g).zoomBy(2.5);
    const focus = (fitted[0] as Box).id;
    const p = await g.screenPosition(focus);
    await g.page.evaluate(([dx, dy]) => (globalThis as unknown as PageGlobals).__hybridGraph?.view.panBy(dx ?? 0, dy ?? 0), [box.left + box.width / 2 - (p?.x ?? 0), box.top + box.height / 2 - (p?.y ?? 0)]);
    await g.page.waitForTimeout(300);
    const near = await check();
    const nearShare = await share(near);
    expect(far.length).toBeLessThan(fitted.length);
    expect(farShare).toBeLessThan(fittedShare);
    // Zooming in labels facts that had none.
    const fittedIds = new Set(fitted.map((l) => l.id));
    expect(near.filter((l) => !fittedIds.has(l.id)).length, `${nearShare} of the facts on screen labelled`).toBeGreaterThan(0);
    // Zoomed far out, only the strongest facts keep their labels.
    const strength = await g.page.evaluate(() => Object.fromEntries([...((globalThis as unknown as DesignGlobals).__hybridGraph?.view.nodes ?? [])].map(([id, n]) => [id, n.strength])));
    const median = Object.values(strength).sort((a, b) => a - b)[Math.floor(Object.keys(strength).length / 2)] ?? 0;
    for (const l of far) expect(strength[l.id], l.text).toBeGreaterThanOrEqual(median);
    await g.testId('legend-toggle').click();
    await poll(() => g.testId('legend-toggle').getAttribute('aria-expanded')).toBe('true');
    await view(g).fit();
    await g.settle();
  });

  it('every control is reachable by Tab and shows a focus outline', async () => {
    await g.page.evaluate((id) => (globalThis as unknown as { __hybridGraph: { view: { select(id: string): void } } }).__hybridGraph.view.select(id), ids[6] as string);
    await g.testId('inspector').waitFor();
    await g.page.locator('body').click({ position: { x: 2, y: 2 } });
    // Mark every visible, enabled control; then Tab through the page and see where focus goes.
    const expected = await g.page.evaluate(() => {
      const w = globalThis as unknown as DesignGlobals;
      const els = Array.from(w.document.querySelectorAll('button, input, select, textarea, a[href], [tabindex="0"]'));
      const out: string[] = [];
      els.forEach((el, i) => {
        if (el.disabled || el.getClientRects().length === 0 || el.getAttribute('tabindex') === '-1') return;
        el.setAttribute('data-tab-mark', String(i));
        out.push(`${i}:${el.tagName.toLowerCase()}:${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? ''}`);
      });
      return out;
    });
    // The panels' controls are all there: the header, the sidebar, the canvas and its overlays, the tabs, the inspector, the feed.
    for (const id of ['fit-view', 'search-input', 'filter-category-fact', 'filter-min-strength', 'add-text', 'graph-canvas', 'legend-toggle', 'zoom-in', 'timeline-slider', 'tab-gaps', 'pin-toggle', 'edit-text', 'link-start', 'feed-line'])
      expect(expected.some((e) => e.endsWith(`:${id}`)), id).toBe(true);
    const visited = new Map<string, { style: string; width: string; color: string; focus: string }>();
    for (let i = 0; i < expected.length + 10; i++) {
      await g.page.keyboard.press('Tab');
      const f = await g.page.evaluate(() => {
        const w = globalThis as unknown as DesignGlobals;
        const el = w.document.activeElement;
        if (!el || el.getAttribute('data-tab-mark') === null) return null;
        const s = w.getComputedStyle(el);
        return { mark: el.getAttribute('data-tab-mark') ?? '', style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor, focus: w.getComputedStyle(w.document.documentElement).getPropertyValue('--focus').trim() };
      });
      if (f) visited.set(f.mark, f);
    }
    const missing = expected.filter((e) => !visited.has(e.split(':')[0] as string));
    expect(missing).toEqual([]);
    for (const [mark, f] of visited) {
      const label = expected.find((e) => e.startsWith(`${mark}:`));
      expect(f.style, label).toBe('solid');
      expect(parseFloat(f.width), label).toBeGreaterThanOrEqual(2);
      const [r, gr, b] = hex(f.focus);
      expect(f.color, label).toBe(`rgb(${r}, ${gr}, ${b})`);
    }
  });

  it('the canvas takes the keyboard: N selects the strongest fact, Escape clears, + zooms', async () => {
    await g.testId('graph-canvas').focus();
    await g.page.keyboard.press('Escape');
    await g.testId('inspector-empty').waitFor();
    await g.page.keyboard.press('n');
    const strongest = await g.page.evaluate(() => {
      let best: [string, number] = ['', -1];
      for (const [id, n] of (globalThis as unknown as DesignGlobals).__hybridGraph?.view.nodes ?? []) if (n.strength > best[1]) best = [id, n.strength];
      return best;
    });
    await poll(() => g.inspected()).toBe(strongest[0]);
    const [one, two] = await g.nodeIds();
    const spread = async (): Promise<number> => {
      const a = await g.screenPosition(one as string);
      const b = await g.screenPosition(two as string);
      return Math.hypot((a?.x ?? 0) - (b?.x ?? 0), (a?.y ?? 0) - (b?.y ?? 0));
    };
    const before = await spread();
    await g.page.keyboard.press('+');
    await poll(spread).toBeGreaterThan(before * 1.2);
    for (const scheme of ['light', 'dark'] as const) {
      await g.page.emulateMedia({ colorScheme: scheme });
      await view(g).fit();
      // No focus ring in the picture.
      await g.testId('graph-canvas').blur();
      await g.settle();
      // The dark one is the README's hero image.
      await shot(g, `design-inspector-${scheme}`, scheme === 'dark' ? 'graph' : `inspector-${scheme}`);
    }
    await g.page.emulateMedia({ colorScheme: 'light' });
    await g.page.keyboard.press('Escape');
  });

  it('an empty memory says how to store a first fact; the feed and the inspector say what comes; filters hiding everything say so', async () => {
    const e = await openGraph(browser, empty.url, { facts: 0 });
    try {
      await e.testId('empty-graph').waitFor();
      const text = (await e.testId('empty-graph').textContent()) ?? '';
      expect(text).toContain('No memories yet');
      expect(text).toContain('hybrid-mem store "');
      expect(text).toContain('memory_store');
      expect(await e.testId('feed-empty').isVisible()).toBe(true);
      expect(await e.testId('inspector-empty').textContent()).toContain('Click a fact in the graph to inspect it.');
      for (const scheme of ['light', 'dark'] as const) {
        await e.page.emulateMedia({ colorScheme: scheme });
        await e.page.waitForTimeout(100);
        await shot(e, `design-empty-${scheme}`, `empty-${scheme}`);
      }
      // The first fact replaces the empty state, live.
      empty.svc.memoryStore({ text: 'The staging database listens on port 5433', category: 'technical' });
      await poll(async () => (await e.stats()).facts).toBe(1);
      await poll(() => e.testId('empty-graph').count()).toBe(0);
      await poll(() => e.testId('feed-empty').count()).toBe(0);
      // Filters that hide every fact say so, and reset.
      await e.testId('filter-min-strength').fill('1');
      await e.testId('empty-filtered').waitFor();
      expect(await e.testId('empty-filtered').textContent()).toContain('No facts match these filters');
      await shot(e, 'design-filtered-dark', 'filtered-dark');
      await e.testId('empty-reset-filters').click();
      await poll(async () => (await e.stats()).facts).toBe(1);
      expect(await e.testId('empty-filtered').count()).toBe(0);
      expect(await e.page.getByText('minimum strength 0.00').count()).toBe(1);
      expect(e.errors).toEqual([]);
    } finally {
      await e.close();
    }
  });
});
