/** Fact rows: insert, read (scope-filtered in SQL), version chain, end-of-life transitions. */
import { prep } from './prepared.js';
import { createHash } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { Visibility } from '../core/scope.js';
import type { FactId } from '../core/ids.js';
import type { Category, EndReason, Fact } from '../core/types.js';
import { FACT_COLUMNS, factRow, toFact, type FactRow } from './rows.js';
import { scopeSql } from './scope-sql.js';

/** Everything needed to write a new fact version. */
export type NewFact = Omit<Fact, 'deletedAt' | 'endedReason' | 'validUntil' | 'supersededBy' | 'lastRecalledAt' | 'recallCount'> & {
  readonly strength: number;
};

export interface FactFilter {
  readonly category?: Category;
  /** Any of these categories. */
  readonly categories?: readonly Category[];
  readonly entity?: string;
  /** Case-insensitive substring of the text or the entity. */
  readonly contains?: string;
  readonly tag?: string;
  /** Include superseded versions (default: current facts only). */
  readonly includeSuperseded?: boolean;
  readonly minStrength?: number;
  readonly limit?: number;
  /** Return facts created before this fact id (descending pages). */
  readonly before?: FactId;
}

export const MAX_PAGE = 1000;

/** A fact as turnsAfter reads it. */
export interface StoredTurn {
  readonly seq: number;
  readonly id: FactId;
  readonly text: string;
  readonly createdAt: number;
  readonly validUntil: number | null;
  readonly category: Category;
}

export class FactRepo {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(`INSERT INTO facts (id, text, category, entity, tags, tags_text, importance, confidence, decay_class,
      expires_at, pinned, scope_kind, scope_agent, scope_session, lineage_id, version, supersedes, created_at, updated_at,
      valid_from, episode_id, vault_service, source, strength, dedupe_key)
      VALUES (@id, @text, @category, @entity, @tags, @tags_text, @importance, @confidence, @decay_class, @expires_at, @pinned,
      @scope_kind, @scope_agent, @scope_session, @lineage_id, @version, @supersedes, @created_at, @updated_at, @valid_from,
      @episode_id, @vault_service, @source, @strength, @dedupe_key)`);
    this.byIdStmt = db.prepare(`SELECT ${FACT_COLUMNS} FROM facts f WHERE f.id = ?`).raw();
  }

  insert(f: NewFact): void {
    this.insertStmt.run({
      id: f.id,
      text: f.text,
      category: f.category,
      entity: f.entity,
      tags: JSON.stringify(f.tags),
      tags_text: f.tags.join(' '),
      importance: f.importance,
      confidence: f.confidence,
      decay_class: f.decayClass,
      expires_at: f.expiresAt,
      pinned: f.pinned ? 1 : 0,
      scope_kind: f.scope.kind,
      scope_agent: f.scope.agentId,
      scope_session: f.scope.sessionId,
      lineage_id: f.lineageId,
      version: f.version,
      supersedes: f.supersedes,
      created_at: f.createdAt,
      updated_at: f.updatedAt,
      valid_from: f.validFrom,
      episode_id: f.episodeId,
      vault_service: f.vaultService,
      source: f.source,
      strength: f.strength,
      dedupe_key: dedupeKey(f),
    });
  }

  /** Any version, deleted or not, with no scope check (callers check scope). */
  get(id: string): Fact | null {
    const row = this.byIdStmt.get(id) as unknown[] | undefined;
    return row ? toFact(factRow(row)) : null;
  }

  /** Current (not ended) facts on one entity and category, for conflict detection. */
  currentOnEntity(entity: string, category: Category, v: Visibility, limit = 50): Fact[] {
    const scope = scopeSql(v);
    const rows = prep(this.db, `SELECT * FROM facts f WHERE f.entity = ? COLLATE NOCASE AND f.category = ? AND f.valid_until IS NULL AND ${scope.sql} ORDER BY f.seq DESC LIMIT ?`)
      .all(entity, category, ...scope.params, limit) as FactRow[];
    return rows.map(toFact);
  }

  /** A current fact with exactly this text, category, entity and scope (duplicate detection, indexed). */
  findDuplicate(f: Pick<NewFact, 'text' | 'entity' | 'category' | 'scope'>): Fact | null {
    const rows = prep(this.db, 'SELECT * FROM facts WHERE dedupe_key = ? AND valid_until IS NULL').all(dedupeKey(f)) as FactRow[];
    const same = rows.map(toFact).find(
      (x) => x.text === f.text && x.category === f.category && x.entity === f.entity && x.scope.kind === f.scope.kind && x.scope.agentId === f.scope.agentId && x.scope.sessionId === f.scope.sessionId,
    );
    return same ?? null;
  }

  /** The current pointer fact for a vault entry in exactly this scope. */
  vaultPointer(service: string, scope: Fact['scope']): Fact | null {
    const row = prep(this.db, 'SELECT * FROM facts WHERE vault_service = ? AND scope_kind = ? AND scope_agent IS ? AND scope_session IS ? AND valid_until IS NULL LIMIT 1')
      .get(service, scope.kind, scope.agentId, scope.sessionId) as FactRow | undefined;
    return row ? toFact(row) : null;
  }

  /** End a version's validity (superseded, deleted, expired or decayed). */
  end(id: FactId, reason: EndReason, at: number, supersededBy: FactId | null = null): void {
    prep(this.db, `UPDATE facts SET valid_until = ?, ended_reason = ?, superseded_by = coalesce(?, superseded_by),
        deleted_at = CASE WHEN ? = 'deleted' THEN ? ELSE deleted_at END WHERE id = ? AND valid_until IS NULL`)
      .run(at, reason, supersededBy, reason, at, id);
  }

  setPinned(id: FactId, pinned: boolean): void {
    prep(this.db, 'UPDATE facts SET pinned = ? WHERE id = ?').run(pinned ? 1 : 0, id);
  }

  markRecalled(ids: readonly FactId[], at: number): void {
    const stmt = prep(this.db, 'UPDATE facts SET recall_count = recall_count + 1, last_recalled_at = ? WHERE id = ?');
    for (const id of ids) stmt.run(at, id);
  }

  setStrength(id: FactId, strength: number): void {
    prep(this.db, 'UPDATE facts SET strength = ? WHERE id = ?').run(strength, id);
  }

  /** Every version of one fact, oldest first. */
  history(lineageId: FactId): Fact[] {
    return (prep(this.db, 'SELECT * FROM facts WHERE lineage_id = ? ORDER BY version').all(lineageId) as FactRow[]).map(toFact);
  }

  /** Facts visible to the caller, newest first. */
  list(v: Visibility, filter: FactFilter = {}, cap = MAX_PAGE): Fact[] {
    const where: string[] = [filter.includeSuperseded ? 'f.deleted_at IS NULL' : 'f.valid_until IS NULL'];
    const params: (string | number)[] = [];
    const scope = scopeSql(v);
    where.push(scope.sql);
    params.push(...scope.params);
    this.addFilters(filter, where, params);
    if (filter.before) {
      where.push('f.seq < (SELECT seq FROM facts WHERE id = ?)');
      params.push(filter.before);
    }
    const limit = Math.min(Math.max(1, filter.limit ?? 100), cap);
    const sql = `SELECT f.* FROM facts f WHERE ${where.join(' AND ')} ORDER BY f.seq DESC LIMIT ${limit}`;
    return (prep(this.db, sql).all(...params) as FactRow[]).map(toFact);
  }

  /** Current visible facts with no link to another current fact the caller may see, newest first. */
  orphans(v: Visibility, limit: number): Fact[] {
    const f = scopeSql(v, 'f');
    const o = scopeSql(v, 'o');
    const sql = `SELECT f.* FROM facts f WHERE f.valid_until IS NULL AND ${f.sql} AND NOT EXISTS (
        SELECT 1 FROM links l JOIN facts o ON o.id = CASE WHEN l.source_id = f.id THEN l.target_id ELSE l.source_id END
        WHERE (l.source_id = f.id OR l.target_id = f.id) AND o.valid_until IS NULL AND ${o.sql})
      ORDER BY f.seq DESC LIMIT ${Math.min(Math.max(1, limit), MAX_PAGE)}`;
    return (prep(this.db, sql).all(...f.params, ...o.params) as FactRow[]).map(toFact);
  }

  /**
   * Candidates for "stale": current, unpinned, not permanent, and either idle past `idleBefore[class]`
   * (epoch ms of the last update or recall) or with a stored strength below `weakerThan`. Oldest activity first.
   */
  staleCandidates(v: Visibility, idleBefore: Readonly<Record<'stable' | 'episodic' | 'volatile', number>>, weakerThan: number, limit: number): Fact[] {
    const scope = scopeSql(v);
    const idle = 'max(f.updated_at, coalesce(f.last_recalled_at, 0))';
    const sql = `SELECT f.* FROM facts f WHERE f.valid_until IS NULL AND f.pinned = 0 AND f.decay_class != 'permanent' AND ${scope.sql}
      AND ((f.decay_class = 'stable' AND ${idle} < ?) OR (f.decay_class = 'episodic' AND ${idle} < ?) OR (f.decay_class = 'volatile' AND ${idle} < ?)
        OR f.strength < ?)
      ORDER BY ${idle} LIMIT ${Math.min(Math.max(1, limit), MAX_PAGE)}`;
    return (prep(this.db, sql).all(...scope.params, idleBefore.stable, idleBefore.episodic, idleBefore.volatile, weakerThan) as FactRow[]).map(toFact);
  }

  /**
   * The facts that were current at time `t`, as the caller may see them: every version whose validity
   * interval [validFrom, validUntil) contains t. Purged facts (hard-deleted by retention) are gone.
   */
  asOf(t: number, v: Visibility, filter: Omit<FactFilter, 'includeSuperseded' | 'minStrength' | 'before'> = {}, cap = MAX_PAGE): Fact[] {
    const where = ['f.valid_from <= ?', '(f.valid_until IS NULL OR f.valid_until > ?)'];
    const params: (string | number)[] = [t, t];
    const scope = scopeSql(v);
    where.push(scope.sql);
    params.push(...scope.params);
    this.addFilters(filter, where, params);
    const limit = Math.min(Math.max(1, filter.limit ?? 100), cap);
    const sql = `SELECT f.* FROM facts f WHERE ${where.join(' AND ')} ORDER BY f.seq DESC LIMIT ${limit}`;
    return (prep(this.db, sql).all(...params) as FactRow[]).map(toFact);
  }

  /** When the earliest fact the caller may see became valid (any version, purged ones aside), or null. */
  firstValidFrom(v: Visibility): number | null {
    const scope = scopeSql(v);
    return (prep(this.db, `SELECT min(f.valid_from) FROM facts f WHERE ${scope.sql}`).pluck().get(...scope.params) as number | null) ?? null;
  }

  /** Counts for stats: current facts (total and per category) and superseded versions. */
  counts(v: Visibility): { current: number; superseded: number; byCategory: Record<string, number> } {
    const scope = scopeSql(v);
    const rows = prep(this.db, `SELECT f.category AS category, sum(f.valid_until IS NULL) AS current, sum(f.ended_reason = 'superseded') AS superseded
        FROM facts f WHERE f.deleted_at IS NULL AND ${scope.sql} GROUP BY f.category`)
      .all(...scope.params) as { category: string; current: number; superseded: number }[];
    const byCategory: Record<string, number> = {};
    let current = 0;
    let superseded = 0;
    for (const r of rows) {
      byCategory[r.category] = r.current;
      current += r.current;
      superseded += r.superseded;
    }
    return { current, superseded, byCategory };
  }

  /** The rowid (seq) of each fact id; unknown ids are absent from the map. */
  seqsOf(ids: readonly string[]): Map<string, number> {
    if (ids.length === 0) return new Map();
    const rows = prep(this.db, `SELECT id, seq FROM facts WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { id: string; seq: number }[];
    return new Map(rows.map((r) => [r.id, r.seq]));
  }

  /** Facts by rowid, in the order asked, each with its seq; unknown seqs are skipped. */
  bySeqs(seqs: readonly number[]): (Fact & { readonly seq: number })[] {
    if (seqs.length === 0) return [];
    const rows = (prep(this.db, `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.seq IN (${seqs.map(() => '?').join(',')})`).raw().all(...seqs) as unknown[][]).map(factRow);
    const bySeq = new Map(rows.map((r) => [r.seq, { ...toFact(r), seq: r.seq }]));
    return seqs.flatMap((s) => bySeq.get(s) ?? []);
  }

  /**
   * The fact stored next to `seq` in the same scope, not deleted: the one just before (`-1`) or just after
   * (`1`), looked for among the next 256 rows either way (a dialogue turn's neighbour is stored beside it).
   */
  storedBeside(f: { readonly seq: number; readonly scope: Fact['scope'] }, direction: -1 | 1): (Fact & { readonly seq: number }) | null {
    const sql =
      direction < 0
        ? 'SELECT * FROM facts WHERE seq < ? AND seq >= ? - 256 AND scope_kind = ? AND scope_agent IS ? AND scope_session IS ? AND deleted_at IS NULL ORDER BY seq DESC LIMIT 1'
        : 'SELECT * FROM facts WHERE seq > ? AND seq <= ? + 256 AND scope_kind = ? AND scope_agent IS ? AND scope_session IS ? AND deleted_at IS NULL ORDER BY seq LIMIT 1';
    const row = prep(this.db, sql).get(f.seq, f.seq, f.scope.kind, f.scope.agentId, f.scope.sessionId) as FactRow | undefined;
    return row ? { ...toFact(row), seq: row.seq } : null;
  }

  /**
   * For each of these facts, the `n` facts stored next after it in the same scope, not deleted, in order
   * (looked for as storedBeside looks), with only what tells whether they continue a dialogue turn: one
   * cheap read for recall's replies (src/memory/recall.ts), which fetches whole facts only for those it keeps.
   */
  storedAfter(ids: readonly string[], n: number): Map<string, StoredTurn[]> {
    const sql = `SELECT s.id AS after, t.seq, t.id, t.text, t.created_at AS createdAt, t.valid_until AS validUntil, t.category
      FROM facts s JOIN facts t ON t.seq IN (SELECT f.seq FROM facts f WHERE f.seq > s.seq AND f.seq <= s.seq + 256 AND f.scope_kind = s.scope_kind
        AND f.scope_agent IS s.scope_agent AND f.scope_session IS s.scope_session AND f.deleted_at IS NULL ORDER BY f.seq LIMIT ?)
      WHERE s.id IN (SELECT value FROM json_each(?)) ORDER BY s.id, t.seq`;
    const out = new Map<string, StoredTurn[]>();
    if (ids.length === 0) return out;
    for (const { after, ...turn } of prep(this.db, sql).all(n, JSON.stringify(ids)) as (StoredTurn & { after: string })[]) {
      const list = out.get(after) ?? [];
      list.push(turn);
      out.set(after, list);
    }
    return out;
  }

  /** Current facts whose text has a ": " within its first 120 characters (the dialogue turns among them, unfiltered; a time stamp may come first). */
  turnCandidates(): { readonly seq: number; readonly text: string }[] {
    return prep(this.db, "SELECT seq, text FROM facts WHERE valid_until IS NULL AND instr(substr(text, 1, 120), ': ') > 1").all() as { seq: number; text: string }[];
  }

  /** Which of these ids the caller may see. */
  visibleIds(ids: readonly string[], v: Visibility): string[] {
    if (ids.length === 0) return [];
    const scope = scopeSql(v);
    const marks = ids.map(() => '?').join(',');
    return prep(this.db, `SELECT f.id FROM facts f WHERE f.id IN (${marks}) AND ${scope.sql}`).pluck().all(...ids, ...scope.params) as string[];
  }

  /** Current facts whose scheduled expiry has passed. */
  dueForExpiry(now: number, limit = 1000): FactId[] {
    return (prep(this.db, 'SELECT id FROM facts WHERE expires_at IS NOT NULL AND expires_at <= ? AND valid_until IS NULL LIMIT ?').all(now, limit) as { id: FactId }[]).map(
      (r) => r.id,
    );
  }

  /** Iterate current facts in pages (maintenance). */
  currentPage(afterSeq: number, limit: number): (Fact & { seq: number })[] {
    const rows = prep(this.db, 'SELECT * FROM facts WHERE valid_until IS NULL AND seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as FactRow[];
    return rows.map((r) => ({ ...toFact(r), seq: r.seq }));
  }

  /** Hard-delete facts deleted before `before` (retention). Returns how many. */
  purgeDeleted(before: number): number {
    return prep(this.db, 'DELETE FROM facts WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(before).changes;
  }

  private addFilters(filter: Omit<FactFilter, 'includeSuperseded' | 'before'>, where: string[], params: (string | number)[]): void {
    if (filter.category) {
      where.push('f.category = ?');
      params.push(filter.category);
    }
    if (filter.categories && filter.categories.length > 0) {
      where.push(`f.category IN (${filter.categories.map(() => '?').join(',')})`);
      params.push(...filter.categories);
    }
    if (filter.entity) {
      where.push('f.entity = ? COLLATE NOCASE');
      params.push(filter.entity);
    }
    if (filter.contains) {
      const like = `%${filter.contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("(f.text LIKE ? ESCAPE '\\' OR f.entity LIKE ? ESCAPE '\\')");
      params.push(like, like);
    }
    if (filter.tag) {
      where.push('EXISTS (SELECT 1 FROM json_each(f.tags) t WHERE t.value = ?)');
      params.push(filter.tag);
    }
    if (filter.minStrength !== undefined) {
      where.push('f.strength >= ?');
      params.push(filter.minStrength);
    }
  }
}

/** Hash of what makes two facts duplicates. */
function dedupeKey(f: Pick<NewFact, 'text' | 'entity' | 'category' | 'scope'>): string {
  return createHash('sha256')
    .update(JSON.stringify([f.text, f.category, f.entity, f.scope.kind, f.scope.agentId, f.scope.sessionId]))
    .digest('base64url')
    .slice(0, 22);
}
