/**
 * The semantic map (issue 21, item 5) in Chromium: with no links at all, "Meaning" places facts so that
 * each one's nearest neighbour on screen is on its topic; "Links" goes back to the link layout. The
 * service embeds with the shipped model; the map comes from GraphQL `semanticMap` on the read worker.
 * Screenshot: test/e2e/artifacts/semantic-map.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../src/http/server.js';
import { openMemory } from '../../src/main.js';
import type { MemoryService } from '../../src/memory/service.js';
import { tempHome, type TestHome } from '../helpers.js';
import { closeGraph, ensureAppBuilt, type GraphPage, launchBrowser, openGraph, until } from '../support/e2e.js';

const TOPICS: Record<string, string[]> = {
  kitchen: ['I bake sourdough bread every Sunday morning', 'My favourite pasta sauce uses fresh basil and garlic', 'The oven needs to preheat to 220 degrees for pizza', 'We cook a big curry for the family on Fridays', 'Chocolate cake is best with dark cocoa and butter'],
  network: ['The router forwards port 443 to the reverse proxy', 'DNS for the office resolves through Pi-hole on 10.0.0.2', 'The VPN tunnel to the datacenter uses WireGuard', 'The firewall blocks inbound SSH except from the bastion', 'Our switch has VLAN 20 for cameras and VLAN 30 for guests'],
  pets: ['Our dog Bruno needs a walk twice a day', 'The cat sleeps on the windowsill all afternoon', 'The vet appointment for the puppy is next Tuesday', 'Bruno loves chasing tennis balls in the park', 'We feed the cat wet food in the evening'],
};

describe('semantic map', { timeout: 90_000 }, () => {
  let home: TestHome;
  let svc: MemoryService;
  let server: Dashboard;
  let browser: Browser;
  let g: GraphPage;
  const topicOf = new Map<string, string>();

  beforeAll(async () => {
    await ensureAppBuilt();
    home = tempHome();
    svc = await openMemory({ config: home.config, env: home.env, semantic: true });
    for (const [topic, texts] of Object.entries(TOPICS)) for (const text of texts) topicOf.set(svc.memoryStore({ text }).fact.id, topic);
    await svc.semanticLayer?.idle();
    [browser, server] = await Promise.all([launchBrowser(), startDashboard({ svc, config: home.config, port: 0, server: 'uws', record: false })]);
    g = await openGraph(browser, server.url, { facts: 15 });
  });

  afterAll(async () => {
    await closeGraph(g, browser, server, svc);
    home?.cleanup();
  });

  /** The share of facts whose nearest fact on screen is on the same topic. */
  const agreement = async (): Promise<number> => {
    const pos = Object.entries(await g.positions()).filter((e): e is [string, { x: number; y: number }] => e[1] !== null);
    let same = 0;
    for (const [id, p] of pos) {
      let best: [string, number] | null = null;
      for (const [other, q] of pos) {
        if (other === id) continue;
        const d = (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
        if (!best || d < best[1]) best = [other, d];
      }
      if (best && topicOf.get(best[0]) === topicOf.get(id)) same++;
    }
    return same / Math.max(1, pos.length);
  };

  it('Meaning puts related facts together, with no links at all', async () => {
    expect(await g.edgeIds()).toEqual([]);
    await g.testId('layout-meaning').click();
    await until(() => g.testId('layout-meaning').getAttribute('aria-pressed'), (v) => v === 'true', 'the Meaning button to be pressed');
    await until(agreement, (a) => a >= 0.8, 'facts on one topic to sit together', 20_000);
    await g.settle();
    expect(await agreement()).toBeGreaterThanOrEqual(0.8);
    expect(await g.testId('map-note').count()).toBe(0);
    await g.shot('semantic-map');
  });

  it('Links goes back to the link layout', async () => {
    await g.testId('layout-links').click();
    await until(() => g.testId('layout-links').getAttribute('aria-pressed'), (v) => v === 'true', 'the Links button to be pressed');
    await g.settle();
    expect((await g.stats()).facts).toBe(15);
  });
});
