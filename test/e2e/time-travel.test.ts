/**
 * Time travel (issue 21, item 3) in Chromium: the slider changes which facts are drawn, the URL carries the
 * time (a deep link opens the past), "Now" returns to the live graph, a live fact does not enter a past
 * view, and play walks the history up to now. Screenshots go to test/e2e/artifacts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { closeGraph, ensureAppBuilt, type GraphPage, launchBrowser, openGraph, until } from '../support/e2e.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('time travel', { timeout: 90_000 }, () => {
  let browser: Browser;
  let d: TestDashboard;
  let g: GraphPage;
  const ids: string[] = [];
  const times: number[] = [];

  beforeAll(async () => {
    await ensureAppBuilt();
    [browser, d] = await Promise.all([launchBrowser(), startTestDashboard('uws')]);
    for (const text of ['The build server is ci1.internal', 'Deploys go out on Tuesdays', 'The on-call rota changes every Monday']) {
      const f = d.svc.memoryStore({ text, category: 'technical' }).fact;
      ids.push(f.id);
      times.push(f.validFrom);
      await pause(400);
    }
    d.svc.memoryLink({ sourceId: ids[0] as string, targetId: ids[2] as string });
    g = await openGraph(browser, d.url, { facts: 3 });
  });

  afterAll(async () => {
    await closeGraph(g, browser, d);
  });

  const drawn = async (): Promise<string[]> => (await g.nodeIds()).sort();
  const slideTo = (t: number) =>
    g.testId('timeline-slider').evaluate((el, value) => {
      const input = el as unknown as { value: string; dispatchEvent(e: Event): boolean };
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, t);

  it('the slider changes which facts are drawn, and the URL follows', async () => {
    expect(await g.testId('timeline-label').textContent()).toContain('Now');
    await slideTo((times[0] as number) + 200);
    await until(drawn, (n) => n.length === 1, 'one fact as of just after the first', 10_000);
    expect(await drawn()).toEqual([ids[0]]);
    expect(await g.testId('timeline-label').textContent()).toMatch(/As of .*: 1 fact$/);
    expect(new URL(g.page.url()).searchParams.get('asOf')).toBeTruthy();
    await slideTo((times[1] as number) + 200);
    await until(drawn, (n) => n.length === 2, 'two facts as of just after the second', 10_000);
    expect(await g.edgeIds()).toEqual([]); // the link came after the third fact
    await g.shot('time-travel-past');
  });

  it('a live fact does not enter a past view; Now brings the live graph back', async () => {
    const late = d.svc.memoryStore({ text: 'A fact stored while looking at the past' }).fact;
    await until(async () => (await g.feed()).length, (n) => n >= 1, 'the feed to show the new fact', 10_000);
    await pause(300);
    expect(await drawn()).not.toContain(late.id);
    await g.testId('timeline-now').click();
    await until(drawn, (n) => n.length === 4, 'all four facts now', 10_000);
    expect(new URL(g.page.url()).searchParams.get('asOf')).toBeNull();
    expect((await g.edgeIds()).length).toBe(1);
  });

  it('a deep link opens the past, and play walks the history up to now', async () => {
    const at = new Date((times[0] as number) + 200).toISOString();
    await g.page.goto(`${d.url}/graph/?asOf=${encodeURIComponent(at)}`);
    await g.page.waitForFunction(() => (globalThis as unknown as { __hybridGraph?: unknown }).__hybridGraph !== undefined);
    await until(drawn, (n) => n.length === 1, 'the linked time to show one fact', 10_000);
    const seen = new Set<number>();
    await g.testId('timeline-play').click();
    await until(
      async () => {
        seen.add((await drawn()).length);
        return g.testId('timeline-label').textContent();
      },
      (label) => (label ?? '').includes('Now'),
      'play to reach now',
      40_000,
    );
    await until(drawn, (n) => n.length === 4, 'all facts at the end of play', 10_000);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    await g.shot('time-travel-now');
  });
});
