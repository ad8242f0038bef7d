/**
 * Plugins that throw, hang (async and a spinning thread) or answer in the wrong shape, under both
 * policies, with real worker pools: every failure is reported with the plugin id and hook; fail-open lets
 * the operation go on unchanged, fail-closed refuses it with MEM_ERR_PLUGIN_FAILED and changes nothing;
 * a hung worker is terminated and replaced (init runs again); the service keeps running throughout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupFixtures, fixture, pluggedService, type PluggedService } from './support/plugins.js';

const POLICIES = ['fail-open', 'fail-closed'] as const;
const MODES = [
  { mode: 'throw', hang: undefined, cause: 'MEM_ERR_INTERNAL', says: 'boom in beforeFactStore' },
  { mode: 'hang', hang: 'async', cause: 'MEM_ERR_ACTOR_TIMEOUT', says: 'no answer within 400 ms' },
  { mode: 'hang', hang: 'sync', cause: 'MEM_ERR_ACTOR_TIMEOUT', says: 'no answer within 400 ms' },
  { mode: 'garbage', hang: undefined, cause: 'MEM_ERR_INVALID_INPUT', says: 'received 42' },
] as const;

let open: PluggedService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});
afterAll(() => {
  cleanupFixtures();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'hybrid-mem-plugin-fail-'));
  dirs.push(d);
  return d;
}

/** The sandbox lets a plugin write only where its manifest's fs capability says: the init log's folder. */
function grantInitLog(h: Record<string, unknown>, config: Record<string, unknown>): void {
  if (typeof config.initLog === 'string') h.capabilities = { ...(h.capabilities as object), fs: [dirname(config.initLog)] };
}

async function misbehaving(policy: (typeof POLICIES)[number], config: Record<string, unknown>): Promise<PluggedService> {
  const dir = fixture('misbehaving', (h) => {
    h.policy = policy;
    grantInitLog(h, config);
  });
  const p = await pluggedService([{ dir, config }]);
  open.push(p);
  return p;
}

describe.each(POLICIES)('policy %s', (policy) => {
  describe.each(MODES)('a plugin whose hooks $mode ($hang)', ({ mode, hang, cause, says }) => {
    it(`store, delete and recall ${policy === 'fail-open' ? 'go on unchanged' : 'are refused'}; each failure is reported with the plugin id; the service keeps running`, async () => {
      const p = await misbehaving(policy, { mode, hang });
      const victim = p.svc.memoryStore({ text: 'The blue server hosts the wiki' }).fact;
      const store = p.svc.storeWithHooks({ text: 'The green server hosts the docs' });
      const del = () => p.svc.deleteWithHooks(victim.id);
      const recall = () => p.svc.memoryRecall({ query: 'server' });
      if (policy === 'fail-open') {
        const r = await store;
        expect(r.fact.tags).toEqual([]); // unchanged: the plugin's edit did not happen
        expect((await del()).endedReason).toBe('deleted');
        expect((await recall()).results.map((h) => h.fact.text)).toEqual(['The green server hosts the docs']);
      } else {
        await expect(store).rejects.toMatchObject({
          code: 'MEM_ERR_PLUGIN_FAILED',
          message: expect.stringMatching(new RegExp(`^plugin misbehaving \\(fail-closed\\): beforeFactStore failed, so the store was refused \\(${cause}: .*${says}`)),
          details: { pluginId: 'misbehaving', hook: 'beforeFactStore', cause },
        });
        await expect(del()).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', details: { hook: 'beforeFactDelete' } });
        await expect(recall()).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', details: { hook: 'beforeSearch' } });
        expect(p.svc.stats().totalFacts).toBe(1);
        expect(p.svc.getFact(victim.id).validUntil).toBeNull();
      }
      const reported = p.host.failures.map((f) => [f.pluginId, f.hook, f.code]).filter(([, hook]) => hook?.startsWith('before'));
      expect(reported).toEqual([
        ['misbehaving', 'beforeFactStore', cause],
        ['misbehaving', 'beforeFactDelete', cause],
        ['misbehaving', 'beforeSearch', cause],
      ]);
      expect(p.lines.filter((l) => l.startsWith('plugin misbehaving: beforeFactStore failed (')).length).toBe(1);
      if (mode === 'hang') expect(p.host.status()[0]?.restarts).toBeGreaterThanOrEqual(3);
      // The service itself is fine: plain operations work, and so does the next hooked one.
      expect(p.svc.memoryStore({ text: 'The red server hosts the chat' }).created).toBe(true);
      expect(p.svc.stats().totalFacts).toBeGreaterThanOrEqual(2);
    });
  });

  it('after-hooks that fail are reported only: the committed store and delete stand', async () => {
    const p = await misbehaving(policy, { mode: 'throw', only: ['afterFactStore', 'afterFactDelete'] });
    const r = await p.svc.storeWithHooks({ text: 'kept although afterFactStore throws' });
    expect(p.svc.getFact(r.fact.id).tags).toEqual(['misbehaving-ok']);
    expect((await p.svc.deleteWithHooks(r.fact.id)).endedReason).toBe('deleted');
    expect(p.host.failures.map((f) => [f.hook, f.code])).toEqual([
      ['afterFactStore', 'MEM_ERR_INTERNAL'],
      ['afterFactDelete', 'MEM_ERR_INTERNAL'],
    ]);
    expect(p.lines).toContain(`plugin misbehaving: afterFactStore failed (MEM_ERR_INTERNAL: boom in afterFactStore); ${policy}: reported only (nothing to undo)`);
  });

  it('onMaintenance failures are reported only', async () => {
    const p = await misbehaving(policy, { mode: 'throw' });
    await p.svc.plugins?.onMaintenance(null);
    expect(p.host.failures.map((f) => [f.hook, f.code])).toEqual([['onMaintenance', 'MEM_ERR_INTERNAL']]);
    expect(p.lines.at(-1)).toMatch(/^plugin misbehaving: onMaintenance failed \(MEM_ERR_INTERNAL: boom in onMaintenance\); fail-(open|closed): reported only/);
  });

  it('a plugin whose init throws: reported at load; fail-open skips it, fail-closed refuses what it would hook', async () => {
    const p = await misbehaving(policy, { failInit: true });
    expect(p.lines[0]).toMatch(/^plugin misbehaving: init failed \(MEM_ERR_PLUGIN_FAILED: plugin misbehaving could not load: MEM_ERR_INTERNAL: init refuses to start\)/);
    expect(p.host.status()[0]).toMatchObject({ state: 'broken', hooks: [] });
    const store = p.svc.storeWithHooks({ text: 'stored while the plugin is broken' });
    if (policy === 'fail-open') expect((await store).created).toBe(true);
    else await expect(store).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', message: expect.stringContaining('could not load') });
  });
});

describe('a hung worker is replaced', () => {
  it('the hook that hung is skipped (fail-open), the worker is terminated and started again, init runs again, and the next call is answered', async () => {
    const initLog = join(scratch(), 'inits.log');
    const p = await misbehaving('fail-open', { mode: 'hang', hang: 'sync', healAfterRestart: true, initLog });
    const first = await p.svc.storeWithHooks({ text: 'stored while the plugin hangs' });
    expect(first.fact.tags).toEqual([]);
    const second = await p.svc.storeWithHooks({ text: 'stored after the plugin came back' });
    expect(second.fact.tags).toEqual(['misbehaving-ok']);
    expect(readFileSync(initLog, 'utf8')).toBe('init\ninit\n');
    expect(p.host.status()[0]).toMatchObject({ state: 'loaded', restarts: 1 });
    expect(p.lines.some((l) => l.includes('plugin misbehaving: warn: process replaced'))).toBe(true);
  });

  it('a call queued behind the hung one runs on the new worker once it is loaded; context.service works through the new port', async () => {
    const initLog = join(scratch(), 'inits.log');
    const config = { mode: 'hang', hang: 'sync', healAfterRestart: true, initLog };
    const dir = fixture('misbehaving', (h) => {
      h.timeouts = { hookMs: 2000 };
      grantInitLog(h, config);
    });
    const p = await pluggedService([{ dir, config }]);
    open.push(p);
    const first = p.svc.storeWithHooks({ text: 'the call that hangs' });
    await new Promise((r) => setTimeout(r, 1500));
    const second = p.svc.storeWithHooks({ text: 'the call queued behind it' });
    expect((await first).fact.tags).toEqual([]);
    expect((await second).fact.tags).toEqual(['misbehaving-ok']);
    expect(readFileSync(initLog, 'utf8')).toBe('init\ninit\n');
    expect(await p.svc.plugins?.command('misbehaving', 'stats', [])).toMatchObject({ output: 'facts: 2' });
    expect(p.host.failures.map((f) => [f.hook, f.code])).toEqual([['beforeFactStore', 'MEM_ERR_ACTOR_TIMEOUT']]);
  });

  it('a call that timed out while still queued (the worker lives on): the plugin is initialised again over a new port and keeps working', async () => {
    const initLog = join(scratch(), 'inits.log');
    const config = { mode: 'slow', slowMs: 600, initLog };
    const dir = fixture('misbehaving', (h) => {
      h.timeouts = { hookMs: 2000, endpointMs: 100 };
      grantInitLog(h, config);
    });
    const p = await pluggedService([{ dir, config }]);
    open.push(p);
    const slow = p.svc.storeWithHooks({ text: 'a slow but timely hook' });
    await new Promise((r) => setTimeout(r, 50));
    const ping = await p.svc.plugins?.endpoint('misbehaving', { method: 'GET', path: '/ping', query: {}, headers: {}, body: null, caller: { role: 'operator', agentId: null, sessionId: null } }).catch((e: unknown) => e);
    expect(ping).toMatchObject({ code: 'MEM_ERR_PLUGIN_FAILED', message: expect.stringContaining('MEM_ERR_ACTOR_TIMEOUT') });
    expect((await slow).fact.tags).toEqual(['misbehaving-ok']);
    // The worker was never replaced (one init in its module), yet the host loads it again: through the new port, context.service answers.
    expect(await p.svc.plugins?.command('misbehaving', 'stats', [])).toMatchObject({ output: 'facts: 1' });
    expect(readFileSync(initLog, 'utf8')).toBe('init\n');
  });

  it('concurrent calls that all time out are each skipped (fail-open); the plugin then serves again', async () => {
    const initLog = join(scratch(), 'inits.log');
    const p = await misbehaving('fail-open', { mode: 'hang', hang: 'sync', healAfterRestart: true, initLog });
    const all = await Promise.all([1, 2, 3].map((i) => p.svc.storeWithHooks({ text: `concurrent fact number ${i}` })));
    expect(all.map((r) => r.created)).toEqual([true, true, true]);
    expect(await p.svc.plugins?.command('misbehaving', 'stats', [])).toMatchObject({ output: 'facts: 3' });
    expect((await p.svc.storeWithHooks({ text: 'after the storm' })).fact.tags).toEqual(['misbehaving-ok']);
  });

  it('a wrong shape that is not plain data (a function) is reported, not a crash', async () => {
    const p = await misbehaving('fail-closed', { mode: 'garbage' });
    p.svc.memoryStore({ text: 'direct store' });
    await p.svc.plugins?.afterFactStore(p.svc.listFacts()[0]!, { operation: 'store', source: 'cli', caller: { role: 'operator', agentId: null, sessionId: null } });
    expect(p.host.failures.at(-1)).toMatchObject({ hook: 'afterFactStore', code: 'MEM_ERR_INVALID_INPUT', message: expect.stringContaining('not plain data') });
  });
});
