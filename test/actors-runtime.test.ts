/** The actor runtime with real worker threads: typed errors, crash and hang recovery, shutdown. */
import { afterEach, describe, expect, it } from 'vitest';
import { LongLivedActor } from '../src/actors/runtime/long-lived.js';
import { ActorPool } from '../src/actors/runtime/pool.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

function pool(timeoutMs = 3000): ActorPool {
  const p = new ActorPool({ name: 'echo', worker: new URL('./fixtures/echo-worker.js', import.meta.url), timeoutMs, maxThreads: 1 });
  closers.push(() => p.close());
  return p;
}

function actor(timeoutMs = 3000): LongLivedActor {
  const a = new LongLivedActor({ name: 'counter', worker: new URL('./fixtures/counter-actor.js', import.meta.url), timeoutMs, init: { method: 'init', args: [100], timeoutMs: 20_000 } });
  closers.push(() => a.close());
  return a;
}

describe('pool actor', () => {
  it('runs calls and transfers buffers', async () => {
    const p = pool();
    expect(await p.call('echo', [{ a: 1 }])).toEqual({ a: 1 });
    const buf = new Float32Array([1, 2, 3]);
    expect(await p.call('sum', [buf], { transfer: [buf.buffer] })).toBe(6);
    expect(buf.byteLength).toBe(0);
  });

  it('rebuilds typed errors thrown in the worker', async () => {
    await expect(pool().call('fail', [])).rejects.toMatchObject({ name: 'MemoryError', code: 'MEM_ERR_FACT_NOT_FOUND', details: { path: 'id' } });
  });

  it('replaces a crashed worker and keeps serving', async () => {
    const p = pool();
    await expect(p.call('crash', [])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CRASHED' });
    expect(await p.call('echo', ['alive'])).toBe('alive');
  });

  it('times out a hung worker, replaces it, and keeps serving', async () => {
    const p = pool(300);
    const t = Date.now();
    await expect(p.call('hang', [])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_TIMEOUT' });
    expect(Date.now() - t).toBeLessThan(5000);
    expect(await p.call('echo', ['after'], { timeoutMs: 5000 })).toBe('after');
  });

  it('drains on close and refuses calls after', async () => {
    const p = pool();
    const running = p.call('slow', [200]);
    await p.close();
    expect(await running).toBe(200);
    await expect(p.call('echo', [1])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CLOSED' });
  });
});

describe('pool startup', () => {
  function graphPool(name: string): ActorPool {
    const p = new ActorPool({ name, worker: new URL('./fixtures/graph-worker.js', import.meta.url), timeoutMs: 20_000, maxThreads: 1 });
    closers.push(() => p.close());
    return p;
  }

  it('loads the worker module with import(), never require(): require(esm) cut short by a terminate aborts Node', async () => {
    const p = graphPool('graph');
    expect(await p.call('loadedBy', [])).toBe('import');
    expect(await p.call('parse', ['{ a }'])).toBe('Document');
  });

  it('closes pools whose threads are still loading, and the process lives on', async () => {
    for (let i = 0; i < 12; i++) {
      const starting = [graphPool(`g${i}a`), graphPool(`g${i}b`)];
      await new Promise((r) => setTimeout(r, (i * 13) % 90));
      await Promise.all(starting.map((p) => p.close(0)));
    }
    expect(await graphPool('after').call('parse', ['{ b }'])).toBe('Document');
  });

  it('fails calls with a typed error when the worker module cannot load', async () => {
    const p = new ActorPool({ name: 'broken', worker: new URL('./fixtures/broken-worker.js', import.meta.url), timeoutMs: 10_000, maxThreads: 1 });
    closers.push(() => p.close());
    await expect(p.call('echo', [1])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CRASHED', message: expect.stringMatching(/this worker cannot load/) });
  });
});

describe('long-lived actor', () => {
  it('keeps state between calls and rebuilds typed errors', async () => {
    const a = actor();
    expect(await a.call('add', [1])).toBe(101);
    expect(await a.call('add', [2])).toBe(103);
    await expect(a.call('fail', [])).rejects.toMatchObject({ code: 'MEM_ERR_VECTOR_INDEX', message: 'index broken' });
  });

  it('rejects pending calls when the worker dies, then restarts with init replayed', async () => {
    const a = actor();
    await a.call('add', [5]);
    const pending = a.call('hang', [], { timeoutMs: 10_000 });
    await expect(a.call('crash', [])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CRASHED' });
    await expect(pending).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CRASHED' });
    expect(await a.call('state', [])).toEqual({ count: 100, inits: 1 });
    expect(a.restartCount).toBe(1);
  });

  it('replaces a hung worker after its deadline', async () => {
    const a = actor(300);
    await expect(a.call('hang', [])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_TIMEOUT' });
    expect(await a.call('add', [1])).toBe(101);
  });

  it('rejects pending calls on close', async () => {
    const a = actor();
    await a.call('add', [0]);
    const pending = a.call('hang', [], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await a.close();
    expect(await pending).toMatchObject({ code: 'MEM_ERR_ACTOR_CLOSED' });
    await expect(a.call('add', [1])).rejects.toMatchObject({ code: 'MEM_ERR_ACTOR_CLOSED' });
  });
});
