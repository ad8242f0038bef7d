/**
 * The live stream: memoryActivity over SSE (graphql-sse's distinct-connections protocol). Each event's
 * SSE id is its seq; after a drop the stream reconnects with exponential backoff and sends Last-Event-ID,
 * so nothing is missed, and `onReconnect` lets the app re-fetch its base graph.
 */
import { ACTIVITY } from './documents';
import type { MemoryEvent } from './types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface LiveOptions {
  onEvent: (e: MemoryEvent) => void;
  onStatus: (s: LiveStatus) => void;
  /** Called after a reconnect succeeded (the base graph may be stale). */
  onReconnect: () => void;
  /** The last event the base graph already reflects: the stream resumes after it (none missed before the first event). */
  fromSeq?: number | null;
}

const MAX_BACKOFF_MS = 10_000;

export function connectLive(o: LiveOptions): { close: () => void } {
  let closed = false;
  let lastSeq: number | null = o.fromSeq ?? null;
  let attempt = 0;
  let ctrl: AbortController | null = null;

  const run = async (): Promise<void> => {
    while (!closed) {
      o.onStatus(attempt === 0 ? 'connecting' : 'reconnecting');
      ctrl = new AbortController();
      try {
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
        if (lastSeq !== null) headers['last-event-id'] = String(lastSeq);
        const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: ACTIVITY }), signal: ctrl.signal });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        const reconnected = attempt > 0;
        attempt = 0;
        o.onStatus('live');
        if (reconnected) o.onReconnect();
        await read(res.body);
      } catch {
        // dropped or refused: retry below
      }
      if (closed) break;
      attempt++;
      o.onStatus('reconnecting');
      const wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() / 2);
      await new Promise((r) => setTimeout(r, wait));
    }
    o.onStatus('closed');
  };

  const read = async (body: ReadableStream<Uint8Array>): Promise<void> => {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let event = '';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).trim();
        }
        if (event === 'complete') return;
        if (event !== 'next' || data === '') continue;
        const msg = JSON.parse(data) as { data?: { memoryActivity?: MemoryEvent } };
        const e = msg.data?.memoryActivity;
        if (!e || (lastSeq !== null && e.seq <= lastSeq)) continue;
        lastSeq = e.seq;
        o.onEvent(e);
      }
    }
  };

  void run();
  return {
    close: () => {
      closed = true;
      ctrl?.abort();
    },
  };
}
