/**
 * The clustered level of detail in Chromium: with 2000+ facts the view draws groups (connected components
 * by category, unlinked facts by category), says so in the header, and clicking a group on the canvas
 * expands it into its facts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreInput } from '../../src/memory/inputs.js';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { ensureAppBuilt, launchBrowser, openGraph, poll, textOf, until, type GraphPage } from '../support/e2e.js';

const CATEGORIES = ['fact', 'technical', 'preference', 'entity'] as const;
const SOLO = 2000;
const CHAINS = 20;
const CHAIN = 6;

let browser: Browser;
let d: TestDashboard;
let g: GraphPage;
/** The facts of each linked chain (one component, one category each). */
const chains: string[][] = [];

beforeAll(async () => {
  await ensureAppBuilt();
  [browser, d] = await Promise.all([launchBrowser(), startTestDashboard('uws')]);
  const inputs: StoreInput[] = Array.from({ length: SOLO }, (_, i) => ({
    text: `Unlinked note ${i}: service ${i % 97} uses port ${3000 + i}`,
    category: CATEGORIES[i % CATEGORIES.length],
    importance: 0.2 + (i % 7) / 10,
  }));
  for (let k = 0; k < inputs.length; k += 500) d.svc.memoryStoreMany(inputs.slice(k, k + 500));
  for (let c = 0; c < CHAINS; c++) {
    const ids = d.svc.memoryStoreMany(Array.from({ length: CHAIN }, (_, i) => ({ text: `Chain ${c} step ${i} hands over to step ${i + 1}`, category: 'technical' as const, importance: 0.6 }))).map((r) => r.fact.id);
    for (let i = 1; i < ids.length; i++) d.svc.memoryLink({ sourceId: ids[i - 1] as string, targetId: ids[i] as string, linkType: 'DEPENDS_ON' });
    chains.push(ids);
  }
}, 60_000);

afterAll(async () => {
  expect(g?.errors ?? []).toEqual([]);
  await g?.close();
  await browser?.close();
  await d?.close();
});

describe('clustered view', { timeout: 45_000 }, () => {
  it('2000+ facts draw as groups, and the header says so', async () => {
    const total = SOLO + CHAINS * CHAIN;
    expect(d.svc.stats().totalFacts).toBe(total);
    g = await openGraph(browser, d.url, { facts: total });
    const st = await until(() => g.stats(), (s) => s.mode === 'clusters' && s.drawnItems > 0, 'the clustered mode');
    // One group per unlinked category and one per chain (each chain is one component of one category).
    expect(st).toMatchObject({ facts: total, edges: CHAINS * (CHAIN - 1), mode: 'clusters', clusters: CATEGORIES.length + CHAINS, drawnItems: CATEGORIES.length + CHAINS });
    await poll(() => textOf(g.testId('view-mode'))).toContain(`${st.drawnItems} groups and facts drawn for ${total} facts`);
    await g.page.waitForTimeout(1500);
    await g.shot('clusters');
  });

  it('clicking a group expands it into its facts', async () => {
    const before = await g.stats();
    const chain = chains[0] as string[];
    // Every fact of a collapsed group is drawn at the group's position (read in one go: the layout moves).
    const all = await g.positions();
    const at = all[chain[0] as string];
    expect(at).not.toBeNull();
    for (const fid of chain) expect(all[fid]).toEqual(at);
    for (let attempt = 0; attempt < 5 && (await g.stats()).drawnItems === before.drawnItems; attempt++) {
      const p = await g.screenPosition(chain[0] as string);
      if (p) await g.page.mouse.click(p.x, p.y);
      await g.page.waitForTimeout(300);
    }
    const after = await until(() => g.stats(), (s) => s.drawnItems !== before.drawnItems, 'the group to expand');
    expect(after).toMatchObject({ mode: 'clusters', drawnItems: before.drawnItems + CHAIN - 1, clusters: before.clusters - 1 });
    // Still the clustered view, and the header follows the view's rebuild (the view reports every scene).
    await poll(() => textOf(g.testId('view-mode'))).toContain(`Clustered view: ${after.drawnItems} groups and facts drawn`);
    // Its facts are drawn one by one now, each at its own place.
    await g.page.waitForTimeout(500);
    const spots = await Promise.all(chain.map((fid) => g.screenPosition(fid)));
    expect(new Set(spots.map((p) => `${Math.round(p?.x ?? -1)},${Math.round(p?.y ?? -1)}`)).size).toBe(CHAIN);
    await g.shot('clusters-expanded');
  });
});
