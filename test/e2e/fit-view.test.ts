/**
 * Fit to view (issue 21, item 1) in Chromium: a new user's graph opens with every fact inside the canvas
 * (the view fits while the layout spreads), and after the view was panned away the Fit control (and the
 * F key) bring every fact back inside. Screenshots go to test/e2e/artifacts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { closeGraph, ensureAppBuilt, type GraphPage, launchBrowser, openGraph, until } from '../support/e2e.js';

const FACTS = 36;

describe('fit to view', { timeout: 60_000 }, () => {
  let browser: Browser;
  let d: TestDashboard;
  let g: GraphPage;

  beforeAll(async () => {
    await ensureAppBuilt();
    [browser, d] = await Promise.all([launchBrowser(), startTestDashboard('uws')]);
    const ids = d.svc.memoryStoreMany(Array.from({ length: FACTS }, (_, i) => ({ text: `Service s${i} runs on host h${i % 9} in rack r${i % 4}`, category: 'technical' as const, importance: 0.3 + (i % 5) / 10 }))).map((r) => r.fact.id);
    for (let i = 1; i < ids.length; i += 2) d.svc.memoryLink({ sourceId: ids[i - 1] as string, targetId: ids[i] as string });
    g = await openGraph(browser, d.url, { facts: FACTS });
  });

  afterAll(async () => {
    await closeGraph(g, browser, d);
  });

  /** Facts drawn outside the canvas (with a 2 px tolerance). */
  const outside = async (): Promise<string[]> => {
    const box = await g.canvasBox();
    const pos = await g.positions();
    return Object.entries(pos)
      .filter(([, p]) => !p || p.x < box.left - 2 || p.y < box.top - 2 || p.x > box.left + box.width + 2 || p.y > box.top + box.height + 2)
      .map(([id]) => id);
  };

  it('opens with every fact inside the canvas', async () => {
    await g.settle();
    expect(await outside()).toEqual([]);
    await g.shot('fit-on-open');
  });

  /**
   * Pan as a script would (no pointer event), once the view's automatic fit while the layout spreads is
   * over: a user's own drag or key ends it at once, a script's pan does not, and a late automatic fit
   * would undo the pan (on a loaded machine the layout can spread for longer than the first test waits).
   */
  const panBy = async (dx: number, dy: number): Promise<void> => {
    await until(() => g.page.evaluate(() => (globalThis as unknown as { __hybridGraph: { view: { fitPending?: boolean } } }).__hybridGraph.view.fitPending === true), (fitting) => !fitting, 'the automatic fit over', 20_000);
    await g.page.evaluate(([x, y]) => (globalThis as unknown as { __hybridGraph: { view: { panBy(x: number, y: number): void } } }).__hybridGraph.view.panBy(x as number, y as number), [dx, dy]);
  };

  it('the Fit control and the F key bring the graph back after the view was panned away', async () => {
    const box = await g.canvasBox();
    await panBy(box.width * 3, 0);
    await until(outside, (ids) => ids.length === FACTS, 'every fact panned out of the canvas');
    await g.testId('fit-view').click();
    await until(outside, (ids) => ids.length === 0, 'every fact back inside after Fit');
    await panBy(0, box.height * 3);
    await until(outside, (ids) => ids.length === FACTS, 'every fact panned out again');
    await g.page.locator('body').press('f');
    await until(outside, (ids) => ids.length === 0, 'every fact back inside after F');
  });
});
