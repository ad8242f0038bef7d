/**
 * Why was this recalled? (issue 21, item 4) in Chromium: a recall's line in the feed, clicked, opens a
 * panel with the query and, for every fact the recall returned, its full-text rank, vector rank,
 * similarity and fused score (the `why` the service recorded); the panel closes again. A credential
 * hint's panel shows the part of the turn that showed the failure, with its secrets redacted. A dialogue
 * turn recalled for the match of the question it answers is marked as a reply.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthRecallHook } from '../../src/recall/hook.js';
import { startTestDashboard, type TestDashboard } from '../support/dashboard.js';
import { closeGraph, ensureAppBuilt, type GraphPage, launchBrowser, openGraph, poll } from '../support/e2e.js';

describe('why was this recalled', { timeout: 60_000 }, () => {
  let browser: Browser;
  let d: TestDashboard;
  let g: GraphPage;
  let recalled: { id: string; score: number }[] = [];

  beforeAll(async () => {
    await ensureAppBuilt();
    [browser, d] = await Promise.all([launchBrowser(), startTestDashboard('uws')]);
    d.svc.memoryStore({ text: 'The ocelot queue drains into the billing warehouse every night', category: 'technical' });
    d.svc.memoryStore({ text: 'The ocelot queue is owned by the payments team' });
    d.svc.memoryStore({ text: 'Lunch is at noon on fridays' });
    const r = await d.svc.memoryRecall({ query: 'ocelot queue' });
    recalled = r.results.map((h) => ({ id: h.fact.id, score: h.score }));
    g = await openGraph(browser, d.url, { facts: 3 });
  });

  afterAll(async () => {
    await closeGraph(g, browser, d);
  });

  it('clicking the recall in the feed shows each recalled fact with its ranks and scores', async () => {
    expect(recalled).toHaveLength(2);
    await g.page.locator('[data-testid=feed-line][data-kind=RECALL]').first().click();
    const panel = g.testId('why-panel');
    await poll(() => panel.isVisible()).toBe(true);
    expect(await g.testId('why-query').textContent()).toBe('ocelot queue');
    const rows = g.page.locator('[data-testid=why-row]');
    await poll(() => rows.count()).toBe(2);
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-fact-id')));
    expect(ids.sort()).toEqual(recalled.map((r) => r.id).sort());
    // Full text found both (ranks 1 and 2); no vector leg runs in this server (embedding off).
    expect((await g.page.locator('[data-testid=why-fts]').allTextContents()).sort()).toEqual(['#1', '#2']);
    expect(await g.page.locator('[data-testid=why-vector]').allTextContents()).toEqual(['–', '–']);
    await g.shot('why-recalled');
    await g.testId('why-close').click();
    await poll(() => panel.count()).toBe(0);
  });

  it("a credential hint's panel shows the turn excerpt that triggered it, secrets redacted", async () => {
    const secret = 'Sup3r-Secret-Pw-71c9';
    d.svc.memoryStore({ text: 'SSH to 10.0.4.7 uses the ops key from the vault', category: 'technical' });
    const hook = new AuthRecallHook(d.svc, d.home.config, { detectTimeoutMs: 5000 });
    try {
      const turn = { prompt: 'deploy', messages: [{ role: 'tool', content: `$ sshpass -p ${secret} ssh ops@10.0.4.7\nops@10.0.4.7: Permission denied (publickey,password).` }], sessionId: 's1', agentId: 'coder', role: 'specialist' as const };
      expect((await hook.evaluate(turn)).detected).toBe(true);
    } finally {
      await hook.close();
    }
    const line = g.page.locator('[data-testid=feed-line][data-kind=RECALL]', { hasText: '10.0.4.7' }).first();
    await poll(() => line.count()).toBe(1);
    await line.click();
    const excerpt = g.testId('why-excerpt');
    await poll(() => excerpt.isVisible()).toBe(true);
    const text = (await excerpt.textContent()) ?? '';
    expect(text).toContain('Permission denied (publickey,password)');
    expect(text).not.toContain(secret);
    await g.shot('why-recalled-credential-hint');
    await g.testId('why-close').click();
  });

  it('a reply recalled for its question\'s match is marked as a reply', async () => {
    const question = d.svc.memoryStore({ text: 'Oskar: Which ferry did you get over to Arran?' }).fact;
    const reply = d.svc.memoryStore({ text: 'Nadia: The early one, it was freezing on deck.' }).fact;
    const r = await d.svc.memoryRecall({ query: 'which ferry to Arran' });
    expect(r.results.find((h) => h.fact.id === reply.id)?.why.replyTo).toBe(question.id);
    const line = g.page.locator('[data-testid=feed-line][data-kind=RECALL]', { hasText: 'which ferry to Arran' }).first();
    await poll(() => line.count()).toBe(1);
    await line.click();
    const row = (id: string) => g.page.locator(`[data-testid=why-row][data-fact-id="${id}"] [data-testid=why-fts]`);
    await poll(() => row(reply.id).count()).toBe(1);
    expect(await row(reply.id).textContent()).toContain('(reply)');
    expect(await row(question.id).textContent()).not.toContain('(reply)');
  });
});
