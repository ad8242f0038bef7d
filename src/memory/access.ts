/** Loading facts and links for an operation, with the scope and state checks every curation needs. */
import { MemoryError } from '../core/errors.js';
import { isVisible } from '../core/scope.js';
import type { Caller, Fact, Link } from '../core/types.js';
import type { Ctx } from './context.js';

/** A fact version the caller may see (any state). */
export function visibleFact(ctx: Ctx, id: string, caller: Caller): Fact {
  const fact = ctx.facts.get(id);
  if (!fact) throw new MemoryError('MEM_ERR_FACT_NOT_FOUND', `no fact ${id}`);
  // Outside the caller's scope answers exactly as a missing fact: an id never confirms that it exists.
  if (!isVisible(fact.scope, caller)) throw new MemoryError('MEM_ERR_FACT_NOT_FOUND', `no fact ${id}`);
  if (fact.deletedAt !== null && caller.role !== 'operator') throw new MemoryError('MEM_ERR_FACT_NOT_FOUND', `no fact ${id}`);
  return fact;
}

/** The current version of a fact, or a typed error saying why it is not current. */
export function currentFact(ctx: Ctx, id: string, caller: Caller): Fact {
  const fact = visibleFact(ctx, id, caller);
  if (fact.validUntil === null) return fact;
  if (fact.endedReason === 'superseded') {
    const latest = ctx.facts.history(fact.lineageId).findLast((f) => f.validUntil === null);
    const hint = latest ? `; its current version is ${latest.id}` : fact.supersededBy ? `; it was replaced by ${fact.supersededBy}` : '';
    throw new MemoryError('MEM_ERR_FACT_SUPERSEDED', `fact ${id} is superseded${hint}`, {
      details: { currentId: latest?.id ?? fact.supersededBy ?? null },
    });
  }
  throw new MemoryError('MEM_ERR_FACT_ENDED', `fact ${id} is ${fact.endedReason ?? 'ended'}`, { details: { reason: fact.endedReason } });
}

/** A link whose both endpoints are current and visible to the caller. */
export function visibleLink(ctx: Ctx, id: string, caller: Caller): { link: Link; source: Fact; target: Fact } {
  const link = ctx.links.get(id);
  if (!link) throw new MemoryError('MEM_ERR_LINK_NOT_FOUND', `no link ${id}`);
  const source = ctx.facts.get(link.sourceId);
  const target = ctx.facts.get(link.targetId);
  if (!source || !target) throw new MemoryError('MEM_ERR_LINK_NOT_FOUND', `link ${id} has a missing endpoint`);
  if (!isVisible(source.scope, caller) || !isVisible(target.scope, caller)) throw new MemoryError('MEM_ERR_LINK_NOT_FOUND', `no link ${id}`);
  return { link, source, target };
}
