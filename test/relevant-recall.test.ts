/**
 * The relevant-memories hook (autoRecall.relevant, src/recall/relevant.ts) on a real store: what a turn
 * gets, what it never gets, once per session, within the token cap, recorded as a recall of kind
 * 'relevant'; and the block's text (src/core/relevant-block.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { formatBlock, isTrivialPrompt, memoryLine, stripInjected, turnQuery } from '../src/core/relevant-block.js';
import { MemoryError } from '../src/core/errors.js';
import type { FactId } from '../src/core/ids.js';
import type { MemoryService } from '../src/memory/service.js';
import { RelevantRecallHook } from '../src/recall/relevant.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const SESSION = { sessionId: 'sess-1', agentId: 'agent-a', role: 'specialist' as const };

describe('relevant memories on a turn', () => {
  let home: TestHome;
  let svc: MemoryService;
  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
  });

  function setUp(relevant: Record<string, unknown> = {}): RelevantRecallHook {
    home = tempHome({ autoRecall: { relevant } });
    ({ svc } = openService(home));
    svc.memoryStore({ text: 'The staging database listens on db2.internal port 5432', category: 'technical', entity: 'staging-db' });
    svc.memoryStore({ text: 'Jonas prefers pnpm over npm for every repository', category: 'preference', entity: 'Jonas' });
    svc.memoryStore({ text: 'The office plant needs water on Fridays', category: 'other' });
    return new RelevantRecallHook(svc, home.config);
  }

  it('a prompt about stored memory gets a block with the matching memories, ids and details; a recall of kind relevant', async () => {
    const hook = setUp();
    const r = await hook.evaluate({ prompt: 'which port does the staging database listen on?', ...SESSION });
    expect(r.block).not.toBeNull();
    const lines = (r.block as string).split('\n');
    expect(lines[0]).toBe('<relevant-memories>');
    expect(lines.at(-1)).toBe('</relevant-memories>');
    const staging = svc.listFacts({ entity: 'staging-db' })[0];
    expect(lines).toContain(`- [${staging?.id}] The staging database listens on db2.internal port 5432 (technical, staging-db, 2026-01-01)`);
    expect(r.block).not.toMatch(/office plant/);
    expect(r.factIds).toContain(staging?.id);
    const history = svc.recallHistory(SESSION);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: r.recallId, kind: 'relevant', query: 'which port does the staging database listen on?' });
    expect(history[0]?.scores.map((s) => s.factId)).toEqual(r.factIds);
    expect(svc.getFact(staging?.id as string).recallCount).toBe(1);
  });

  it('a memory is given once per session; an edited memory (a new version) comes again; another session gets it too', async () => {
    const hook = setUp();
    const first = await hook.evaluate({ prompt: 'staging database port please', ...SESSION });
    expect(first.factIds).toHaveLength(1);
    const again = await hook.evaluate({ prompt: 'remind me of the staging database port', ...SESSION });
    expect(again.block).toBeNull();
    expect(again.reason).toBe('no new memory relevant enough');
    svc.editFact({ id: first.factIds[0] as string, text: 'The staging database listens on db3.internal port 5432' });
    const edited = await hook.evaluate({ prompt: 'remind me of the staging database port', ...SESSION });
    expect(edited.block).toMatch(/db3\.internal/);
    const other = await hook.evaluate({ prompt: 'staging database port please', ...SESSION, sessionId: 'sess-2' });
    expect(other.block).toMatch(/db3\.internal/);
    // Without a session id, the process remembers what it gave.
    const a = await hook.evaluate({ prompt: 'staging database port please', agentId: 'agent-a' });
    const b = await hook.evaluate({ prompt: 'staging database port please', agentId: 'agent-a' });
    expect([a.factIds.length, b.factIds.length]).toEqual([1, 0]);
  });

  it('trivial and short prompts, prompts made only of injected context, and a disabled hook give nothing', async () => {
    const hook = setUp();
    for (const prompt of ['ok', 'Thanks!', 'sounds good 👍', 'db?', '<relevant-memories>\n- [f_1] The staging database listens on db2\n</relevant-memories>\nthank you']) {
      const r = await hook.evaluate({ prompt, ...SESSION });
      expect({ prompt, block: r.block, reason: r.reason }).toEqual({ prompt, block: null, reason: 'trivial or short prompt' });
    }
    // A prompt about something else that shares a word with two memories: recall finds them (its score
    // is relative to the best match), but they cover too little of the prompt.
    const offPrompt = 'Which database would you pick for a side project about plants?';
    expect((await svc.search({ query: offPrompt })).results.length).toBeGreaterThan(0);
    const offTopic = await hook.evaluate({ prompt: offPrompt, ...SESSION });
    expect([offTopic.block, offTopic.reason]).toEqual([null, 'no new memory relevant enough']);
    const off = new RelevantRecallHook(svc, resolveConfig({ autoRecall: { relevant: { enabled: false } } }, { env: home.env }));
    expect((await off.evaluate({ prompt: 'which port does the staging database listen on?', ...SESSION })).reason).toBe('relevant-memory recall disabled');
    expect(svc.recallHistory()).toHaveLength(0);
  });

  it('minScore leaves weak matches out; maxTokens stops the block before it would pass the cap', async () => {
    setUp();
    const prompt = { prompt: 'staging database port, and pnpm for Jonas', ...SESSION };
    const all = await new RelevantRecallHook(svc, resolveConfig({ autoRecall: { relevant: { minScore: 0 } } }, { env: home.env })).evaluate(prompt);
    expect(all.factIds).toHaveLength(2);
    const strict = await new RelevantRecallHook(svc, resolveConfig({ autoRecall: { relevant: { minScore: 0.9 } } }, { env: home.env })).evaluate({ ...prompt, sessionId: 'sess-strict' });
    const scores = svc.recallHistory().find((e) => e.id === all.recallId)?.scores ?? [];
    expect(strict.factIds).toEqual(scores.filter((x) => x.score >= 0.9).map((x) => x.factId));
    expect(strict.factIds.length).toBeLessThan(2);
    const tiny = new RelevantRecallHook(svc, resolveConfig({ autoRecall: { relevant: { maxTokens: 50, maxPerMemoryChars: 1000 } } }, { env: home.env }));
    svc.memoryStore({ text: `The staging database runbook: ${'restart the replica then check lag; '.repeat(20)}`, category: 'technical', entity: 'staging-db' });
    const capped = await tiny.evaluate({ prompt: 'what is the staging database runbook', ...SESSION, sessionId: 'sess-3' });
    if (capped.block) expect(Math.ceil(capped.block.length / 4)).toBeLessThanOrEqual(50);
    else expect(capped.reason).toBe('maxTokens leaves no room for a memory');
  });

  it("a specialist never gets another agent's memories", async () => {
    const hook = setUp();
    svc.memoryStore({ text: 'The billing queue drains into kafka-7', scope: 'agent', scopeAgentId: 'agent-b' });
    const r = await hook.evaluate({ prompt: 'where does the billing queue drain into?', ...SESSION });
    expect(r.block).toBeNull();
    const own = await hook.evaluate({ prompt: 'where does the billing queue drain into?', ...SESSION, agentId: 'agent-b', sessionId: 'sess-b' });
    expect(own.block).toMatch(/kafka-7/);
  });

  it('bad turns and bad configuration are typed errors; onTurn never throws', async () => {
    const hook = setUp();
    await expect(hook.evaluate({ prompt: 42 } as never)).rejects.toThrow();
    expect(await hook.onTurn({ prompt: 42 } as never)).toBeNull();
    for (const relevant of [{ limit: 0 }, { format: 'huge' }, { minScore: 2 }, { maxTokens: 10 }, { surprise: true }]) {
      let err: unknown;
      try {
        resolveConfig({ autoRecall: { relevant } }, { env: home.env });
      } catch (e) {
        err = e;
      }
      expect(err instanceof MemoryError && err.code, JSON.stringify(relevant)).toBe('MEM_ERR_CONFIG_INVALID');
    }
  });
});

describe('the relevant-memories block', () => {
  const fact = (text: string) => ({ id: 'f_1' as FactId, text, category: 'technical' as const, entity: 'staging-db', validFrom: Date.UTC(2026, 2, 1) });

  it('lines are one line each: secrets redacted, control and bidi characters and the block tags neutralised', () => {
    const line = memoryLine(fact('token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n\u001b[2Jnext\u202e</relevant-memories>done'), { format: 'full', maxPerMemoryChars: 300 });
    expect(line).toBe('- [f_1] token [redacted] [2Jnext done (technical, staging-db, 2026-03-01)');
    expect(memoryLine(fact('x '.repeat(100)), { format: 'minimal', maxPerMemoryChars: 300 }).length).toBeLessThanOrEqual(8 + 80);
    expect(memoryLine(fact('plain'), { format: 'short', maxPerMemoryChars: 300 })).toBe('- [f_1] plain');
  });

  it('the block holds the memories in order until the token cap, else nothing', () => {
    const facts = [fact('a'.repeat(200)), fact('b'.repeat(200)), fact('c'.repeat(200))];
    const b = formatBlock(facts, { format: 'short', maxTokens: 150, maxPerMemoryChars: 300 });
    expect(b?.used).toBe(2);
    expect(Math.ceil((b?.text.length ?? 0) / 4)).toBeLessThanOrEqual(150);
    expect(formatBlock(facts, { format: 'short', maxTokens: 50, maxPerMemoryChars: 300 })).toBeNull();
  });

  it('the query is the prompt without injected context, else the last user message; trivial prompts are known', () => {
    const injected = '💡 Memory has credentials for `db2`:\n1. use the key\n<relevant-memories>\n- [f_1] x\n</relevant-memories>\nwhat port is staging on';
    expect(stripInjected(injected)).toBe('what port is staging on');
    expect(turnQuery('', 'deploy steps for billing')).toBe('deploy steps for billing');
    expect(turnQuery('x'.repeat(5000), null)).toHaveLength(1000);
    expect(isTrivialPrompt('OK!', 12)).toBe(true);
    expect(isTrivialPrompt('thank you', 0)).toBe(true);
    expect(isTrivialPrompt('what port is staging on', 12)).toBe(false);
  });
});
