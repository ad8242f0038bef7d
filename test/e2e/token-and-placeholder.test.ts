/**
 * The dashboard token in Chromium: with `dashboard.token` set, the first change opens the token dialog;
 * a wrong token is reported plainly and can be entered again; the right one completes the pending change
 * and is kept in local storage, so later changes (also after a reload) need no prompt. And without a
 * built app, /graph serves the placeholder page that says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { attr, ensureAppBuilt, launchBrowser, openGraph, poll, textOf, TOKEN_KEY, VIEWPORT, type GraphPage } from '../support/e2e.js';

const TOKEN = 'e2e-dashboard-token-7f3a9c';

let browser: Browser;

beforeAll(async () => {
  await ensureAppBuilt();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('token flow', { timeout: 30_000 }, () => {
  let d: TestDashboard;
  let g: GraphPage;
  let seeded: string;

  beforeAll(async () => {
    d = await startTestDashboard('uws', { dashboard: { token: TOKEN } });
    seeded = d.svc.memoryStore({ text: 'The kangaroo cluster runs on k8s', importance: 0.9 }).fact.id;
  });

  afterAll(async () => {
    expect(g?.errors ?? []).toEqual([]);
    await g?.close();
    await d?.close();
  });

  const stored = (text: string): boolean => d.svc.listFacts().some((f) => f.text === text);

  it('the first change asks for the token; a wrong one is refused plainly; the right one completes the change', async () => {
    g = await openGraph(browser, d.url, { facts: 1 });
    expect(await g.localStorageItem(TOKEN_KEY)).toBeNull();
    await g.testId('add-text').fill('The wombat service owns billing');
    await g.testId('add-submit').click();
    await g.testId('token-dialog').waitFor();
    expect(await textOf(g.testId('token-message'))).toBe('This dashboard needs its token to make changes.');
    expect(stored('The wombat service owns billing')).toBe(false);
    await g.shot('token-dialog');

    await g.testId('token-input').fill('not-the-right-token');
    await g.testId('token-submit').click();
    await poll(() => textOf(g.testId('token-message'))).toContain('not accepted');
    await g.testId('token-dialog').waitFor();
    expect(await g.localStorageItem(TOKEN_KEY)).toBeNull();
    expect(stored('The wombat service owns billing')).toBe(false);
    await g.shot('token-dialog-refused');

    await g.testId('token-input').fill(TOKEN);
    await g.testId('token-submit').click();
    await poll(() => g.testId('token-dialog').count()).toBe(0);
    await poll(() => stored('The wombat service owns billing')).toBe(true);
    await poll(() => textOf(g.testId('notice'))).toBe('Fact added.');
    expect(await g.localStorageItem(TOKEN_KEY)).toBe(TOKEN);
    const f = d.svc.listFacts().find((x) => x.text === 'The wombat service owns billing');
    await poll(async () => (await g.node(f?.id ?? '')) !== null).toBe(true);
  });

  it('the kept token serves the next change without a prompt, also after a reload', async () => {
    await g.settle();
    await g.clickFact(seeded);
    await g.testId('pin-toggle').click();
    await poll(() => textOf(g.testId('inspector-pinned'))).toBe('yes');
    expect(await g.testId('token-dialog').count()).toBe(0);
    expect(d.svc.getFact(seeded).pinned).toBe(true);

    await g.page.reload();
    await poll(() => attr(g.testId('live-indicator'), 'data-status')).toBe('live');
    await poll(async () => (await g.stats()).facts).toBe(2);
    await g.settle();
    await g.clickFact(seeded);
    await g.testId('pin-toggle').click();
    await poll(() => textOf(g.testId('inspector-pinned'))).toBe('no');
    expect(await g.testId('token-dialog').count()).toBe(0);
    expect(d.svc.getFact(seeded).pinned).toBe(false);
  });
});

describe('placeholder when the app is not built', { timeout: 30_000 }, () => {
  let d: TestDashboard;
  let empty: string;

  beforeAll(async () => {
    empty = mkdtempSync(join(tmpdir(), 'hybrid-mem-no-app-'));
    d = await startTestDashboard('uws', {}, { appDir: empty });
  });

  afterAll(async () => {
    await d?.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('/graph says the graph app is not built', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      for (const path of ['/graph', '/graph/', '/graph/some/route']) {
        const res = await page.goto(`${d.url}${path}`);
        expect(res?.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe('The graph app is not built');
        expect(await page.title()).toBe('hybrid-mem: graph app not built');
        expect(await page.locator('body').textContent()).toContain('npm run build');
      }
      expect(await page.getByTestId('graph-canvas').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
