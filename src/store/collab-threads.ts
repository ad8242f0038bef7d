/** Suggestions and comments on facts in spaces. */
import type { Database } from 'better-sqlite3';
import type { FactComment, FactSuggestion, SuggestionStatus } from '../core/collab.js';
import type { CommentId, FactId, SuggestionId } from '../core/ids.js';
import { toComment, toSuggestion, type CommentRow, type SuggestionRow } from './collab-rows.js';
import { prep } from './prepared.js';

export class SuggestionRepo {
  constructor(private readonly db: Database) {}

  insert(s: FactSuggestion, lineageId: FactId): void {
    prep(this.db, `INSERT INTO collab_suggestions (id, space_id, suggested_by, suggestion_type, fact_id, lineage_id, new_text, reason, status,
      created_at, decided_by, decided_at, applied_fact_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(s.id, s.spaceId, s.suggestedBy, s.suggestionType, s.factId, lineageId, s.newText, s.reason, s.status, s.createdAt, s.decidedBy, s.decidedAt, s.appliedFactId);
  }

  get(id: string): FactSuggestion | null {
    const row = prep(this.db, 'SELECT * FROM collab_suggestions WHERE id = ?').get(id) as SuggestionRow | undefined;
    return row ? toSuggestion(row) : null;
  }

  /** The space's suggestions (optionally of one status), oldest first. */
  list(spaceId: string, status: SuggestionStatus | null, limit: number): FactSuggestion[] {
    const rows = status
      ? prep(this.db, 'SELECT * FROM collab_suggestions WHERE space_id = ? AND status = ? ORDER BY seq LIMIT ?').all(spaceId, status, limit)
      : prep(this.db, 'SELECT * FROM collab_suggestions WHERE space_id = ? ORDER BY seq LIMIT ?').all(spaceId, limit);
    return (rows as SuggestionRow[]).map(toSuggestion);
  }

  updatePending(id: SuggestionId, fields: { newText: string | null; reason: string | null }): void {
    prep(this.db, `UPDATE collab_suggestions SET new_text = ?, reason = ? WHERE id = ? AND status = 'pending'`).run(fields.newText, fields.reason, id);
  }

  decide(id: SuggestionId, status: Exclude<SuggestionStatus, 'pending'>, by: string, at: number, appliedFactId: FactId | null): void {
    prep(this.db, `UPDATE collab_suggestions SET status = ?, decided_by = ?, decided_at = ?, applied_fact_id = ? WHERE id = ? AND status = 'pending'`)
      .run(status, by, at, appliedFactId, id);
  }

  delete(id: SuggestionId): void {
    prep(this.db, 'DELETE FROM collab_suggestions WHERE id = ?').run(id);
  }
}

export class CommentRepo {
  constructor(private readonly db: Database) {}

  insert(c: FactComment, lineageId: FactId): void {
    prep(this.db, `INSERT INTO collab_comments (id, space_id, fact_id, lineage_id, author_id, text, created_at, updated_at, resolved, resolved_by, resolved_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(c.id, c.spaceId, c.factId, lineageId, c.authorId, c.text, c.createdAt, c.updatedAt, c.resolved ? 1 : 0, c.resolvedBy, c.resolvedAt);
  }

  get(id: string): FactComment | null {
    const row = prep(this.db, 'SELECT * FROM collab_comments WHERE id = ?').get(id) as CommentRow | undefined;
    return row ? toComment(row) : null;
  }

  /** Comments in the space on any version of the fact's lineage, oldest first. */
  listForFact(spaceId: string, lineageId: FactId, options: { unresolvedOnly: boolean; limit: number }): FactComment[] {
    const sql = `SELECT * FROM collab_comments WHERE space_id = ? AND lineage_id = ?${options.unresolvedOnly ? ' AND resolved = 0' : ''} ORDER BY seq LIMIT ?`;
    return (prep(this.db, sql).all(spaceId, lineageId, options.limit) as CommentRow[]).map(toComment);
  }

  setText(id: CommentId, text: string, at: number): void {
    prep(this.db, 'UPDATE collab_comments SET text = ?, updated_at = ? WHERE id = ?').run(text, at, id);
  }

  /** Resolve (with who and when) or reopen (clearing them). */
  setResolved(id: CommentId, resolved: { by: string; at: number } | null): void {
    prep(this.db, 'UPDATE collab_comments SET resolved = ?, resolved_by = ?, resolved_at = ? WHERE id = ?')
      .run(resolved ? 1 : 0, resolved?.by ?? null, resolved?.at ?? null, id);
  }

  delete(id: CommentId): void {
    prep(this.db, 'DELETE FROM collab_comments WHERE id = ?').run(id);
  }
}
