/**
 * Live activity on both adapters: the graphql-sse and graphql-ws clients receive every event kind (with
 * its payload), including a fact stored by the CLI in another process; SSE events carry their seq as the
 * event id; a client resumes with Last-Event-ID or `after` and gets every missed event exactly once, in
 * order; `kinds` filters; and closing the server ends streams and sockets promptly.
 */
import { runProcess, type Finished } from './support/spawn.js';
import { resolve } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/memory/service.js';
import { startDashboard, type Dashboard } from '../src/http/server.js';
import { ADAPTERS, startTestDashboard, type TestDashboard } from './support/dashboard.js';
import {
  activityQuery,
  dataOf,
  prime,
  sleep,
  sseFeed,
  startClockedDashboard,
  waitFor,
  wsFeed,
  type ActivityEvent,
  type ClockedDashboard,
} from './support/dashboard-clients.js';

const BIN = resolve(__dirname, '../bin/hybrid-mem.js');
const HOUR = 3_600_000;

/** Event ids as the log holds them, after `seq` (the reference for "every event, once, in order"). */
const logSeqs = (svc: MemoryService, after: number): number[] =>
  (svc.db.prepare('SELECT seq FROM events WHERE seq > ? ORDER BY seq').all(after) as { seq: number }[]).map((r) => r.seq);

/** Subscribers the service's bus holds right now (private state, read to prove a gone client is released). */
const busSubscribers = (svc: MemoryService): number => (svc as unknown as { ctx: { bus: { subs: Set<unknown> } } }).ctx.bus.subs.size;

/** Run the real CLI (bin/hybrid-mem.js, from source) against a data dir: another process, another connection. */
function cli(home: string, dbPath: string, args: readonly string[]): Promise<Finished> {
  return runProcess(process.execPath, [BIN, '--db', dbPath, ...args], { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' });
}

/** An SSE response read raw: the text so far, and whether the server ended it. */
async function rawSse(url: string, query: string, headers: Record<string, string> = {}): Promise<{ text: () => string; ended: () => boolean; status: number; abort: () => void }> {
  const ac = new AbortController();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query }),
    signal: ac.signal,
  });
  let text = '';
  let ended = false;
  const body = res.body;
  if (body) {
    const reader = body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += Buffer.from(value).toString('utf8');
        }
        ended = true;
      } catch {
        // aborted by the test
      }
    })();
  }
  return { text: () => text, ended: () => ended, status: res.status, abort: () => ac.abort() };
}

/** `id:` and data seq of every `next` message in a raw SSE text. */
function sseMessages(text: string): { id: number | null; seq: number | null }[] {
  return text
    .split('\n\n')
    .filter((m) => m.includes('event: next'))
    .map((m) => {
      const id = /^id: (\d+)$/m.exec(m)?.[1];
      const data = /^data: (.*)$/m.exec(m)?.[1];
      const seq = data ? ((JSON.parse(data) as { data?: { memoryActivity?: { seq?: number } } }).data?.memoryActivity?.seq ?? null) : null;
      return { id: id === undefined ? null : Number(id), seq };
    });
}

describe.each(ADAPTERS)('live activity over %s', (adapter) => {
  describe('every event kind reaches both clients', () => {
    let d: ClockedDashboard;
    beforeAll(async () => {
      d = await startClockedDashboard(adapter);
    });
    afterAll(() => d.close());

    it('SSE and WS receive every kind with its payload, in log order', async () => {
      const kindsInSchema = dataOf(await d.gql<{ __type: { enumValues: { name: string }[] } }>('{ __type(name: "EventKind") { enumValues { name } } }')).__type.enumValues.map((v) => v.name);
      const feeds = [sseFeed(d.url, activityQuery(), { name: 'sse' }), wsFeed(d.url, activityQuery(), { name: 'ws' })];
      try {
        const start = await prime(d.svc, feeds);
        const gql = async <T,>(q: string, v: Record<string, unknown>): Promise<T> => dataOf(await d.gql<T>(q, v));
        const svc = d.svc;

        const a = (await gql<{ createFact: { id: string } }>('mutation { createFact(input: { text: "The kangaroo cluster runs on k8s" }) { id } }', {})).createFact.id;
        const b = svc.memoryStore({ text: 'The wombat service owns billing' }).fact.id;
        const c = svc.memoryStore({ text: 'The koala job exports invoices' }).fact.id;
        const link = (await gql<{ createLink: { id: string } }>('mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', { s: a, t: b })).createLink.id;
        await gql('mutation($s: ID!, $t: ID!) { createLink(source: $s, target: $t) { id } }', { s: a, t: b });
        await gql('mutation($id: ID!) { changeLinkType(id: $id, linkType: DEPENDS_ON) { id } }', { id: link });
        await gql('mutation($id: ID!) { deleteLink(id: $id) { id } }', { id: link });
        const bc = svc.memoryLink({ sourceId: b, targetId: c, linkType: 'PART_OF' }).link.id;
        await gql('mutation($id: ID!) { pinFact(id: $id) { id } }', { id: a });
        const a2 = (await gql<{ editFact: { id: string } }>('mutation($id: ID!) { editFact(id: $id, input: { text: "The kangaroo cluster runs on k3s" }) { id } }', { id: a })).editFact.id;
        await gql('mutation($id: ID!) { deleteFact(id: $id) { id } }', { id: b });
        const recall = await svc.memoryRecall({ query: 'kangaroo' });
        const st1 = svc.memoryStore({ text: 'the staging db port is 5432', entity: 'staging-db', category: 'technical' }).fact.id;
        const raised = svc.memoryStore({ text: 'the staging db port is not 5432', entity: 'staging-db', category: 'technical' });
        const st2 = raised.fact.id;
        const conflict = raised.conflicts[0]?.id ?? '';
        await gql('mutation($id: ID!) { resolveConflict(id: $id, resolution: keep_new) { id } }', { id: conflict });
        const e = svc.memoryStore({ text: 'The emu maintenance window is open', expiresAt: d.clock.now + HOUR }).fact.id;
        d.clock.advance(2 * HOUR);
        expect(svc.runMaintenance().expired).toBe(1);
        svc.emitPluginEvent('live-test', 'ping', { n: 1 });

        const expected: Partial<Record<keyof ActivityEvent, unknown>>[] = [
          { kind: 'FACT_STORED', factId: a, fact: { id: a, text: 'The kangaroo cluster runs on k8s' } },
          { kind: 'FACT_STORED', factId: b },
          { kind: 'FACT_STORED', factId: c },
          { kind: 'LINK_CREATED', link: { id: link, source: a, target: b, linkType: 'RELATED_TO', strength: 0.5 } },
          { kind: 'LINK_STRENGTHENED', link: { id: link, source: a, target: b, linkType: 'RELATED_TO', strength: 0.6 } },
          { kind: 'LINK_UPDATED', link: { id: link, linkType: 'DEPENDS_ON' } },
          { kind: 'LINK_DELETED', linkIds: [link], link: null },
          { kind: 'LINK_CREATED', link: { id: bc, source: b, target: c, linkType: 'PART_OF' } },
          { kind: 'FACT_UPDATED', factId: a, pinned: true },
          { kind: 'FACT_STORED', factId: a2 },
          { kind: 'LINK_CREATED', link: { source: a2, target: a, linkType: 'SUPERSEDES' } },
          { kind: 'FACT_SUPERSEDED', factId: a2, oldFactId: a },
          { kind: 'FACT_DELETED', factId: b, linkIds: [bc] },
          { kind: 'RECALL', recall: { id: recall.recallId, query: 'kangaroo', scores: recall.results.map((h) => ({ factId: h.fact.id, score: h.score })) } },
          { kind: 'FACT_STORED', factId: st1 },
          { kind: 'FACT_STORED', factId: st2 },
          { kind: 'LINK_CREATED', link: { source: st2, target: st1, linkType: 'CONTRADICTS' } },
          { kind: 'CONFLICT_RAISED', conflict: { id: conflict, status: 'unresolved' } },
          // keep_new: the CONTRADICTS link would join st2 to itself, so it goes (and says so).
          { kind: 'LINK_DELETED', link: null },
          { kind: 'LINK_CREATED', link: { source: st2, target: st1, linkType: 'SUPERSEDES' } },
          { kind: 'FACT_SUPERSEDED', factId: st2, oldFactId: st1 },
          { kind: 'CONFLICT_RESOLVED', conflict: { id: conflict, status: 'resolved' } },
          { kind: 'FACT_STORED', factId: e },
          { kind: 'FACT_ENDED', factId: e, reason: 'expired' },
          { kind: 'PLUGIN', plugin: { pluginId: 'live-test', event: 'ping', data: '{"n":1}' }, factId: null },
        ];
        expect(recall.results.map((h) => h.fact.id)).toEqual([a2]);
        for (const feed of feeds) {
          await feed.until((x) => x.kind === 'PLUGIN', 'plugin');
          const got = feed.after(start);
          expect([feed.name, got.map((x) => x.kind)]).toEqual([feed.name, expected.map((x) => x.kind)]);
          expect(got).toMatchObject(expected);
          // Every event in the log since the probe, once, in order.
          expect(got.map((x) => x.seq)).toEqual(logSeqs(svc, start));
          expect(feed.errors).toEqual([]);
        }
        // Every kind the schema declares was seen (a new kind would fail here until it is covered).
        expect([...new Set(expected.map((x) => String(x.kind)))].sort()).toEqual([...kindsInSchema].sort());
      } finally {
        await Promise.all(feeds.map((f) => f.stop()));
      }
    });
  });

  describe('across processes, resume and filters', () => {
    let d: TestDashboard;
    /** A server restarted on d's port (the resume test); closed before d. */
    let restarted: Dashboard | null = null;
    beforeAll(async () => {
      d = await startTestDashboard(adapter, {}, { pollMs: 50 });
    });
    afterAll(async () => {
      await restarted?.close();
      await d.close();
    });

    it('a fact stored by the CLI in another process reaches SSE and WS subscribers', async () => {
      const feeds = [sseFeed(d.url, activityQuery(), { name: 'sse' }), wsFeed(d.url, activityQuery(), { name: 'ws' })];
      try {
        await prime(d.svc, feeds);
        const r = await cli(d.home.dir, d.home.config.dbPath, ['store', 'The platypus relay listens on 7070', '--category', 'technical']);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        const id = r.stdout.split('\n')[0] ?? '';
        expect(id).toMatch(/^fact_/);
        for (const feed of feeds) {
          await feed.until((e) => e.factId === id, 'the CLI fact', 10_000);
          expect(feed.events.find((e) => e.factId === id)).toMatchObject({ kind: 'FACT_STORED', fact: { id, text: 'The platypus relay listens on 7070' } });
        }
      } finally {
        await Promise.all(feeds.map((f) => f.stop()));
      }
    });

    it('each SSE message carries id: <seq>, also when a burst queues several', async () => {
      const sse = await rawSse(d.url, activityQuery());
      try {
        expect(sse.status).toBe(200);
        await sleep(100);
        const from = d.svc.stats().lastEventSeq;
        const ids = Array.from({ length: 8 }, (_, i) => d.svc.memoryStore({ text: `burst fact ${i} ${Math.random()}` }).fact.id);
        d.svc.memoryStoreMany(Array.from({ length: 5 }, (_, i) => ({ text: `batched burst fact ${i} ${Math.random()}` })));
        await waitFor(() => sseMessages(sse.text()).some((m) => m.seq === d.svc.stats().lastEventSeq), 'the burst');
        const msgs = sseMessages(sse.text()).filter((m) => (m.seq ?? 0) > from);
        expect(msgs).toHaveLength(13);
        for (const m of msgs) expect(m.id).toBe(m.seq);
        expect(msgs.map((m) => m.seq)).toEqual(logSeqs(d.svc, from));
        expect(ids).toHaveLength(8);
      } finally {
        sse.abort();
      }
    });

    it('a client that leaves releases its subscription at once', async () => {
      await waitFor(() => busSubscribers(d.svc) === 0, 'no subscribers left over');
      const sse = sseFeed(d.url, activityQuery());
      const ws = wsFeed(d.url, activityQuery());
      await prime(d.svc, [sse, ws]);
      expect(busSubscribers(d.svc)).toBe(2);
      await sse.stop();
      await ws.stop();
      await waitFor(() => busSubscribers(d.svc) === 0, 'both subscriptions released', 2000);
    });

    it('memoryActivity(after: N) replays from N over SSE and WS; kinds filters; Last-Event-ID alone resumes', async () => {
      const n = d.svc.stats().lastEventSeq;
      const x = d.svc.memoryStore({ text: 'replayed fact x' }).fact.id;
      d.svc.pin(x);
      const y = d.svc.memoryStore({ text: 'replayed fact y' }).fact.id;
      d.svc.memoryLink({ sourceId: x, targetId: y });
      const replay = logSeqs(d.svc, n);
      expect(replay).toHaveLength(4);
      const feeds = [
        sseFeed(d.url, activityQuery(`(after: ${n})`), { name: 'sse after' }),
        wsFeed(d.url, activityQuery(`(after: ${n})`), { name: 'ws after' }),
        sseFeed(d.url, activityQuery(), { name: 'sse last-event-id', headers: { 'last-event-id': String(n) } }),
      ];
      const filtered = [
        sseFeed(d.url, activityQuery(`(after: ${n}, kinds: [FACT_STORED])`), { name: 'sse kinds' }),
        wsFeed(d.url, activityQuery(`(after: ${n}, kinds: [FACT_STORED, LINK_CREATED])`), { name: 'ws kinds' }),
      ];
      try {
        for (const f of [...feeds, ...filtered]) await f.until((e) => e.factId === y || e.kind === 'LINK_CREATED', 'the replay');
        const z = d.svc.memoryStore({ text: 'live fact z' }).fact.id;
        d.svc.pin(z);
        const end = d.svc.memoryStore({ text: 'live end marker' }).fact.id;
        for (const f of [...feeds, ...filtered]) await f.until((e) => e.factId === end, 'the end marker');
        const all = logSeqs(d.svc, n);
        for (const f of feeds) expect([f.name, f.seqs()]).toEqual([f.name, all]);
        const kindOf = (seq: number): string => (d.svc.db.prepare('SELECT kind FROM events WHERE seq = ?').get(seq) as { kind: string }).kind;
        expect(filtered[0]?.seqs()).toEqual(all.filter((s) => kindOf(s) === 'fact.stored'));
        expect(filtered[0]?.events.map((e) => e.factId)).toEqual([x, y, z, end]);
        expect(filtered[1]?.seqs()).toEqual(all.filter((s) => ['fact.stored', 'link.created'].includes(kindOf(s))));
        expect(filtered[1]?.events.map((e) => e.kind)).toEqual(['FACT_STORED', 'FACT_STORED', 'LINK_CREATED', 'FACT_STORED', 'FACT_STORED']);
      } finally {
        await Promise.all([...feeds, ...filtered].map((f) => f.stop()));
      }
    });

    it('a bad resume point is refused with MEM_ERR_INVALID_INPUT', async () => {
      for (const feed of [sseFeed(d.url, activityQuery('(after: -1)')), wsFeed(d.url, activityQuery('(after: 1.5)'))]) {
        try {
          await waitFor(() => feed.errors.length > 0, `${feed.name} error`);
          const err = feed.errors[0] as { extensions?: { code?: string } } | { extensions?: { code?: string } }[];
          const first = Array.isArray(err) ? err[0] : err;
          expect([feed.name, first?.extensions?.code]).toEqual([feed.name, 'MEM_ERR_INVALID_INPUT']);
        } finally {
          await feed.stop();
        }
      }
    });

    it('a graphql-sse client reconnecting with Last-Event-ID (server restarted meanwhile) gets every missed event once, in order', async () => {
      // This test restarts the server over the same service (last in this block: d.url may be gone after it).
      // It asks for the same port; uWebSockets.js may not get it back at once (the closed connections sit in
      // TIME_WAIT and uSockets does not set SO_REUSEADDR), in which case the server falls back to another port,
      // so the client's url follows the running server.
      const svc = d.svc;
      const port = d.server.port;
      let url = d.url;
      let lastSeq: number | null = null;
      const headersSent: (string | null)[] = [];
      const events: ActivityEvent[] = [];
      const errors: unknown[] = [];
      let connects = 0;
      const client = createSseClient({
        url: () => `${url}/graphql`,
        singleConnection: false,
        retryAttempts: 100,
        retry: () => sleep(50),
        headers: (): Record<string, string> => {
          headersSent.push(lastSeq === null ? null : String(lastSeq));
          return lastSeq === null ? {} : { 'last-event-id': String(lastSeq) };
        },
      });
      const unsubscribe = client.subscribe(
        { query: activityQuery() },
        {
          next: (v) => {
            const e = (v.data as { memoryActivity?: ActivityEvent } | null | undefined)?.memoryActivity;
            if (e) {
              events.push(e);
              lastSeq = e.seq;
            }
          },
          error: (e) => errors.push(e),
          complete: () => undefined,
        },
        { connected: () => void connects++ },
      );
      try {
        await waitFor(() => connects === 1, 'first connection');
        for (let i = 0; i < 50 && events.length === 0; i++) {
          svc.memoryStore({ text: `resume probe ${i} ${Math.random()}` });
          await sleep(40);
        }
        expect(events.length).toBeGreaterThan(0);
        const first = svc.memoryStore({ text: 'seen before the restart' }).fact.id;
        await waitFor(() => events.some((e) => e.factId === first), 'the pre-restart fact');
        const seenBefore = events.length;
        const resumeFrom = lastSeq as unknown as number;

        await d.server.close();
        const callsBefore = headersSent.length;
        // While the server is down: changes of several kinds.
        const m1 = svc.memoryStore({ text: 'missed one' }).fact.id;
        const m2 = svc.memoryStore({ text: 'missed two' }).fact.id;
        svc.memoryLink({ sourceId: m1, targetId: m2 });
        svc.pin(m1);
        restarted = await startDashboard({ svc, config: d.home.config, port, server: adapter, record: false });
        url = restarted.url;

        await waitFor(() => connects >= 2, 'the reconnect', 10_000);
        const after = svc.memoryStore({ text: 'live after the restart' }).fact.id;
        await waitFor(() => events.some((e) => e.factId === after), 'the post-restart fact', 10_000);
        await sleep(150); // room for any duplicate to show up
        // Every reconnect attempt named the last event seen before the restart.
        expect(headersSent.length).toBeGreaterThan(callsBefore);
        expect(new Set(headersSent.slice(callsBefore))).toEqual(new Set([String(resumeFrom)]));
        const resumed = events.slice(seenBefore);
        expect(resumed.map((e) => e.seq)).toEqual(logSeqs(svc, resumeFrom));
        expect(resumed.slice(0, 4).map((e) => e.kind)).toEqual(['FACT_STORED', 'FACT_STORED', 'LINK_CREATED', 'FACT_UPDATED']);
        expect(new Set(events.map((e) => e.seq)).size).toBe(events.length);
        expect(errors).toEqual([]);
      } finally {
        unsubscribe();
        client.dispose();
      }
    });
  });

  describe('graceful shutdown', () => {
    it('close() ends open SSE streams and WebSocket connections at once; a second close() is harmless; the port then refuses', async () => {
      const d = await startTestDashboard(adapter);
      const sse = sseFeed(d.url, activityQuery(), { name: 'sse' });
      const ws = wsFeed(d.url, activityQuery(), { name: 'ws' });
      const raw = await rawSse(d.url, activityQuery());
      try {
        await prime(d.svc, [sse, ws]);
        await waitFor(() => raw.text().includes('event: next'), 'the raw stream to carry the probe');
        expect(busSubscribers(d.svc)).toBe(3);
        const started = Date.now();
        await d.server.close();
        expect(Date.now() - started).toBeLessThan(2000);
        await waitFor(() => raw.ended(), 'the raw SSE stream to end', 2000);
        await waitFor(() => sse.ended, 'the SSE client to see the end', 2000);
        await waitFor(() => ws.closed && ws.ended, 'the WS client to see the close', 2000);
        expect(busSubscribers(d.svc)).toBe(0);
        await expect(d.server.close()).resolves.toBeUndefined();
        await expect(fetch(`${d.url}/api/health`)).rejects.toThrow();
        const refused = await new Promise<string>((done) => {
          const sock = new WebSocket(`${d.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
          sock.on('error', (e) => done(String((e as NodeJS.ErrnoException).code)));
          sock.on('open', () => done('open'));
        });
        expect(refused).toBe('ECONNREFUSED');
      } finally {
        raw.abort();
        await sse.stop();
        await ws.stop();
        await d.close();
      }
    });
  });
});
