/** The event log and bus: typed events in the same transaction, cross-process delivery, resume, trimming. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryEvent } from '../src/core/events.js';
import { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const OP = { role: 'operator' as const, agentId: null, sessionId: null };
let home: TestHome;
let a: MemoryService;
let b: MemoryService;
let clock: { now: number; advance(ms: number): void };

beforeEach(() => {
  home = tempHome();
  ({ svc: a, clock } = openService(home));
  b = MemoryService.open({ config: home.config, env: home.env, pollMs: 20 });
});
afterEach(() => {
  a.close();
  b.close();
  home.cleanup();
});

const until = async (cond: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('events', () => {
  it('a second process sharing the database sees changes through the log', async () => {
    const seen: MemoryEvent[] = [];
    b.subscribe(OP, (e) => seen.push(e));
    const f = a.memoryStore({ text: 'Redis runs on cache01' }).fact;
    await until(() => seen.length >= 1);
    expect(seen[0]).toMatchObject({ kind: 'fact.stored', fact: { id: f.id, text: 'Redis runs on cache01' } });
    expect(seen[0]?.seq).toBeGreaterThan(0);
  });

  it('a subscriber resumes from the last sequence it saw, in order', () => {
    const first: MemoryEvent[] = [];
    const sub = a.subscribe(OP, (e) => first.push(e));
    a.memoryStore({ text: 'one' });
    sub.unsubscribe();
    a.memoryStore({ text: 'two' });
    a.memoryStore({ text: 'three' });
    const resumed: MemoryEvent[] = [];
    const r = a.subscribe(OP, (e) => resumed.push(e), first.at(-1)?.seq);
    expect(r.missed).toBe(false);
    expect(resumed.map((e) => (e.kind === 'fact.stored' ? e.fact.text : e.kind))).toEqual(['two', 'three']);
    a.memoryStore({ text: 'four' });
    expect(resumed.map((e) => e.seq)).toEqual([...resumed.map((e) => e.seq)].sort((x, y) => x - y));
    expect(resumed).toHaveLength(3);
  });

  it('writes the event in the same transaction as the change: a failed change leaves no event', () => {
    const before = a.stats().lastEventSeq;
    expect(() => a.memoryLink({ sourceId: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', targetId: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAW' })).toThrow();
    expect(a.stats().lastEventSeq).toBe(before);
  });

  it('trims the log by age and tells a resuming subscriber it missed events', () => {
    a.memoryStore({ text: 'old event' });
    clock.advance(8 * 86_400_000);
    a.memoryStore({ text: 'new event' });
    expect(a.runMaintenance().eventsTrimmed).toBe(1);
    const got: MemoryEvent[] = [];
    const r = a.subscribe(OP, (e) => got.push(e), 0);
    expect(r.missed).toBe(true);
    expect(got).toHaveLength(1);
  });

  it('filters events by the subscriber scope', () => {
    const spy: MemoryEvent[] = [];
    a.subscribe({ role: 'specialist', agentId: 'a2', sessionId: null }, (e) => spy.push(e));
    a.memoryStore({ text: 'a1 private note', scope: 'agent' }, { role: 'specialist', agentId: 'a1', sessionId: null });
    a.memoryStore({ text: 'global note' });
    expect(spy.map((e) => (e.kind === 'fact.stored' ? e.fact.text : e.kind))).toEqual(['global note']);
  });
});
