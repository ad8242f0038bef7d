/** Link rows. Visibility of a link = visibility of both endpoints (checked in SQL). */
import { prep } from './prepared.js';
import type { Database } from 'better-sqlite3';
import type { FactId, LinkId } from '../core/ids.js';
import type { Visibility } from '../core/scope.js';
import type { Link, LinkType } from '../core/types.js';
import { toLink, type LinkRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

/** The most links one list returns (a graph of ~10k facts). */
export const MAX_LINKS = 50_000;

export class LinkRepo {
  constructor(private readonly db: Database) {}

  insert(l: Link): void {
    prep(this.db, `INSERT INTO links (id, source_id, target_id, link_type, strength, created_at, updated_at, last_strengthened_at, reinforcements)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(l.id, l.sourceId, l.targetId, l.linkType, l.strength, l.createdAt, l.updatedAt, l.lastStrengthenedAt, l.reinforcements);
  }

  get(id: string): Link | null {
    const row = prep(this.db, 'SELECT * FROM links WHERE id = ?').get(id) as LinkRow | undefined;
    return row ? toLink(row) : null;
  }

  find(sourceId: FactId, targetId: FactId, linkType: LinkType): Link | null {
    const row = prep(this.db, 'SELECT * FROM links WHERE source_id = ? AND target_id = ? AND link_type = ?').get(sourceId, targetId, linkType) as
      | LinkRow
      | undefined;
    return row ? toLink(row) : null;
  }

  /**
   * Links between any two of the given facts (either direction). One statement whatever the count (ids as JSON).
   * The unary `+` keeps target_id out of the index look-up: with both IN lists on the (source_id, target_id, ...)
   * index SQLite probes every (source, target) pair, n² probes (1000 ids: ~120 ms); this way it probes by
   * source_id (n look-ups) and tests target_id against the second list (~3 ms).
   */
  among(ids: readonly FactId[]): Link[] {
    if (ids.length < 2) return [];
    const list = JSON.stringify(ids);
    return (
      prep(this.db, 'SELECT * FROM links WHERE source_id IN (SELECT value FROM json_each(?)) AND +target_id IN (SELECT value FROM json_each(?))').all(
        list,
        list,
      ) as LinkRow[]
    ).map(toLink);
  }

  /**
   * Links made by time `t` between any versions of these lineages, each with its ends' lineages. A link
   * moves to the new version when a fact is edited, so a past view finds it through the lineage.
   */
  amongLineages(lineageIds: readonly string[], t: number): { link: Link; sourceLineage: string; targetLineage: string }[] {
    if (lineageIds.length < 2) return [];
    const list = JSON.stringify(lineageIds);
    const rows = prep(
      this.db,
      `SELECT l.*, s.lineage_id AS source_lineage, d.lineage_id AS target_lineage FROM links l
        JOIN facts s ON s.id = l.source_id JOIN facts d ON d.id = l.target_id
        WHERE l.created_at <= ? AND s.lineage_id IN (SELECT value FROM json_each(?)) AND d.lineage_id IN (SELECT value FROM json_each(?))`,
    ).all(t, list, list) as (LinkRow & { source_lineage: string; target_lineage: string })[];
    return rows.map((r) => ({ link: toLink(r), sourceLineage: r.source_lineage, targetLineage: r.target_lineage }));
  }

  /** Links touching a fact. */
  touching(id: FactId): Link[] {
    return (prep(this.db, 'SELECT * FROM links WHERE source_id = ? OR target_id = ?').all(id, id) as LinkRow[]).map(toLink);
  }

  setStrength(id: LinkId, strength: number, at: number): void {
    prep(this.db, 'UPDATE links SET strength = ?, updated_at = ?, last_strengthened_at = ?, reinforcements = reinforcements + 1 WHERE id = ?')
      .run(strength, at, at, id);
  }

  setType(id: LinkId, linkType: LinkType, at: number): void {
    prep(this.db, 'UPDATE links SET link_type = ?, updated_at = ? WHERE id = ?').run(linkType, at, id);
  }

  delete(id: LinkId): void {
    prep(this.db, 'DELETE FROM links WHERE id = ?').run(id);
  }

  /** Move every link from one fact version to its successor (edit text keeps the fact's links). */
  /** Move `fromId`'s links to `toId`; returns the links dropped instead (see below), for their events. */
  repoint(fromId: FactId, toId: FactId, at: number): { id: LinkId; sourceId: FactId; targetId: FactId }[] {
    // A link that would duplicate one the successor already has (or link it to itself) is dropped.
    const dropped = prep(this.db, `DELETE FROM links WHERE (source_id = ? AND (target_id = ? OR EXISTS (SELECT 1 FROM links l2 WHERE l2.source_id = ? AND l2.target_id = links.target_id AND l2.link_type = links.link_type)))
      OR (target_id = ? AND (source_id = ? OR EXISTS (SELECT 1 FROM links l2 WHERE l2.target_id = ? AND l2.source_id = links.source_id AND l2.link_type = links.link_type)))
      RETURNING id, source_id AS sourceId, target_id AS targetId`)
      .all(fromId, toId, toId, fromId, toId, toId) as { id: LinkId; sourceId: FactId; targetId: FactId }[];
    prep(this.db, 'UPDATE links SET source_id = ?, updated_at = ? WHERE source_id = ?').run(toId, at, fromId);
    prep(this.db, 'UPDATE links SET target_id = ?, updated_at = ? WHERE target_id = ?').run(toId, at, fromId);
    return dropped;
  }

  deleteTouching(id: FactId): LinkId[] {
    const ids = (prep(this.db, 'SELECT id FROM links WHERE source_id = ? OR target_id = ?').all(id, id) as { id: LinkId }[]).map((r) => r.id);
    prep(this.db, 'DELETE FROM links WHERE source_id = ? OR target_id = ?').run(id, id);
    return ids;
  }

  /** Links whose both endpoints are current facts the caller may see. */
  list(v: Visibility, options: { limit?: number; factId?: FactId; weak?: { below: number; idleBefore: number } } = {}): Link[] {
    const s = scopeSql(v, 's');
    const t = scopeSql(v, 't');
    const where = ['s.valid_until IS NULL', 't.valid_until IS NULL', s.sql, t.sql];
    const params: (string | number)[] = [...s.params, ...t.params];
    if (options.factId) {
      where.push('(l.source_id = ? OR l.target_id = ?)');
      params.push(options.factId, options.factId);
    }
    if (options.weak) {
      where.push('l.strength < ?', 'max(l.created_at, coalesce(l.last_strengthened_at, 0)) <= ?');
      params.push(options.weak.below, options.weak.idleBefore);
    }
    const limit = Math.min(Math.max(1, options.limit ?? 1000), MAX_LINKS);
    const sql = `SELECT l.* FROM links l JOIN facts s ON s.id = l.source_id JOIN facts t ON t.id = l.target_id
      WHERE ${where.join(' AND ')} ORDER BY l.seq DESC LIMIT ${limit}`;
    return (prep(this.db, sql).all(...params) as LinkRow[]).map(toLink);
  }

  /** How many links the caller may see (both endpoints current and visible). */
  count(v: Visibility): number {
    const s = scopeSql(v, 's');
    const t = scopeSql(v, 't');
    return prep(this.db, `SELECT count(*) FROM links l JOIN facts s ON s.id = l.source_id JOIN facts t ON t.id = l.target_id
        WHERE s.valid_until IS NULL AND t.valid_until IS NULL AND ${s.sql} AND ${t.sql}`)
      .pluck()
      .get(...s.params, ...t.params) as number;
  }
}
