/**
 * The graph app in Chromium against a real server and SQLite file: the graph draws the stored facts and
 * links, clicking a node opens the inspector with every field, its versions and links, and each user
 * action (add, edit, pin and unpin, bond, change a link's type, cut it, delete, expand neighbours,
 * filters, search) changes the view and reaches the database (read back through the MemoryService).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactId } from '../../src/core/ids.js';
import type { Fact } from '../../src/core/types.js';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { attr, dataOf, ensureAppBuilt, launchBrowser, openGraph, poll, textOf, valueOf, type GraphPage } from '../support/e2e.js';

let browser: Browser;
let d: TestDashboard;
let g: GraphPage;
const id: Record<string, string> = {};
const linkId: Record<string, string> = {};

const fact = (fid: string): Fact => d.svc.getFact(fid);
const linksOf = (fid: string) => d.svc.listLinks(undefined, { factId: fid as FactId });

beforeAll(async () => {
  await ensureAppBuilt();
  [browser, d] = await Promise.all([launchBrowser(), startTestDashboard('uws')]);
  const s = d.svc;
  const a0 = s.memoryStore({ text: 'The kangaroo cluster runs on k3s', category: 'technical', entity: 'kangaroo', tags: ['infra', 'k8s'], importance: 0.9, confidence: 0.95 }).fact;
  id.a = s.editFact({ id: a0.id, text: 'The kangaroo cluster runs on k8s' }).id;
  id.a0 = a0.id;
  id.b = s.memoryStore({ text: 'The wombat service owns billing', importance: 0.7 }).fact.id;
  id.c = s.memoryStore({ text: 'The koala job exports invoices' }).fact.id;
  id.d = s.memoryStore({ text: 'Billing invoices are archived to cold storage', importance: 0.1, confidence: 0.5 }).fact.id;
  id.e = s.memoryStore({ text: 'Team lunch is on Thursdays', category: 'preference' }).fact.id;
  linkId.ab = s.memoryLink({ sourceId: id.a, targetId: id.b }).link.id;
  linkId.bc = s.memoryLink({ sourceId: id.b, targetId: id.c, linkType: 'PART_OF', strength: 0.8 }).link.id;
}, 60_000);

afterAll(async () => {
  expect(g?.errors ?? []).toEqual([]);
  await g?.close();
  await browser?.close();
  await d?.close();
});

describe('graph and inspector', { timeout: 30_000 }, () => {
  it('draws every current fact and link from the database', async () => {
    const graph = d.svc.graph();
    expect(graph.nodes).toHaveLength(5);
    g = await openGraph(browser, d.url, { facts: graph.nodes.length });
    const st = await g.stats();
    expect(st).toMatchObject({ facts: 5, edges: graph.edges.length, drawnItems: 5, mode: 'facts', clusters: 0 });
    expect((await g.nodeIds()).sort()).toEqual(graph.nodes.map((n) => n.fact.id).sort());
    expect((await g.edgeIds()).sort()).toEqual(graph.edges.map((e) => e.id).sort());
    await poll(() => textOf(g.testId('total-facts'))).toBe('5 facts');
    await poll(() => g.testId('view-mode').count()).toBe(0);
    await g.settle();
    for (const fid of await g.nodeIds()) expect(await g.screenPosition(fid)).not.toBeNull();
    await g.shot('graph');
  });

  it('clicking a node opens the inspector with its fields, versions and links', async () => {
    await g.testId('inspector-empty').waitFor();
    await g.clickFact(id.a as string);
    const f = fact(id.a as string);
    const ins = g.testId('inspector');
    await poll(() => textOf(g.testId('inspector-text'))).toBe(f.text);
    await poll(() => textOf(g.testId('inspector-category'))).toBe('technical');
    const node = d.svc.graph().nodes.find((n) => n.fact.id === f.id);
    await poll(() => textOf(g.testId('inspector-strength'))).toBe((node?.strength ?? -1).toFixed(3));
    await poll(() => textOf(g.testId('inspector-pinned'))).toBe('no');
    for (const text of [f.id, 'kangaroo', 'infra, k8s', '0.9 / 0.95', 'stable', 'global', '0 times']) await poll(() => textOf(ins)).toContain(text);
    // Versions: every version of the lineage, as the database holds them.
    const history = d.svc.history(f.id);
    expect(history.map((v) => v.version)).toEqual([1, 2]);
    await poll(() => g.testId('inspector-version').count()).toBe(history.length);
    for (const [i, v] of history.entries()) await poll(() => textOf(g.testId('inspector-version').nth(i))).toContain(`v${v.version}`);
    await poll(() => textOf(g.testId('inspector-version').nth(0))).toContain('k3s');
    // Links: as the service lists them for the fact (the A-B link among them).
    const links = linksOf(f.id);
    expect(links.map((l) => l.id)).toContain(linkId.ab);
    await poll(() => g.testId('inspector-link').count()).toBe(links.length);
    await poll(() => textOf(g.page.locator(`[data-testid=inspector-link][data-id="${linkId.ab}"]`))).toContain(id.b as string);
    await poll(() => valueOf(g.page.locator(`[data-testid=inspector-link][data-id="${linkId.ab}"] [data-testid=link-type-select]`))).toBe('RELATED_TO');
    await g.shot('inspector');
  });
});

describe('curation actions reach the database', { timeout: 30_000 }, () => {
  it('adds a fact', async () => {
    await g.testId('add-text').fill('The platypus relay listens on 7070');
    await g.testId('add-category').selectOption('technical');
    await g.testId('add-entity').fill('platypus');
    await g.testId('add-submit').click();
    await poll(() => textOf(g.testId('notice'))).toBe('Fact added.');
    const stored = d.svc.listFacts().find((f) => f.text === 'The platypus relay listens on 7070');
    expect(stored).toMatchObject({ category: 'technical', entity: 'platypus', source: 'graphql' });
    id.p = stored?.id ?? '';
    await poll(async () => (await g.node(id.p as string))?.label).toBe('The platypus relay listens on 7070');
    await poll(() => valueOf(g.testId('add-text'))).toBe('');
  });

  it('edits a fact: a new version, the old one superseded', async () => {
    await g.clickFact(id.b as string);
    await g.testId('edit-text').fill('The wombat service owns billing and refunds');
    await g.testId('edit-save').click();
    await poll(() => textOf(g.testId('notice'))).toBe('Saved as a new version.');
    const old = fact(id.b as string);
    expect(old.supersededBy).not.toBeNull();
    const next = fact(old.supersededBy as string);
    expect(next).toMatchObject({ text: 'The wombat service owns billing and refunds', version: 2, supersedes: id.b, supersededBy: null });
    id.b2 = next.id;
    await poll(() => attr(g.testId('inspector'), 'data-id')).toBe(next.id);
    await poll(() => textOf(g.testId('inspector-text'))).toBe(next.text);
    await poll(() => g.testId('inspector-version').count()).toBe(2);
    await poll(async () => (await g.nodeIds()).includes(id.b as string)).toBe(false);
    expect(await g.node(next.id)).toMatchObject({ superseded: false });
  });

  it('pins and unpins', async () => {
    const target = id.b2 as string;
    await g.testId('pin-toggle').click();
    await poll(() => textOf(g.testId('inspector-pinned'))).toBe('yes');
    expect(fact(target).pinned).toBe(true);
    await poll(async () => (await g.node(target))?.pinned).toBe(true);
    await g.testId('pin-toggle').click();
    await poll(() => textOf(g.testId('inspector-pinned'))).toBe('no');
    expect(fact(target).pinned).toBe(false);
    await poll(async () => (await g.node(target))?.pinned).toBe(false);
  });

  it('bonds two facts with a chosen link type', async () => {
    await g.settle();
    await g.clickFact(id.c as string);
    await g.testId('link-start').click();
    await poll(() => textOf(g.testId('link-target-label'))).toContain('Click the other fact');
    await g.clickFact(id.d as string, async () => ((await g.testId('link-target-label').textContent()) ?? '').includes(id.d as string));
    await poll(() => attr(g.testId('inspector'), 'data-id')).toBe(id.c as string);
    await g.testId('link-type').selectOption('DEPENDS_ON');
    await g.testId('link-confirm').click();
    await poll(() => textOf(g.testId('notice'))).toBe('Linked (DEPENDS_ON).');
    const link = linksOf(id.c as string).find((l) => l.targetId === id.d);
    expect(link).toMatchObject({ sourceId: id.c, targetId: id.d, linkType: 'DEPENDS_ON' });
    linkId.cd = link?.id ?? '';
    await poll(async () => (await g.edge(linkId.cd as string))?.linkType).toBe('DEPENDS_ON');
    await g.page.locator(`[data-testid=inspector-link][data-id="${linkId.cd}"]`).waitFor();
  });

  it("changes a link's type", async () => {
    const row = g.page.locator(`[data-testid=inspector-link][data-id="${linkId.cd}"]`);
    await row.getByTestId('link-type-select').selectOption('CAUSED_BY');
    await poll(() => linksOf(id.c as string).find((l) => l.id === linkId.cd)?.linkType).toBe('CAUSED_BY');
    await poll(async () => (await g.edge(linkId.cd as string))?.linkType).toBe('CAUSED_BY');
    await poll(() => valueOf(row.getByTestId('link-type-select'))).toBe('CAUSED_BY');
  });

  it('cuts a link', async () => {
    const before = (await g.stats()).edges;
    await g.page.locator(`[data-testid=inspector-link][data-id="${linkId.cd}"]`).getByTestId('link-cut').click();
    await poll(() => g.page.locator(`[data-testid=inspector-link][data-id="${linkId.cd}"]`).count()).toBe(0);
    expect(linksOf(id.c as string).some((l) => l.id === linkId.cd)).toBe(false);
    expect(await g.edge(linkId.cd as string)).toBeNull();
    expect((await g.stats()).edges).toBe(before - 1);
  });

  it('deletes a fact (after the confirmation dialog)', async () => {
    await g.clickFact(id.e as string);
    g.page.once('dialog', (dialog) => void dialog.accept());
    await g.testId('delete-fact').click();
    await poll(() => textOf(g.testId('notice'))).toBe('Fact deleted.');
    await g.testId('inspector-empty').waitFor();
    const gone = fact(id.e as string);
    expect(gone.deletedAt).not.toBeNull();
    expect(gone.endedReason).toBe('deleted');
    expect(await g.nodeIds()).not.toContain(id.e);
  });
});

describe('filters, neighbours and search', { timeout: 30_000 }, () => {
  it('a category filter draws only that category; expanding a fact loads its neighbours', async () => {
    await g.testId('filter-category-technical').check();
    const technical = d.svc.graph({ categories: ['technical'] }).nodes.map((n) => n.fact.id).sort();
    expect(technical).toEqual([id.a, id.p].sort());
    await poll(async () => (await g.nodeIds()).sort()).toEqual(technical);
    await g.settle();
    await g.clickFact(id.a as string);
    await g.testId('expand-neighbors').click();
    const around = d.svc.neighbors(id.a as string);
    expect(around.nodes.map((n) => n.fact.id)).toContain(id.b2);
    await poll(async () => (await g.nodeIds()).sort()).toEqual([...new Set([...technical, ...around.nodes.map((n) => n.fact.id)])].sort());
    for (const e of around.edges) expect(await g.edge(e.id)).not.toBeNull();
    await g.testId('filter-category-technical').uncheck();
    await poll(async () => (await g.stats()).facts).toBe(d.svc.graph().nodes.length);
  });

  it('the minimum strength filter leaves out weaker facts', async () => {
    const all = d.svc.graph().nodes;
    const strong = all.filter((n) => n.strength >= 0.5).map((n) => n.fact.id).sort();
    expect(strong.length).toBeGreaterThan(0);
    expect(strong.length).toBeLessThan(all.length);
    await g.testId('filter-min-strength').fill('0.5');
    await g.page.getByText('minimum strength 0.50').waitFor();
    await poll(async () => (await g.nodeIds()).sort()).toEqual(strong);
    expect(d.svc.graph({ minStrength: 0.5 }).nodes.map((n) => n.fact.id).sort()).toEqual(strong);
    await g.testId('filter-min-strength').fill('0');
    await poll(async () => (await g.stats()).facts).toBe(all.length);
  });

  it('show superseded draws old versions too', async () => {
    const withOld = d.svc.graph({ includeSuperseded: true }).nodes;
    expect(withOld.map((n) => n.fact.id)).toEqual(expect.arrayContaining([id.a0, id.b]));
    await g.testId('filter-superseded').check();
    await poll(async () => (await g.stats()).facts).toBe(withOld.length);
    expect(await g.node(id.b as string)).toMatchObject({ superseded: true });
    expect(await g.node(id.a0 as string)).toMatchObject({ superseded: true });
    await g.testId('filter-superseded').uncheck();
    await poll(async () => (await g.stats()).facts).toBe(d.svc.graph().nodes.length);
    expect(await g.nodeIds()).not.toContain(id.b);
  });

  it('search highlights local matches on the canvas and lists the server hits', async () => {
    await g.settle();
    const grey = async (fid: string): Promise<number> => g.countPixels((await g.screenPosition(fid)) ?? { x: -1, y: -1 }, 2, 'dim');
    const yellow = async (fid: string): Promise<number> => g.countPixels((await g.screenPosition(fid)) ?? { x: -1, y: -1 }, 18, 'highlight');
    // (Strong facts sit near the centre, on the canvas; -1 would mean off the canvas.)
    for (const fid of [id.a, id.b2, id.c] as string[]) expect(await grey(fid)).toBe(0);
    expect(await yellow(id.c as string)).toBe(0);
    await g.testId('search-input').fill('invoices');
    // Local matches (label or entity) keep their colour and get a yellow outline; the rest turn grey.
    await poll(() => grey(id.a as string)).toBeGreaterThan(0);
    expect(await grey(id.b2 as string)).toBeGreaterThan(0);
    expect(await grey(id.c as string)).toBe(0);
    expect(await yellow(id.c as string)).toBeGreaterThan(0);
    expect(await yellow(id.a as string)).toBe(0);
    // Server hits: what the service's search answers.
    const server = (await d.svc.search({ query: 'invoices', limit: 20 })).results.map((h) => h.fact.id);
    expect(server.sort()).toEqual([id.c, id.d].sort());
    await poll(async () => (await dataOf(g.testId('search-hit'), 'id')).sort()).toEqual(server.sort());
    await g.shot('search');
  });

  it('search hits come from the whole store: a hit outside the drawn graph is loaded and inspected on click', async () => {
    await g.testId('search-input').fill('');
    await g.testId('filter-category-technical').check();
    await poll(async () => (await g.nodeIds()).sort()).toEqual([id.a, id.p].sort());
    await g.testId('search-input').fill('archived');
    const hit = g.page.locator(`[data-testid=search-hit][data-id="${id.d}"]`);
    await hit.waitFor();
    expect(await g.nodeIds()).not.toContain(id.d);
    await hit.getByRole('link').click();
    await poll(() => attr(g.testId('inspector'), 'data-id')).toBe(id.d as string);
    await poll(async () => (await g.nodeIds()).includes(id.d as string)).toBe(true);
    await g.testId('search-input').fill('');
    await g.testId('filter-category-technical').uncheck();
  });
});
