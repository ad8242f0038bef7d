/**
 * Episodes: a contiguous stretch of one session's activity. The first store or recall of a session opens
 * one; activity after an idle gap (EPISODE_IDLE_GAP_MS) opens the next. Callers without a session id
 * (the local operator) create no episodes.
 */
import { prep } from './prepared.js';
import type { Database } from 'better-sqlite3';
import { newEpisodeId, type EpisodeId } from '../core/ids.js';
import { EPISODE_IDLE_GAP_MS } from '../core/rules.js';
import type { Caller, Episode } from '../core/types.js';
import { toEpisode, type EpisodeRow } from './rows.js';

export class EpisodeRepo {
  constructor(private readonly db: Database) {}

  /** The session's open episode, or a new one; counts the activity. Returns null for a caller without session. */
  touch(caller: Caller, activity: 'fact' | 'recall', title: string, at: number): EpisodeId | null {
    if (!caller.sessionId) return null;
    const open = prep(this.db, 'SELECT * FROM episodes WHERE session_id = ? ORDER BY last_activity_at DESC LIMIT 1')
      .get(caller.sessionId) as EpisodeRow | undefined;
    const col = activity === 'fact' ? 'fact_count' : 'recall_count';
    if (open && at - open.last_activity_at < EPISODE_IDLE_GAP_MS) {
      prep(this.db, `UPDATE episodes SET last_activity_at = max(last_activity_at, ?), ${col} = ${col} + 1 WHERE id = ?`).run(at, open.id);
      return open.id as EpisodeId;
    }
    const id = newEpisodeId(at);
    prep(this.db, `INSERT INTO episodes (id, agent_id, session_id, title, started_at, last_activity_at, ${col}) VALUES (?, ?, ?, ?, ?, ?, 1)`)
      .run(id, caller.agentId, caller.sessionId, title.slice(0, 120), at, at);
    return id;
  }

  get(id: string): Episode | null {
    const row = prep(this.db, 'SELECT * FROM episodes WHERE id = ?').get(id) as EpisodeRow | undefined;
    return row ? toEpisode(row) : null;
  }

  /** Episodes the caller owns (operator: all), newest first. */
  list(caller: Caller, limit = 100): Episode[] {
    const lim = Math.min(Math.max(1, limit), 1000);
    if (caller.role === 'operator') {
      return (prep(this.db, `SELECT * FROM episodes ORDER BY last_activity_at DESC LIMIT ${lim}`).all() as EpisodeRow[]).map(toEpisode);
    }
    return (
      prep(this.db, `SELECT * FROM episodes WHERE (agent_id IS NOT NULL AND agent_id = ?) OR (session_id = ?) ORDER BY last_activity_at DESC LIMIT ${lim}`)
        .all(caller.agentId, caller.sessionId) as EpisodeRow[]
    ).map(toEpisode);
  }
}
