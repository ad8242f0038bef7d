/** The maintenance pass in its worker: decay and expiry happen off the main thread and reach the bus. */
import { afterEach, describe, expect, it } from 'vitest';
import { MaintenanceClient } from '../src/actors/maintenance/client.js';
import type { MemoryEvent } from '../src/core/events.js';
import { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

let home: TestHome;
afterEach(() => home.cleanup());

describe('maintenance actor', () => {
  it('expires due facts in a worker; the main process sees the events', async () => {
    home = tempHome();
    const svc = MemoryService.open({ config: home.config, env: home.env, pollMs: 20 });
    const seen: MemoryEvent[] = [];
    svc.subscribe({ role: 'operator', agentId: null, sessionId: null }, (e) => seen.push(e));
    const f = svc.memoryStore({ text: 'One-time code 123456', expiresAt: Date.now() + 150 }).fact;
    const keep = svc.memoryStore({ text: 'Keeps going', decayClass: 'permanent' }).fact;
    await new Promise((r) => setTimeout(r, 200));
    const client = new MaintenanceClient(home.config);
    try {
      const report = await client.run();
      expect(report).toMatchObject({ expired: 1, decayed: 0 });
      expect(report.strengthUpdated).toBeGreaterThanOrEqual(1);
      expect(svc.getFact(f.id).endedReason).toBe('expired');
      expect(svc.getFact(keep.id).validUntil).toBeNull();
      const deadline = Date.now() + 3000;
      while (!seen.some((e) => e.kind === 'fact.ended') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(seen.find((e) => e.kind === 'fact.ended')).toMatchObject({ factId: f.id, reason: 'expired' });
      const [a, b] = await Promise.all([client.run(), client.run()]);
      expect(a).toBe(b);
    } finally {
      await client.close();
      await svc.close();
    }
  });
});

describe('background checkpoint', () => {
  it('copies the WAL into the database from the worker while the main connection keeps writing', async () => {
    home = tempHome();
    const svc = MemoryService.open({ config: home.config, env: home.env });
    svc.db.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 200; i++) svc.memoryStore({ text: `fact number ${i} about the checkpoint` });
    const client = new MaintenanceClient(home.config);
    try {
      const r = await client.checkpoint();
      expect(r.busy).toBe(0);
      expect(r.log).toBeGreaterThan(0);
      expect(r.checkpointed).toBe(r.log);
      expect(svc.stats().totalFacts).toBe(200);
    } finally {
      await client.close();
      await svc.close();
    }
  });
});
