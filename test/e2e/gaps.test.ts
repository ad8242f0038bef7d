/**
 * The gaps panel in Chromium, each gap acted on and the result read back through the MemoryService:
 * orphans are listed and open in the inspector; three conflicts (two facts on one entity where one
 * negates the other, joined by a CONTRADICTS link) are resolved with keep new, keep old and both fine;
 * a weak link (faint, idle past the window: the service runs on a clock the test moves) is cut; stale
 * facts are kept (pinned) or deleted; and with the semantic layer on, a suggested link is accepted.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactId } from '../../src/core/ids.js';
import { startClockedDashboard, type ClockedDashboard } from '../support/dashboard-clients.js';
import { attr, dataOf, ensureAppBuilt, launchBrowser, openGraph, poll, startSemanticDashboard, textOf, type E2eServer, type GraphPage } from '../support/e2e.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 9);

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

async function open(url: string, facts: number): Promise<GraphPage> {
  const g = await openGraph(browser, url, { facts });
  pages.push(g);
  await g.testId('tab-gaps').click();
  await g.testId('gaps-conflicts').waitFor({ state: 'attached' });
  return g;
}

describe('orphans, conflicts, weak links and stale facts', { timeout: 30_000 }, () => {
  let d: ClockedDashboard;
  let g: GraphPage;
  const id: Record<string, string> = {};
  const conflict: Record<string, string> = {};

  beforeAll(async () => {
    d = await startClockedDashboard('uws', {}, T0);
    const s = d.svc;
    const pair = (key: string, entity: string, yes: string, no: string): void => {
      id[`${key}Old`] = s.memoryStore({ text: yes, entity, category: 'technical' }).fact.id;
      const raised = s.memoryStore({ text: no, entity, category: 'technical' });
      expect(raised.conflicts).toHaveLength(1);
      id[`${key}New`] = raised.fact.id;
      conflict[key] = raised.conflicts[0]?.id ?? '';
    };
    pair('port', 'staging-db', 'the staging db port is 5432', 'the staging db port is not 5432');
    pair('cache', 'build-cache', 'the build cache is enabled', 'the build cache is not enabled');
    pair('deploy', 'deploy-window', 'deploys are allowed on fridays', 'deploys are not allowed on fridays');
    id.x = s.memoryStore({ text: 'Build agents run Ubuntu 24.04' }).fact.id;
    id.y = s.memoryStore({ text: 'Nightly builds start at 02:00' }).fact.id;
    id.faint = s.memoryLink({ sourceId: id.x, targetId: id.y, strength: 0.1 }).link.id;
    id.lonely = s.memoryStore({ text: 'The office plant needs water on Mondays' }).fact.id;
    id.queue = s.memoryStore({ text: 'The build queue is long right now', decayClass: 'volatile' }).fact.id;
    id.flaky = s.memoryStore({ text: 'The e2e runner is flaky today', decayClass: 'volatile' }).fact.id;
    d.clock.advance(15 * DAY);
    expect(s.weakLinks().map((l) => l.id)).toEqual([id.faint]);
    expect(s.staleFacts().map((f) => f.id).sort()).toEqual([id.queue, id.flaky].sort());
    g = await open(d.url, s.graph().nodes.length);
  }, 30_000);

  afterAll(async () => {
    await g?.close();
    await d?.close();
  });

  it('lists what the service reports, and screenshots the panel', async () => {
    const orphans = d.svc.orphans(undefined, 50).map((f) => f.id);
    expect(orphans).toEqual(expect.arrayContaining([id.lonely, id.queue, id.flaky]));
    await poll(() => dataOf(g.testId('orphan'), 'id')).toEqual(orphans);
    const open = d.svc.listConflicts(undefined, 'unresolved').map((c) => c.id).sort();
    expect(open).toEqual(Object.values(conflict).sort());
    await poll(async () => (await dataOf(g.testId('conflict'), 'id')).sort()).toEqual(open);
    await poll(() => dataOf(g.testId('weak-link'), 'id')).toEqual([id.faint]);
    await poll(async () => (await dataOf(g.testId('stale'), 'id')).sort()).toEqual([id.queue, id.flaky].sort());
    await g.shot('gaps');
  });

  it('an orphan opens in the inspector', async () => {
    await g.page.locator(`[data-testid=orphan][data-id="${id.lonely}"] a`).click();
    await g.testId('tab-inspect').click();
    await poll(() => attr(g.testId('inspector'), 'data-id')).toBe(id.lonely);
    await poll(() => textOf(g.testId('inspector-text'))).toBe('The office plant needs water on Mondays');
    await g.testId('tab-gaps').click();
    await g.testId('gaps-conflicts').waitFor({ state: 'attached' });
  });

  it('conflicts: keep new supersedes the old fact', async () => {
    await g.page.locator(`[data-testid=conflict][data-id="${conflict.port}"]`).getByTestId('resolve-keep_new').click();
    await poll(() => g.page.locator(`[data-testid=conflict][data-id="${conflict.port}"]`).count()).toBe(0);
    expect(d.svc.listConflicts(undefined, 'resolved').find((c) => c.id === conflict.port)).toMatchObject({ status: 'resolved', resolution: 'keep_new' });
    expect(d.svc.getFact(id.portOld as string)).toMatchObject({ supersededBy: id.portNew, endedReason: 'superseded' });
    expect(d.svc.getFact(id.portNew as string)).toMatchObject({ validUntil: null, supersededBy: null });
    await poll(async () => (await g.nodeIds()).includes(id.portOld as string)).toBe(false);
    expect(await g.nodeIds()).toContain(id.portNew);
  });

  it('conflicts: keep old supersedes the new fact', async () => {
    await g.page.locator(`[data-testid=conflict][data-id="${conflict.cache}"]`).getByTestId('resolve-keep_old').click();
    await poll(() => g.page.locator(`[data-testid=conflict][data-id="${conflict.cache}"]`).count()).toBe(0);
    expect(d.svc.listConflicts(undefined, 'resolved').find((c) => c.id === conflict.cache)).toMatchObject({ status: 'resolved', resolution: 'keep_old' });
    expect(d.svc.getFact(id.cacheNew as string)).toMatchObject({ supersededBy: id.cacheOld, endedReason: 'superseded' });
    expect(d.svc.getFact(id.cacheOld as string)).toMatchObject({ validUntil: null, supersededBy: null });
    await poll(async () => (await g.nodeIds()).includes(id.cacheNew as string)).toBe(false);
    expect(await g.nodeIds()).toContain(id.cacheOld);
  });

  it('conflicts: both fine keeps both facts', async () => {
    await g.page.locator(`[data-testid=conflict][data-id="${conflict.deploy}"]`).getByTestId('resolve-both_fine').click();
    await poll(() => g.testId('conflict').count()).toBe(0);
    expect(d.svc.listConflicts(undefined, 'reviewed').find((c) => c.id === conflict.deploy)).toMatchObject({ status: 'reviewed', resolution: 'both_fine' });
    expect(d.svc.listConflicts(undefined, 'unresolved')).toEqual([]);
    for (const f of [id.deployOld, id.deployNew] as string[]) expect(d.svc.getFact(f)).toMatchObject({ validUntil: null, supersededBy: null });
    await poll(() => textOf(g.testId('notice'))).toBe('Conflict resolved.');
    await poll(async () => (await g.nodeIds()).includes(id.deployNew as string)).toBe(true);
    expect(await g.nodeIds()).toContain(id.deployOld);
  });

  it('a weak link is cut', async () => {
    await g.page.locator(`[data-testid=weak-link][data-id="${id.faint}"]`).getByTestId('cut-weak').click();
    await poll(() => g.testId('weak-link').count()).toBe(0);
    expect(d.svc.listLinks().some((l) => l.id === id.faint)).toBe(false);
    expect(d.svc.weakLinks()).toEqual([]);
    expect(await g.edge(id.faint as string)).toBeNull();
  });

  it('a stale fact is kept (pinned), another deleted', async () => {
    await g.page.locator(`[data-testid=stale][data-id="${id.queue}"]`).getByTestId('stale-pin').click();
    await poll(() => g.page.locator(`[data-testid=stale][data-id="${id.queue}"]`).count()).toBe(0);
    expect(d.svc.getFact(id.queue as string).pinned).toBe(true);
    await poll(async () => (await g.node(id.queue as string))?.pinned).toBe(true);
    await g.page.locator(`[data-testid=stale][data-id="${id.flaky}"]`).getByTestId('stale-delete').click();
    await poll(() => g.testId('stale').count()).toBe(0);
    expect(d.svc.getFact(id.flaky as string)).toMatchObject({ endedReason: 'deleted' });
    expect(d.svc.getFact(id.flaky as string).deletedAt).not.toBeNull();
    expect(d.svc.staleFacts()).toEqual([]);
    await poll(async () => (await g.nodeIds()).includes(id.flaky as string)).toBe(false);
  });
});

describe('suggested links (semantic layer on)', { timeout: 30_000 }, () => {
  let s: E2eServer;
  let g: GraphPage;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    s = await startSemanticDashboard();
    id.deploy1 = s.svc.memoryStore({ text: 'The production deploy runs every Friday at 5 pm' }).fact.id;
    id.deploy2 = s.svc.memoryStore({ text: 'We deploy production on Fridays at 5 pm' }).fact.id;
    id.pizza = s.svc.memoryStore({ text: 'I like pizza with mushrooms' }).fact.id;
    await s.svc.semanticLayer?.idle();
    g = await open(s.url, 3);
  }, 60_000);

  afterAll(async () => {
    await g?.close();
    await s?.close();
  });

  it('a suggestion is listed and accepting it links the two facts', async () => {
    const suggested = await s.svc.suggestLinks();
    const key = (a: string, b: string): string => [a, b].sort().join(' ');
    expect(suggested.map((p) => key(p.sourceId, p.targetId))).toContain(key(id.deploy1 as string, id.deploy2 as string));
    const item = g.testId('suggestion').filter({ hasText: 'production deploy runs every Friday' });
    await item.waitFor();
    expect(await g.testId('suggestion').count()).toBe(suggested.length);
    await g.shot('gaps-suggested');
    await item.getByTestId('accept-suggestion').click();
    await poll(() => item.count()).toBe(0);
    const link = s.svc.listLinks(undefined, { factId: id.deploy1 as FactId }).find((l) => key(l.sourceId, l.targetId) === key(id.deploy1 as string, id.deploy2 as string));
    expect(link).toBeDefined();
    await poll(async () => (await g.edge(link?.id ?? '')) !== null).toBe(true);
    expect((await s.svc.suggestLinks()).map((p) => key(p.sourceId, p.targetId))).not.toContain(key(id.deploy1 as string, id.deploy2 as string));
  });
});
