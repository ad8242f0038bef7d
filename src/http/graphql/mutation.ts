/**
 * Mutation resolvers: curation through MemoryService (validated there; scope checked there). The token
 * check happens before execution (operation.ts), so no resolver runs for an unauthorized mutation.
 */
import type { FactId } from '../../core/ids.js';
import type { EditInput, StoreInput } from '../../memory/inputs.js';
import type { FieldMap } from './views.js';
import { withoutNulls as clean } from './args.js';

interface Args {
  readonly id?: string;
  readonly input?: Record<string, unknown>;
  readonly source?: string;
  readonly target?: string;
  readonly linkType?: string;
  readonly strength?: number | null;
  readonly resolution?: string;
}

const a = (args: Record<string, unknown>): Args => args as Args;

export const mutationFields: FieldMap<unknown> = {
  // Stores, edits and deletes run the plugins' hooks (a no-op without plugins).
  createFact: async (_p, args, ctx) => (await ctx.svc.storeWithHooks(clean(a(args).input) as StoreInput, ctx.caller, 'graphql')).fact,
  editFact: (_p, args, ctx) => {
    // entity: null is meaningful here (clear the entity); other nulls mean "unchanged".
    const input = a(args).input ?? {};
    const fields = { ...clean(input), ...(input.entity === null ? { entity: null } : {}) };
    return ctx.svc.editWithHooks({ ...fields, id: a(args).id } as EditInput, ctx.caller, 'graphql');
  },
  deleteFact: async (_p, args, ctx) => ({ id: (await ctx.svc.deleteWithHooks(a(args).id ?? '', ctx.caller)).id, deleted: true }),
  pinFact: (_p, args, ctx) => ctx.svc.pin(a(args).id ?? '', ctx.caller),
  unpinFact: (_p, args, ctx) => ctx.svc.unpin(a(args).id ?? '', ctx.caller),
  createLink: (_p, args, ctx) => {
    const { source, target, linkType, strength } = a(args);
    const input = { sourceId: source as FactId, targetId: target as FactId, linkType: linkType as never, ...(strength == null ? {} : { strength }) };
    return ctx.svc.memoryLink(input, ctx.caller).link;
  },
  changeLinkType: (_p, args, ctx) => ctx.svc.changeLinkType({ id: a(args).id ?? '', linkType: a(args).linkType ?? '' }, ctx.caller),
  deleteLink: (_p, args, ctx) => ({ id: ctx.svc.cutLink(a(args).id ?? '', ctx.caller).id, deleted: true }),
  resolveConflict: (_p, args, ctx) => ctx.svc.resolveConflict({ id: a(args).id ?? '', resolution: a(args).resolution ?? '' }, ctx.caller),
  acceptSuggestedLink: (_p, args, ctx) => {
    const { source, target, linkType } = a(args);
    return ctx.svc.memoryLink({ sourceId: source as FactId, targetId: target as FactId, linkType: linkType as never }, ctx.caller).link;
  },
};
