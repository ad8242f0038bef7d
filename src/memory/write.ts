/** memory_store and the version chain: new facts, explicit supersede, edit (new version), conflict detection. */
import type { z } from 'zod';
import { invalidInput } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import { CONFLICT_RULES, contradiction } from '../core/rules.js';
import { scopeFor, visibility } from '../core/scope.js';
import type { Caller, Conflict, Fact, FactSource, Scope } from '../core/types.js';
import { currentFact } from './access.js';
import type { Ctx } from './context.js';
import { editSchema, parse, storeSchema, type EditInput, type StoreInput } from './inputs.js';
import { linkFacts } from './links.js';
import { mustGet, writeVersion } from './versions.js';

export interface StoreResult {
  readonly fact: Fact;
  /** false when an identical current fact already existed (it is returned instead). */
  readonly created: boolean;
  /** Conflicts this fact raised with current facts on the same entity. */
  readonly conflicts: readonly Conflict[];
}

export function resolveScope(kind: Scope['kind'], caller: Caller, explicit: { agentId?: string; sessionId?: string }, field: string): Scope {
  const scope = scopeFor(kind, caller, explicit);
  if (typeof scope === 'string') throw invalidInput(field, 'a scope the caller may write', `${kind} (${scope})`);
  return scope;
}

export function storeFact(ctx: Ctx, input: StoreInput, caller: Caller, source: FactSource): StoreResult {
  const i = parse(storeSchema, input, 'memory_store');
  const now = ctx.now();
  if (i.expiresAt !== null && i.expiresAt <= now) throw invalidInput('memory_store.expiresAt', 'a time in the future', new Date(i.expiresAt).toISOString());
  const scope = resolveScope(i.scope, caller, { agentId: i.scopeAgentId, sessionId: i.scopeSessionId }, 'memory_store.scope');
  return ctx.tx('memory_store', () => {
    const old = i.supersedes ? currentFact(ctx, i.supersedes, caller) : null;
    if (!old) {
      const dup = ctx.facts.findDuplicate({ text: i.text, entity: i.entity, category: i.category, scope });
      if (dup) return { fact: dup, created: false, conflicts: [] };
    }
    const episodeId = ctx.episodes.touch(caller, 'fact', i.text, now);
    const id = writeVersion(
      ctx,
      {
        text: i.text,
        category: i.category,
        entity: i.entity,
        tags: i.tags,
        importance: i.importance,
        confidence: i.confidence,
        decayClass: i.decayClass,
        expiresAt: i.expiresAt,
        pinned: i.pinned,
        scope,
        episodeId,
        vaultService: null,
        source,
      },
      old,
      now,
    );
    const conflicts = old ? [] : raiseConflicts(ctx, id, caller, now);
    return { fact: mustGet(ctx, id), created: true, conflicts };
  });
}

/** Edit a fact: a new version with the changed fields; the old version is superseded. */
export function editFact(ctx: Ctx, input: EditInput, caller: Caller, source: FactSource): Fact {
  const e = parse(editSchema, input, 'editFact');
  const now = ctx.now();
  if (e.expiresAt != null && e.expiresAt <= now) throw invalidInput('editFact.expiresAt', 'a time in the future', new Date(e.expiresAt).toISOString());
  return ctx.tx('editFact', () => {
    const old = currentFact(ctx, e.id, caller);
    const id = writeVersion(ctx, { ...old, ...editedFields(old, e), source }, old, now);
    return mustGet(ctx, id);
  });
}

/** The fields an edit may change. */
export const EDITABLE = ['text', 'category', 'entity', 'tags', 'importance', 'confidence', 'decayClass', 'expiresAt'] as const;

/** The editable fields of the version an edit writes: the edit's values over the current version's. */
export function editedFields(old: Fact, e: z.output<typeof editSchema>): Pick<Fact, (typeof EDITABLE)[number]> {
  return {
    text: e.text ?? old.text,
    category: e.category ?? old.category,
    entity: e.entity !== undefined ? e.entity : old.entity,
    tags: e.tags ?? old.tags,
    importance: e.importance ?? old.importance,
    confidence: e.confidence ?? old.confidence,
    decayClass: e.decayClass ?? old.decayClass,
    expiresAt: e.expiresAt !== undefined ? e.expiresAt : old.expiresAt,
  };
}

/** A new fact that contradicts current facts on its entity raises a conflict and a CONTRADICTS link. */
function raiseConflicts(ctx: Ctx, id: FactId, caller: Caller, now: number): Conflict[] {
  const fact = mustGet(ctx, id);
  if (!fact.entity) return [];
  const raised: Conflict[] = [];
  const candidates = ctx.facts
    .currentOnEntity(fact.entity, fact.category, visibility(caller))
    .filter((other) => other.id !== id)
    .map((other) => ({ other, found: contradiction(fact, other) }))
    .filter((c): c is { other: Fact; found: { reason: string; overlap: number } } => c.found !== null)
    .sort((a, b) => b.found.overlap - a.found.overlap)
    .slice(0, CONFLICT_RULES.maxPerFact);
  for (const { other, found } of candidates) {
    linkFacts(ctx, { sourceId: id, targetId: other.id, linkType: 'CONTRADICTS' }, caller, now, found.reason);
    const c = ctx.conflicts.openBetween(id, other.id);
    if (c) raised.push(c);
  }
  return raised;
}

/** Store many facts in one transaction: all or nothing (a bad input anywhere writes none). */
export function storeFacts(ctx: Ctx, inputs: readonly StoreInput[], caller: Caller, source: FactSource): StoreResult[] {
  return ctx.tx('memory_store (batch)', () => inputs.map((input) => storeFact(ctx, input, caller, source)));
}
