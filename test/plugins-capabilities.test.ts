/**
 * Capabilities, enforced with real workers: a capability holds only when the manifest grants it and the
 * plugin object declares it. Without canModifyFacts a plugin cannot change a fact through a hook nor
 * write through context.service; without canInterceptSearch it cannot change a query or results. A
 * refused change is a plugin failure (reported; the plugin's policy decides), never a silent change.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';

let open: PluggedService[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});
afterAll(cleanupFixtures);

async function grabby(o: { grant?: { canModifyFacts?: boolean; canInterceptSearch?: boolean }; entry?: string; policy?: string }): Promise<PluggedService> {
  const dir = fixture('grabby', (h) => {
    h.capabilities = { canModifyFacts: false, canInterceptSearch: false, ...o.grant };
    if (o.entry) h.entry = o.entry;
    if (o.policy) h.policy = o.policy;
  });
  const p = await pluggedService([{ dir }]);
  open.push(p);
  return p;
}

async function run(p: PluggedService, name: string, ...args: string[]): Promise<{ ok: boolean; code?: string; value?: unknown }> {
  return (await p.svc.plugins!.command('grabby', name, args)).json as { ok: boolean; code?: string };
}

const NO_CAPS = [
  ['granted by the manifest, not declared by the plugin', { grant: { canModifyFacts: true, canInterceptSearch: true }, entry: 'undeclared.js' }],
  ['declared by the plugin, not granted by the manifest', { grant: {} }],
] as const;

describe.each(NO_CAPS)('capabilities %s', (_name, setup) => {
  it('a changed fact from beforeFactStore is refused and reported (fail-open: stored as given)', async () => {
    const p = await grabby(setup);
    expect(p.host.status()[0]?.capabilities).toEqual({ canModifyFacts: false, canInterceptSearch: false });
    const r = await p.svc.storeWithHooks({ text: 'lower case stays lower case' });
    expect(p.svc.getFact(r.fact.id).text).toBe('lower case stays lower case');
    expect(p.host.failures[0]).toMatchObject({ pluginId: 'grabby', hook: 'beforeFactStore', code: 'MEM_ERR_PLUGIN_CAPABILITY', message: 'plugin grabby: beforeFactStore changed the fact without the canModifyFacts capability' });
  });

  it('context.service writes are refused with MEM_ERR_PLUGIN_CAPABILITY and change nothing; reads work', async () => {
    const p = await grabby(setup);
    const f = p.svc.memoryStore({ text: 'the original' }).fact;
    expect(await run(p, 'write')).toMatchObject({ ok: false, code: 'MEM_ERR_PLUGIN_CAPABILITY' });
    expect(await run(p, 'delete', f.id)).toMatchObject({ ok: false, code: 'MEM_ERR_PLUGIN_CAPABILITY' });
    expect(p.svc.stats().totalFacts).toBe(1);
    expect(p.svc.getFact(f.id).validUntil).toBeNull();
    expect(await run(p, 'read', f.id)).toMatchObject({ ok: true, value: { id: f.id, text: 'the original' } });
    expect(await run(p, 'search', 'original')).toMatchObject({ ok: true, value: { results: [{ fact: { id: f.id } }] } });
  });

  it('a changed query and filtered results are refused and reported: the search runs as asked', async () => {
    const p = await grabby(setup);
    const f = p.svc.memoryStore({ text: 'The ferry leaves at noon' }).fact;
    const r = await p.svc.memoryRecall({ query: 'ferry' });
    expect(r.results.map((h) => h.fact.id)).toEqual([f.id]);
    expect(p.host.failures.map((x) => [x.hook, x.code])).toEqual([
      ['beforeSearch', 'MEM_ERR_PLUGIN_CAPABILITY'],
      ['afterSearch', 'MEM_ERR_PLUGIN_CAPABILITY'],
    ]);
  });
});

describe('capabilities granted and declared', () => {
  it('canModifyFacts: the hook change is stored and context.service writes (source plugin) go through', async () => {
    const p = await grabby({ grant: { canModifyFacts: true } });
    const r = await p.svc.storeWithHooks({ text: 'shout this' });
    expect(r.fact.text).toBe('SHOUT THIS');
    const w = await run(p, 'write');
    expect(w).toMatchObject({ ok: true, value: { created: true, fact: { text: 'written by grabby', source: 'plugin' } } });
    // ... but without canInterceptSearch the search is still its own.
    const found = await p.svc.memoryRecall({ query: 'shout' });
    expect(found.results.map((h) => h.fact.text)).toEqual(['SHOUT THIS']);
    expect(p.host.failures.map((x) => x.code)).toEqual(['MEM_ERR_PLUGIN_CAPABILITY', 'MEM_ERR_PLUGIN_CAPABILITY']);
  });

  it('canInterceptSearch: the changed query and the emptied results are honoured (nothing is logged)', async () => {
    const p = await grabby({ grant: { canInterceptSearch: true } });
    p.svc.memoryStore({ text: 'The ferry leaves at noon' });
    p.svc.memoryStore({ text: 'Everything grabbed goes here' });
    const r = await p.svc.memoryRecall({ query: 'ferry' });
    expect(r.results).toEqual([]);
    expect(p.svc.recallHistory()).toEqual([]);
    expect(p.host.failures).toEqual([]);
  });

  it('fail-closed: a change without the capability refuses the operation (MEM_ERR_PLUGIN_FAILED, cause MEM_ERR_PLUGIN_CAPABILITY)', async () => {
    const p = await grabby({ grant: {}, policy: 'fail-closed' });
    await expect(p.svc.storeWithHooks({ text: 'refused' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', details: { pluginId: 'grabby', hook: 'beforeFactStore', cause: 'MEM_ERR_PLUGIN_CAPABILITY' } });
    expect(p.svc.stats().totalFacts).toBe(0);
  });
});
