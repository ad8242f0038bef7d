/** The event log table: append inside a change's transaction; read after a sequence number; trim by age. */
import { prep } from './prepared.js';
import type { Database, Statement } from 'better-sqlite3';
import { EVENT_KINDS, type EventPayload, type MemoryEvent } from '../core/events.js';
import { MemoryError } from '../core/errors.js';
import { GLOBAL_SCOPE } from '../core/types.js';

interface EventRow {
  seq: number;
  kind: string;
  at: number;
  payload: string;
}

export class EventLog {
  private readonly appendStmt: Statement;
  private readonly afterStmt: Statement;

  constructor(private readonly db: Database) {
    this.appendStmt = db.prepare('INSERT INTO events (kind, at, scope_kind, scope_agent, scope_session, payload) VALUES (?, ?, ?, ?, ?, ?)');
    this.afterStmt = db.prepare('SELECT seq, kind, at, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
  }

  /** Append inside the caller's transaction. Returns the event's sequence number. */
  append(payload: EventPayload, at: number): number {
    const primary = payload.scopes[0] ?? GLOBAL_SCOPE;
    const info = this.appendStmt.run(payload.kind, at, primary.kind, primary.agentId, primary.sessionId, JSON.stringify(payload));
    return Number(info.lastInsertRowid);
  }

  /** Up to `limit` events at or before `seq`, newest first. */
  atOrBefore(seq: number, limit = 500): MemoryEvent[] {
    return (prep(this.db, 'SELECT seq, kind, at, payload FROM events WHERE seq <= ? ORDER BY seq DESC LIMIT ?').all(seq, limit) as EventRow[]).map(toEvent);
  }

  after(seq: number, limit = 500): MemoryEvent[] {
    return (this.afterStmt.all(seq, limit) as EventRow[]).map(toEvent);
  }

  lastSeq(): number {
    // AUTOINCREMENT keeps the high-water mark in sqlite_sequence even after trimming.
    const row = prep(this.db, `SELECT seq AS s FROM sqlite_sequence WHERE name = 'events'`).get() as { s: number | null } | undefined;
    return row?.s ?? 0;
  }

  /** Oldest sequence still in the log (a subscriber resuming from before it has missed events). */
  firstSeq(): number {
    const row = prep(this.db, 'SELECT min(seq) AS s FROM events').get() as { s: number | null };
    return row.s ?? 0;
  }

  trim(before: number): number {
    return prep(this.db, 'DELETE FROM events WHERE at < ?').run(before).changes;
  }
}

function toEvent(r: EventRow): MemoryEvent {
  if (!(EVENT_KINDS as readonly string[]).includes(r.kind)) throw new MemoryError('MEM_ERR_DB_CORRUPT', `event ${r.seq} has unknown kind ${r.kind}`);
  let payload: EventPayload;
  try {
    payload = JSON.parse(r.payload) as EventPayload;
  } catch (cause) {
    throw new MemoryError('MEM_ERR_DB_CORRUPT', `event ${r.seq} payload is not valid JSON`, { cause });
  }
  return { ...payload, seq: r.seq, at: r.at };
}
