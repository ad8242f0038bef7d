/** The version chain: inserting a fact version and superseding one version by another. */
import { MemoryError } from '../core/errors.js';
import { newFactId, newLinkId, type FactId } from '../core/ids.js';
import { strength } from '../core/strength.js';
import type { Fact } from '../core/types.js';
import type { NewFact } from '../store/facts.js';
import { brief, type Ctx } from './context.js';

/** Insert a fact row (strength computed) and its fact.stored event. Call inside a transaction. */
export function insertFact(ctx: Ctx, f: NewFact, now: number): void {
  const s = strength({ ...f, recallCount: 0, lastRecalledAt: null }, now);
  ctx.facts.insert({ ...f, strength: s });
  ctx.emit({ kind: 'fact.stored', fact: brief({ ...f, recallCount: 0, lastRecalledAt: null }, now), scopes: [f.scope] });
}

/**
 * End `old` as superseded by `newId`: its links move to the successor (a link the successor already has,
 * or one between the two, is dropped, with a link.deleted event), a SUPERSEDES link records the
 * replacement, and a fact.superseded event is emitted. Call inside a transaction.
 */
export function supersede(ctx: Ctx, old: Fact, newId: FactId, now: number): void {
  ctx.facts.end(old.id, 'superseded', now, newId);
  const dropped = ctx.links.repoint(old.id, newId, now);
  ctx.conflicts.repoint(old.id, newId, now);
  const successor = mustGet(ctx, newId);
  for (const l of dropped) {
    const other = l.sourceId === old.id ? l.targetId : l.sourceId;
    const scopes = other === old.id || other === newId ? [old.scope, successor.scope] : [old.scope, mustGet(ctx, other).scope];
    ctx.emit({ kind: 'link.deleted', linkId: l.id, sourceId: l.sourceId, targetId: l.targetId, scopes });
  }
  if (!ctx.links.find(newId, old.id, 'SUPERSEDES')) {
    const link = { id: newLinkId(now), sourceId: newId, targetId: old.id, linkType: 'SUPERSEDES' as const, strength: 1, createdAt: now, updatedAt: now, lastStrengthenedAt: null, reinforcements: 0 };
    ctx.links.insert(link);
    ctx.emit({ kind: 'link.created', link, scopes: [successor.scope, old.scope] });
  }
  ctx.emit({ kind: 'fact.superseded', oldId: old.id, newId, scopes: [old.scope, successor.scope] });
}

/** End a current fact (deleted, expired or decayed): its links go, its open conflicts settle. Inside a transaction. */
export function endFact(ctx: Ctx, fact: Fact, reason: 'deleted' | 'expired' | 'decayed', now: number): void {
  const linkIds = ctx.links.deleteTouching(fact.id);
  ctx.facts.end(fact.id, reason, now);
  ctx.conflicts.closeInvolving(fact.id, now);
  ctx.emit(
    reason === 'deleted'
      ? { kind: 'fact.deleted', factId: fact.id, linkIds, scopes: [fact.scope] }
      : { kind: 'fact.ended', factId: fact.id, reason, scopes: [fact.scope] },
  );
}

/** The content fields of a fact version; the version-chain and time fields are derived by `writeVersion`. */
export type FactContent = Omit<NewFact, 'id' | 'lineageId' | 'version' | 'supersedes' | 'createdAt' | 'updatedAt' | 'validFrom' | 'strength'>;

/**
 * Write a new fact version: a first version, or (with `old`) the next version of `old`'s lineage, which
 * `old` is then superseded by. Returns the new id. Call inside a transaction.
 */
export function writeVersion(ctx: Ctx, content: FactContent, old: Fact | null, now: number): FactId {
  const id = newFactId(now);
  const fact: NewFact = {
    ...content,
    id,
    lineageId: old ? old.lineageId : id,
    version: old ? old.version + 1 : 1,
    supersedes: old ? old.id : null,
    createdAt: now,
    updatedAt: now,
    validFrom: now,
    strength: 0,
  };
  insertFact(ctx, fact, now);
  if (old) supersede(ctx, old, id, now);
  return id;
}

export function mustGet(ctx: Ctx, id: FactId): Fact {
  const f = ctx.facts.get(id);
  if (!f) throw new MemoryError('MEM_ERR_INTERNAL', `fact ${id} vanished inside its own transaction`);
  return f;
}
