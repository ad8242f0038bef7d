/**
 * A machine with no system browser runs the end-to-end tests all the same: with the system browsers
 * ruled out (HYBRID_MEM_BROWSER=bundled, the state of a fresh machine without chromium on PATH), the
 * browser comes from the npm package @sparticuz/chromium, launches with playwright-core and renders the
 * graph app from a real dashboard server, live, without console errors.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chooseBrowser, systemBrowser } from '../support/browser.js';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { ensureAppBuilt, launchBrowser, openGraph, until } from '../support/e2e.js';

let d: TestDashboard | undefined;
afterAll(async () => {
  await d?.close();
});

describe('the browser bundled in an npm package', { timeout: 90_000 }, () => {
  it('is chosen when no system browser is on PATH', async () => {
    expect(systemBrowser({ PATH: '/nonexistent-bin' })).toBeNull();
    const choice = await chooseBrowser({ PATH: '/nonexistent-bin' });
    expect(choice.source).toBe('bundled');
  });

  it('renders the graph app, live, with no console errors', async () => {
    await ensureAppBuilt();
    const { executablePath } = await chooseBrowser({ ...process.env, HYBRID_MEM_BROWSER: 'bundled' });
    const browser = await launchBrowser(executablePath);
    try {
      d = await startTestDashboard('node');
      d.svc.memoryStore({ text: 'The bundled browser draws this fact', category: 'technical' });
      const g = await openGraph(browser, d.url, { facts: 1 });
      const st = await until(() => g.stats(), (s) => s.facts === 1 && s.drawnItems >= 1, 'one fact drawn');
      expect(st.facts).toBe(1);
      expect(g.errors).toEqual([]);
      await g.close();
    } finally {
      await browser.close();
    }
  });
});
