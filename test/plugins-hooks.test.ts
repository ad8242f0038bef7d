/**
 * Plugin hooks with real worker pools and a real SQLite store: each hook fires with the right input and
 * its answer is honoured (a changed fact is stored, a veto refuses, a rewritten query is what runs, a
 * filtered result list is what the caller gets and what the recall logs), state lives across calls in the
 * plugin's worker, events reach subscribers, and onMaintenance/onShutdown run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MemoryEvent } from '../src/core/events.js';
import { OPERATOR } from '../src/core/types.js';
import { openMemory } from '../src/main.js';
import { PluginHost } from '../src/plugins/host.js';
import { readManifest } from '../src/plugins/manifest.js';
import { tempHome } from './helpers.js';
import { cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';

interface Call {
  readonly hook: string;
  readonly [k: string]: unknown;
}

async function calls(p: PluggedService): Promise<Call[]> {
  const out = await p.svc.plugins?.command('recorder', 'calls', []);
  expect(out?.exitCode).toBe(0);
  const r = await p.svc.plugins?.endpoint('recorder', { method: 'GET', path: '/calls', query: {}, headers: {}, body: null, caller: OPERATOR });
  return (JSON.parse(r?.body ?? '{}') as { calls: Call[] }).calls;
}

let open: PluggedService[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});
afterAll(cleanupFixtures);

async function start(config: Record<string, unknown> = {}): Promise<PluggedService> {
  const p = await pluggedService([{ dir: fixture('recorder'), config }]);
  open.push(p);
  return p;
}

describe('store hooks', () => {
  it('beforeFactStore sees the filled-in fact and its change is stored; afterFactStore sees the stored fact', async () => {
    const p = await start();
    const r = await p.svc.storeWithHooks({ text: 'The build runs on Buildkite', entity: 'ci' }, OPERATOR, 'cli');
    expect(r.fact.tags).toEqual(['seen-by-recorder']);
    expect(p.svc.getFact(r.fact.id).tags).toEqual(['seen-by-recorder']);
    const c = await calls(p);
    expect(c.map((x) => x.hook)).toEqual(['beforeFactStore', 'afterFactStore']);
    expect(c[0]).toMatchObject({
      fact: { text: 'The build runs on Buildkite', entity: 'ci', category: 'fact', tags: [], importance: 0.5, confidence: 0.8, decayClass: 'stable', expiresAt: null, pinned: false, scope: 'global' },
      info: { operation: 'store', source: 'cli', caller: { role: 'operator' } },
    });
    expect(c[1]).toMatchObject({ fact: { id: r.fact.id, tags: ['seen-by-recorder'] }, info: { operation: 'store' } });
  });

  it('a veto ({ veto: true, reason }) or false refuses the store: MEM_ERR_PLUGIN_VETO, nothing written', async () => {
    const p = await start({ vetoWord: 'hunter2', vetoFalseWord: 'forbidden' });
    const before = p.svc.stats().totalFacts;
    await expect(p.svc.storeWithHooks({ text: 'db password is hunter2' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', message: expect.stringContaining('plugin recorder refused the store: the text mentions hunter2') });
    await expect(p.svc.storeWithHooks({ text: 'a forbidden thing' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', details: { pluginId: 'recorder', hook: 'beforeFactStore', reason: null } });
    expect(p.svc.stats().totalFacts).toBe(before);
    expect((await calls(p)).map((c) => c.hook)).toEqual(['beforeFactStore', 'beforeFactStore']);
  });

  it('an edit runs beforeFactStore with the whole next version (operation edit); its change is in the new version', async () => {
    const p = await start();
    const { fact } = p.svc.memoryStore({ text: 'The cache is Redis 6', entity: 'cache', tags: ['infra'] });
    const next = await p.svc.editWithHooks({ id: fact.id, text: 'The cache is Redis 7' }, OPERATOR, 'graphql');
    expect(next).toMatchObject({ text: 'The cache is Redis 7', supersedes: fact.id, tags: ['infra', 'seen-by-recorder'], version: 2 });
    const c = await calls(p);
    expect(c[0]).toMatchObject({ hook: 'beforeFactStore', fact: { text: 'The cache is Redis 7', tags: ['infra'], entity: 'cache', supersedes: fact.id }, info: { operation: 'edit', source: 'graphql' } });
    expect(c[1]).toMatchObject({ hook: 'afterFactStore', fact: { id: next.id }, info: { operation: 'edit' } });
  });

  it('a duplicate store (nothing new written) does not fire afterFactStore; plain memoryStore runs no hooks', async () => {
    const p = await start();
    await p.svc.storeWithHooks({ text: 'Deploys happen on Tuesdays' });
    const dup = await p.svc.storeWithHooks({ text: 'Deploys happen on Tuesdays' });
    expect(dup.created).toBe(false);
    p.svc.memoryStore({ text: 'Raw stores skip the plugins' });
    expect((await calls(p)).map((c) => c.hook)).toEqual(['beforeFactStore', 'afterFactStore', 'beforeFactStore']);
  });

  it('emit in afterFactStore reaches subscribers as a plugin event', async () => {
    const p = await start();
    const seen: MemoryEvent[] = [];
    const sub = p.svc.subscribe({ role: 'specialist', agentId: 'a1', sessionId: null }, (e) => seen.push(e));
    const r = await p.svc.storeWithHooks({ text: 'Emitted facts are announced' });
    await expect.poll(() => seen.filter((e) => e.kind === 'plugin').length, { timeout: 5000 }).toBe(1);
    sub.unsubscribe();
    expect(seen.find((e) => e.kind === 'plugin')).toMatchObject({ kind: 'plugin', pluginId: 'recorder', event: 'stored', data: { id: r.fact.id, text: 'Emitted facts are announced' } });
  });
});

describe('delete hooks', () => {
  it('beforeFactDelete gets the id; false stops the delete (MEM_ERR_PLUGIN_VETO, the fact stays); true lets it go on and afterFactDelete fires', async () => {
    const p = await start({ keepWord: 'KEEP' });
    const keep = p.svc.memoryStore({ text: 'KEEP this audit record' }).fact;
    const drop = p.svc.memoryStore({ text: 'a scratch note' }).fact;
    await expect(p.svc.deleteWithHooks(keep.id)).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', message: `plugin recorder refused the delete` });
    expect(p.svc.getFact(keep.id).validUntil).toBeNull();
    const gone = await p.svc.deleteWithHooks(drop.id, OPERATOR);
    expect(gone.endedReason).toBe('deleted');
    const c = await calls(p);
    expect(c.map((x) => [x.hook, x.factId])).toEqual([
      ['beforeFactDelete', keep.id],
      ['beforeFactDelete', drop.id],
      ['afterFactDelete', drop.id],
    ]);
    expect(c[0]).toMatchObject({ info: { caller: { role: 'operator' } } });
  });

  it('an unknown or already deleted fact never reaches the plugin', async () => {
    const p = await start();
    await expect(p.svc.deleteWithHooks('fact_01JZZZZZZZZZZZZZZZZZZZZZZZ')).rejects.toMatchObject({ code: 'MEM_ERR_FACT_NOT_FOUND' });
    const f = p.svc.memoryStore({ text: 'gone soon' }).fact;
    p.svc.deleteFact(f.id);
    await expect(p.svc.deleteWithHooks(f.id)).rejects.toMatchObject({ code: 'MEM_ERR_FACT_ENDED' });
    expect(await calls(p)).toEqual([]);
  });
});

describe('search hooks', () => {
  it('beforeSearch gets the query and its rewrite is what runs; afterSearch gets the hits and its filtered list is returned and logged', async () => {
    const p = await start({ rewrite: { from: 'kubernetes', to: 'k8s' }, hideWord: 'staging' });
    const prod = p.svc.memoryStore({ text: 'The k8s cluster prod runs in eu-west' }).fact;
    p.svc.memoryStore({ text: 'The k8s cluster staging runs in us-east' });
    const r = await p.svc.memoryRecall({ query: 'kubernetes cluster', limit: 5 });
    expect(r.results.map((h) => h.fact.id)).toEqual([prod.id]);
    const history = p.svc.recallHistory();
    expect(history[0]).toMatchObject({ query: 'k8s cluster' });
    expect(history[0]?.scores.map((s) => s.factId)).toEqual([prod.id]);
    const c = await calls(p);
    expect(c[0]).toMatchObject({ hook: 'beforeSearch', query: { query: 'kubernetes cluster', limit: 5, includeSuperseded: false }, info: { kind: 'recall', caller: { role: 'operator' } } });
    expect(c[1]).toMatchObject({ hook: 'afterSearch', info: { kind: 'recall', query: { query: 'k8s cluster' } } });
    expect((c[1]?.ids as string[]).length).toBe(2);
  });

  it('the dashboard search (kind search) runs the hooks too; search(..., { plugins: false }) does not', async () => {
    const p = await start({ hideWord: 'secret' });
    p.svc.memoryStore({ text: 'The wiki has a secret page' });
    const shown = p.svc.memoryStore({ text: 'The wiki has a public page' }).fact;
    expect((await p.svc.search({ query: 'wiki page' })).results.map((h) => h.fact.id)).toEqual([shown.id]);
    expect((await p.svc.search({ query: 'wiki page' }, OPERATOR, { plugins: false })).results).toHaveLength(2);
    expect((await calls(p)).map((c) => [c.hook, (c.info as { kind: string }).kind])).toEqual([
      ['beforeSearch', 'search'],
      ['afterSearch', 'search'],
    ]);
  });
});

describe('plugin lifecycle', () => {
  it('init runs once per worker and state lives across calls; onMaintenance gets the report; onShutdown runs on close, while the store is open', async () => {
    const shutdownFile = join(mkdtempSync(join(tmpdir(), 'hybrid-mem-shutdown-')), 'shutdown.json');
    // The sandbox lets the plugin write only where its manifest's fs capability says.
    const dir = fixture('recorder', (h) => {
      h.capabilities = { ...(h.capabilities as object), fs: [dirname(shutdownFile)] };
    });
    const p = await pluggedService([{ dir, config: { shutdownFile } }]);
    await p.svc.storeWithHooks({ text: 'one' });
    await p.svc.storeWithHooks({ text: 'two' });
    const out = await p.svc.plugins?.command('recorder', 'calls', ['x']);
    expect(out).toMatchObject({ exitCode: 0, json: { calls: 4, inits: 1, args: ['x'] } });
    const report = p.svc.runMaintenance();
    await p.svc.plugins?.onMaintenance(report);
    const c = await calls(p);
    expect(c.at(-1)).toMatchObject({ hook: 'onMaintenance', info: { report: { expired: 0, decayed: 0 } } });
    expect(p.lines).toContain('plugin recorder: recorder ready');
    expect(existsSync(shutdownFile)).toBe(false);
    await p.close();
    expect(JSON.parse(readFileSync(shutdownFile, 'utf8'))).toEqual({ hooks: ['beforeFactStore', 'afterFactStore', 'beforeFactStore', 'afterFactStore', 'onMaintenance', 'onShutdown'], totalFacts: 2 });
    rmSync(dirname(shutdownFile), { recursive: true, force: true });
  });

  it('context.service reads from a hook reach the main thread (keepWord looks the fact up)', async () => {
    const p = await start({ keepWord: 'pinned-by-policy' });
    const f = p.svc.memoryStore({ text: 'pinned-by-policy: the release checklist' }).fact;
    await expect(p.svc.deleteWithHooks(f.id)).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO' });
    expect((await p.svc.plugins?.command('recorder', 'count', []))?.output).toBe('facts: 1');
  });
});

describe('context.vectorDb', () => {
  it('is absent when vector search is off', async () => {
    const p = await start();
    expect((await p.svc.plugins?.command('recorder', 'similar', ['anything']))?.json).toBe('no vectorDb');
  });

  it('with the semantic layer running, finds facts by meaning', async () => {
    const home = tempHome();
    const svc = await openMemory({ config: home.config, env: home.env, semantic: true });
    try {
      const db = svc.memoryStore({ text: 'Use ssh admin@10.0.0.5 to reach the database server' }).fact;
      svc.memoryStore({ text: 'The office plants are watered on Fridays' });
      await svc.semanticLayer?.idle();
      const host = await PluginHost.start({ svc, plugins: [{ manifest: readManifest(fixture('recorder')), config: {} }] });
      svc.attachPlugins(host);
      const found = (await host.command('recorder', 'similar', ['how do I log into the DB machine'])).json as { fact: { id: string }; similarity: number }[];
      expect(found[0]?.fact.id).toBe(db.id);
      expect(found[0]?.similarity).toBeGreaterThan(found[1]?.similarity ?? 1);
    } finally {
      await svc.close();
      home.cleanup();
    }
  }, 60_000);
});

describe('plugin events', () => {
  it('bad event names or data are refused (MEM_ERR_INVALID_INPUT) and nothing is appended', async () => {
    const p = await start();
    const before = p.svc.stats().lastEventSeq;
    expect(() => p.svc.emitPluginEvent('recorder', 'bad name!', {})).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    expect(() => p.svc.emitPluginEvent('Recorder', 'ok', {})).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    expect(() => p.svc.emitPluginEvent('recorder', 'big', 'x'.repeat(70 * 1024))).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => p.svc.emitPluginEvent('recorder', 'cyclic', cyclic)).toThrow(expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }));
    expect(p.svc.stats().lastEventSeq).toBe(before);
  });
});

