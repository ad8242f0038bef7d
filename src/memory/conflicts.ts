/** Conflicts: opened by CONTRADICTS links (explicit, or from a contradicting new fact); resolved by curation. */
import { MemoryError } from '../core/errors.js';
import { newConflictId } from '../core/ids.js';
import type { Caller, Conflict, Fact } from '../core/types.js';
import { currentFact } from './access.js';
import type { Ctx } from './context.js';
import { parse, resolveSchema } from './inputs.js';
import { supersede } from './versions.js';

/** Open a conflict for a CONTRADICTS pair (newer fact = "new"). Call inside a transaction. */
export function openConflict(ctx: Ctx, a: Fact, b: Fact, reason: string, now: number): Conflict {
  const existing = ctx.conflicts.openBetween(a.id, b.id);
  if (existing) return existing;
  const [newer, older] = a.createdAt >= b.createdAt ? [a, b] : [b, a];
  const conflict: Conflict = { id: newConflictId(now), newFactId: newer.id, oldFactId: older.id, status: 'unresolved', resolution: null, reason, createdAt: now, resolvedAt: null };
  ctx.conflicts.insert(conflict);
  ctx.emit({ kind: 'conflict.raised', conflict, scopes: [newer.scope, older.scope] });
  return conflict;
}

/**
 * Resolve a conflict: keep_new supersedes the old fact by the new one, keep_old the new by the old
 * (both become "resolved"); both_fine keeps both and marks the conflict "reviewed".
 */
export function resolveConflict(ctx: Ctx, input: { id: string; resolution: string }, caller: Caller): Conflict {
  const i = parse(resolveSchema, input, 'resolveConflict');
  return ctx.tx('resolveConflict', () => {
    const c = ctx.conflicts.get(i.id);
    if (!c) throw new MemoryError('MEM_ERR_CONFLICT_NOT_FOUND', `no conflict ${i.id}`);
    if (c.status !== 'unresolved') throw new MemoryError('MEM_ERR_CONFLICT_CLOSED', `conflict ${i.id} is already ${c.status} (${c.resolution})`);
    const now = ctx.now();
    const newer = currentFact(ctx, c.newFactId, caller);
    const older = currentFact(ctx, c.oldFactId, caller);
    if (i.resolution === 'keep_new') supersede(ctx, older, newer.id, now);
    if (i.resolution === 'keep_old') supersede(ctx, newer, older.id, now);
    ctx.conflicts.close(c.id, i.resolution === 'both_fine' ? 'reviewed' : 'resolved', i.resolution, now);
    const closed = ctx.conflicts.get(c.id) as Conflict;
    ctx.emit({ kind: 'conflict.resolved', conflict: closed, scopes: [newer.scope, older.scope] });
    return closed;
  });
}
