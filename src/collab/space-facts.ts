/**
 * Facts in spaces. Adding and removing need write; listing needs read (the space's visibility decides
 * who reads). A placement follows the fact's lineage: after an edit the space shows the new version.
 */
import { MemoryError } from '../core/errors.js';
import { visibility } from '../core/scope.js';
import type { Fact } from '../core/types.js';
import { currentFact, factInSpace, requireSpace } from './access.js';
import type { CollabCtx } from './context.js';
import { ids, listLimit, parse, parseActor, spaceFactSchema } from './inputs.js';

export type SpaceFactInput = { spaceId: string; factId: string };

/** Place a current fact in a space. Returns the fact (its current version). */
export function addFactToSpace(ctx: CollabCtx, actor: string, input: SpaceFactInput): Fact {
  const who = parseActor(actor, 'addFactToSpace');
  const i = parse(spaceFactSchema, input, 'addFactToSpace');
  const now = ctx.now();
  return ctx.tx('addFactToSpace', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['write'] });
    const fact = currentFact(ctx, i.factId);
    if (ctx.spaceFacts.get(space.id, fact.lineageId)) {
      throw new MemoryError('MEM_ERR_FACT_IN_SPACE', `fact ${fact.id} (lineage ${fact.lineageId}) is already in space ${space.id}`);
    }
    ctx.spaceFacts.insert({ spaceId: space.id, lineageId: fact.lineageId, addedBy: who, addedAt: now });
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'fact.added', targetType: 'fact', targetId: fact.id, details: { lineageId: fact.lineageId } }, now);
    return fact;
  });
}

/** Take a fact (given by any of its versions) out of a space. The fact itself stays in memory. */
export function removeFactFromSpace(ctx: CollabCtx, actor: string, input: SpaceFactInput): void {
  const who = parseActor(actor, 'removeFactFromSpace');
  const i = parse(spaceFactSchema, input, 'removeFactFromSpace');
  const now = ctx.now();
  ctx.tx('removeFactFromSpace', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['write'] });
    const fact = factInSpace(ctx, space, i.factId);
    ctx.spaceFacts.delete(space.id, fact.lineageId);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'fact.removed', targetType: 'fact', targetId: fact.id, details: { lineageId: fact.lineageId } }, now);
  });
}

/** The current version of each fact in the space, in the order they were added (needs read). */
export function listSpaceFacts(ctx: CollabCtx, actor: string, spaceId: string, options: { limit?: number } = {}): Fact[] {
  const who = parseActor(actor, 'listSpaceFacts');
  const id = parse(ids.space, spaceId, 'listSpaceFacts.spaceId');
  const limit = parse(listLimit, options.limit, 'listSpaceFacts.limit');
  const { space } = requireSpace(ctx, who, id, { anyOf: ['read'] });
  return ctx.spaceFacts.currentFacts(space.id, visibility(ctx.memoryCaller), limit);
}
