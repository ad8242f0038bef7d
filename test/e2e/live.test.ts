/**
 * Live updates in Chromium: the feed opens with the stored recall history; a fact stored by another client
 * (the service in this process, and the CLI in another process) appears as a node and a feed line; a
 * recall shows a RECALL feed line and an expanding ring on the recalled fact (read from the canvas
 * pixels). Recovery: the server stops and a new one starts on the same port; the live indicator goes
 * reconnecting and then live again, a fact stored meanwhile appears, and settled nodes keep their places.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../src/http/server.js';
import { MemoryService } from '../../src/memory/service.js';
import { RelevantRecallHook } from '../../src/recall/relevant.js';
import { tempHome, type TestHome } from '../helpers.js';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { attr, cli, ensureAppBuilt, launchBrowser, openGraph, poll, type GraphPage, type Point } from '../support/e2e.js';

let browser: Browser;
const pages: GraphPage[] = [];

beforeAll(async () => {
  await ensureAppBuilt();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  for (const p of pages) expect(p.errors).toEqual([]);
  await browser?.close();
});

/** Feed lines of one kind whose text contains `text`. */
async function feedHas(g: GraphPage, kind: string, text: string): Promise<boolean> {
  return (await g.feed()).some((l) => l.kind === kind && l.text.includes(text));
}

describe('live activity', { timeout: 30_000 }, () => {
  let d: TestDashboard;
  let g: GraphPage;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    d = await startTestDashboard('uws');
    id.kangaroo = d.svc.memoryStore({ text: 'The kangaroo cluster runs on k8s', importance: 0.9 }).fact.id;
    id.wombat = d.svc.memoryStore({ text: 'The wombat service owns billing', importance: 0.8 }).fact.id;
    d.svc.memoryLink({ sourceId: id.kangaroo, targetId: id.wombat });
    // A recall before the page opens: the feed starts from the stored history.
    await d.svc.memoryRecall({ query: 'wombat billing' });
  });

  afterAll(async () => {
    await g?.close();
    await d?.close();
  });

  it('on open, the feed holds the recent history from the event log: stored, linked, recalled', async () => {
    expect(d.svc.recallHistory().map((h) => h.query)).toEqual(['wombat billing']);
    g = await openGraph(browser, d.url, { facts: 2 });
    pages.push(g);
    const lines = await g.feed();
    expect(lines.map((l) => l.kind).sort()).toEqual(['FACT_STORED', 'FACT_STORED', 'LINK_CREATED', 'RECALL']);
    const text = lines.map((l) => l.text).join('\n');
    expect(text).toContain('stored "The kangaroo cluster runs on k8s"');
    expect(text).toContain('stored "The wombat service owns billing"');
    expect(text).toMatch(/created link RELATED_TO "The kangaroo cluster runs on k8s" → "The wombat service owns billing"/);
    expect(text).toMatch(/recall "wombat billing": The wombat service owns billing \d\.\d\d/);
  });

  it('a fact stored by another client in this process appears as a node and a feed line', async () => {
    const f = d.svc.memoryStore({ text: 'The koala job exports invoices nightly' }).fact;
    await poll(async () => (await g.node(f.id))?.label).toBe('The koala job exports invoices nightly');
    await poll(() => feedHas(g, 'FACT_STORED', 'stored "The koala job exports invoices nightly"')).toBe(true);
    await poll(async () => (await g.stats()).facts).toBe(3);
  });

  it('a fact stored by the CLI in another process appears as a node and a feed line', async () => {
    const r = await cli(d.home, ['store', 'The platypus relay listens on 7070', '--category', 'technical']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const fid = r.stdout.split('\n')[0] ?? '';
    expect(d.svc.getFact(fid)).toMatchObject({ text: 'The platypus relay listens on 7070', category: 'technical', source: 'cli' });
    await poll(async () => (await g.node(fid))?.category, 10_000).toBe('technical');
    await poll(() => feedHas(g, 'FACT_STORED', 'The platypus relay listens on 7070')).toBe(true);
  });

  it('a recall shows a RECALL feed line and a ring on the recalled fact', async () => {
    await g.settle();
    const at = (await g.screenPosition(id.kangaroo as string)) as Point;
    expect(at).not.toBeNull();
    expect(await g.countPixels(at, 50, 'ring')).toBe(0);
    const ring = g.countPixels(at, 50, 'ring', 3000, 40);
    const recall = await d.svc.memoryRecall({ query: 'kangaroo' });
    expect(recall.results.map((h) => h.fact.id)).toEqual([id.kangaroo]);
    const score = (recall.results[0]?.score ?? 0).toFixed(2);
    await poll(() => feedHas(g, 'RECALL', `recall "kangaroo": The kangaroo cluster runs on k8s ${score}`)).toBe(true);
    expect(await ring).toBeGreaterThanOrEqual(40);
    // The ring fades: once it is gone the canvas there has no orange again.
    await poll(() => g.countPixels(at, 50, 'ring'), 4000).toBe(0);
    expect(d.svc.recallHistory().map((h) => h.query)).toEqual(['kangaroo', 'wombat billing']);
  });

  it("a turn's auto-capture and the next turn's relevant memories show as their own feed lines", async () => {
    const agent = { role: 'specialist' as const, agentId: 'main', sessionId: 'turn-1' };
    const { decisions } = await d.svc.capture([{ role: 'user', content: 'from now on we deploy the numbat service with Argo CD' }], agent);
    expect(decisions.map((x) => x.action)).toEqual(['stored']);
    await poll(() => feedHas(g, 'FACT_STORED', 'captured from a turn "From now on we deploy the numbat service with Argo CD"')).toBe(true);
    const hook = new RelevantRecallHook(d.svc, d.home.config);
    const next = await hook.evaluate({ prompt: 'how do we deploy the numbat service?', messages: [], agentId: 'main', sessionId: 'turn-2', role: 'specialist' });
    expect(next.factIds).toEqual([decisions[0]?.fact?.id]);
    await poll(() => feedHas(g, 'RECALL', 'memories for a turn "how do we deploy the numbat service?": From now on we deploy the numbat service with Argo CD')).toBe(true);
  });
});

describe('recovery: server restarted on the same port', { timeout: 45_000 }, () => {
  let home: TestHome;
  let svc: MemoryService;
  let server: Dashboard | null = null;
  let g: GraphPage;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    home = tempHome({ embedding: { enabled: false } });
    svc = MemoryService.open({ config: home.config, env: home.env, pollMs: 50 });
    const texts = ['The build farm has 12 agents', 'Builds publish to the artifact store', 'The artifact store keeps 30 days', 'Release notes are drafted on Mondays', 'The release train leaves every two weeks'];
    const ids = texts.map((text, i) => svc.memoryStore({ text, importance: 0.5 + i * 0.1 }).fact.id);
    for (let i = 1; i < ids.length; i++) svc.memoryLink({ sourceId: ids[i - 1] as string, targetId: ids[i] as string });
    ids.forEach((fid, i) => (id[`f${i}`] = fid));
    // The node adapter: it can bind a port again at once (uWebSockets.js may not, see dashboard-live.test.ts).
    server = await startDashboard({ svc, config: home.config, port: 0, server: 'node', record: false });
  });

  afterAll(async () => {
    await g?.close();
    await server?.close();
    await svc?.close();
    home?.cleanup();
  });

  it('reconnects, shows what was stored while down, and keeps settled positions', async () => {
    const first = server as Dashboard;
    g = await openGraph(browser, first.url, { facts: 5 });
    pages.push(g);
    await g.settle();
    const before = await g.positions();
    await g.shot('live-before-restart');

    await first.close();
    server = null;
    await poll(() => attr(g.testId('live-indicator'), 'data-status')).toBe('reconnecting');
    const whileDown = svc.memoryStore({ text: 'Stored while the dashboard was down', importance: 0.6 }).fact;
    // Still reconnecting after a moment: nothing answers on the port.
    await new Promise((r) => setTimeout(r, 400));
    expect(await attr(g.testId('live-indicator'), 'data-status')).toBe('reconnecting');

    server = await startDashboard({ svc, config: home.config, port: first.port, server: 'node', record: false });
    expect(server.port).toBe(first.port);
    await poll(() => attr(g.testId('live-indicator'), 'data-status'), 15_000).toBe('live');
    await poll(async () => (await g.node(whileDown.id))?.label).toBe('Stored while the dashboard was down');
    await poll(async () => (await g.feed()).some((l) => l.kind === 'FACT_STORED' && l.text.includes('Stored while the dashboard was down'))).toBe(true);
    expect((await g.stats()).facts).toBe(svc.graph().nodes.length);

    await g.settle();
    const after = await g.positions();
    const moved = Object.entries(before).map(([fid, p]) => {
      const q = after[fid];
      return p && q ? Math.hypot(p.x - q.x, p.y - q.y) : Infinity;
    });
    expect(moved).toHaveLength(5);
    for (const m of moved) expect(m).toBeLessThan(15);
    await g.shot('live-after-restart');
  });
});
