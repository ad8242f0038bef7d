/** Delete and pin/unpin: curation transitions on a current fact. */
import type { Caller, Fact } from '../core/types.js';
import { strength } from '../core/strength.js';
import { currentFact } from './access.js';
import type { Ctx } from './context.js';
import { idSchemas, parse } from './inputs.js';
import { endFact, mustGet } from './versions.js';

/**
 * Delete a fact: it stops being current (valid_until = now, so "as of" reads before now still show it),
 * leaves the full-text index, and its links are removed. Maintenance purges it for good after
 * store.deletedRetentionDays.
 */
export function deleteFact(ctx: Ctx, id: string, caller: Caller): Fact {
  const factId = parse(idSchemas.fact, id, 'deleteFact.id');
  return ctx.tx('deleteFact', () => {
    const fact = currentFact(ctx, factId, caller);
    const now = ctx.now();
    endFact(ctx, fact, 'deleted', now);
    return mustGet(ctx, fact.id);
  });
}

/** Pin (stays central, decay frozen) or unpin (decay applies again). Idempotent. */
export function setPinned(ctx: Ctx, id: string, pinned: boolean, caller: Caller): Fact {
  const factId = parse(idSchemas.fact, id, pinned ? 'pin.id' : 'unpin.id');
  return ctx.tx(pinned ? 'pin' : 'unpin', () => {
    const fact = currentFact(ctx, factId, caller);
    if (fact.pinned === pinned) return fact;
    const now = ctx.now();
    ctx.facts.setPinned(fact.id, pinned);
    // Unpinning restarts decay from now: the time spent pinned does not count against the fact.
    if (!pinned) ctx.db.prepare('UPDATE facts SET updated_at = ? WHERE id = ?').run(now, fact.id);
    const updated = mustGet(ctx, fact.id);
    ctx.facts.setStrength(fact.id, strength(updated, now));
    ctx.emit({ kind: 'fact.updated', factId: fact.id, pinned, scopes: [fact.scope] });
    return mustGet(ctx, fact.id);
  });
}
