/**
 * Suggestions: pending -> accepted | rejected | withdrawn, each decision with who and when.
 * - create: read on the space and org membership (suggesting is how someone who cannot write proposes);
 * - update (text, reason) and withdraw: the suggester only, while pending;
 * - accept and reject: write or manage on the space. Accepting `edit_text` writes the text as a new
 *   version of the fact through MemoryService.editFact in the same transaction (the new version's id
 *   is recorded); accepting `remove_from_space` takes the fact out of the space;
 * - delete (any status): the delete permission.
 */
import type { FactSuggestion, SuggestionStatus, SuggestionType } from '../core/collab.js';
import { MemoryError } from '../core/errors.js';
import { newSuggestionId, type FactId } from '../core/ids.js';
import { currentFact, denied, factInSpace, requireSpace } from './access.js';
import type { EditInput } from '../memory/inputs.js';
import type { CollabCtx } from './context.js';
import { createSuggestionSchema, ids, listLimit, parse, parseActor, suggestionStatus, updateSuggestionSchema } from './inputs.js';

export type CreateSuggestionInput = { spaceId: string; factId: string; suggestionType?: SuggestionType; newText?: string; reason?: string | null };
export type UpdateSuggestionInput = { suggestionId: string; newText?: string; reason?: string | null };

function loadSuggestion(ctx: CollabCtx, id: string): FactSuggestion {
  const s = ctx.suggestions.get(id);
  if (!s) throw new MemoryError('MEM_ERR_SUGGESTION_NOT_FOUND', `no suggestion ${id}`);
  return s;
}

function mustBePending(s: FactSuggestion): void {
  if (s.status !== 'pending') {
    throw new MemoryError('MEM_ERR_SUGGESTION_CLOSED', `suggestion ${s.id} is already ${s.status} (by ${JSON.stringify(s.decidedBy)})`, { details: { status: s.status } });
  }
}

export function createSuggestion(ctx: CollabCtx, actor: string, input: CreateSuggestionInput): FactSuggestion {
  const who = parseActor(actor, 'createSuggestion');
  const i = parse(createSuggestionSchema, input, 'createSuggestion');
  const now = ctx.now();
  return ctx.tx('createSuggestion', () => {
    const { space } = requireSpace(ctx, who, i.spaceId, { anyOf: ['read'], membersOnly: true });
    const fact = factInSpace(ctx, space, i.factId);
    // A text edit is proposed against the current version; one against an old version would be stale.
    if (i.suggestionType === 'edit_text') currentFact(ctx, fact.id);
    const s: FactSuggestion = {
      id: newSuggestionId(now), spaceId: space.id, suggestedBy: who, suggestionType: i.suggestionType, factId: fact.id,
      newText: i.newText ?? null, reason: i.reason, status: 'pending', createdAt: now, decidedBy: null, decidedAt: null, appliedFactId: null,
    };
    ctx.suggestions.insert(s, fact.lineageId);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'suggestion.created', targetType: 'suggestion', targetId: s.id, details: { suggestionType: s.suggestionType, factId: s.factId } }, now);
    return s;
  });
}

export function getSuggestion(ctx: CollabCtx, actor: string, suggestionId: string): FactSuggestion {
  const who = parseActor(actor, 'getSuggestion');
  const s = loadSuggestion(ctx, parse(ids.suggestion, suggestionId, 'getSuggestion.suggestionId'));
  requireSpace(ctx, who, s.spaceId, { anyOf: ['read'] });
  return s;
}

/** The space's suggestions, oldest first, optionally of one status (needs read). */
export function listSuggestions(ctx: CollabCtx, actor: string, spaceId: string, options: { status?: SuggestionStatus; limit?: number } = {}): FactSuggestion[] {
  const who = parseActor(actor, 'listSuggestions');
  const id = parse(ids.space, spaceId, 'listSuggestions.spaceId');
  const limit = parse(listLimit, options.limit, 'listSuggestions.limit');
  const status = parse(suggestionStatus, options.status, 'listSuggestions.status');
  const { space } = requireSpace(ctx, who, id, { anyOf: ['read'] });
  return ctx.suggestions.list(space.id, status ?? null, limit);
}

/** The spec's operation: pending suggestions of a space, oldest first. */
export function getPendingSuggestions(ctx: CollabCtx, actor: string, spaceId: string): FactSuggestion[] {
  return listSuggestions(ctx, actor, spaceId, { status: 'pending' });
}

export function updateSuggestion(ctx: CollabCtx, actor: string, input: UpdateSuggestionInput): FactSuggestion {
  const who = parseActor(actor, 'updateSuggestion');
  const i = parse(updateSuggestionSchema, input, 'updateSuggestion');
  const now = ctx.now();
  return ctx.tx('updateSuggestion', () => {
    const s = loadSuggestion(ctx, i.suggestionId);
    const { space } = requireSpace(ctx, who, s.spaceId, { anyOf: ['read'], membersOnly: true });
    if (s.suggestedBy !== who) throw denied(who, `update suggestion ${s.id}`, `only its suggester ${JSON.stringify(s.suggestedBy)} may`);
    mustBePending(s);
    if (i.newText !== undefined && s.suggestionType !== 'edit_text') {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `updateSuggestion.newText: expected no newText (a ${s.suggestionType} suggestion carries no text), received text`, {
        details: { path: 'updateSuggestion.newText', expected: 'no newText', received: 'text' },
      });
    }
    const next: FactSuggestion = { ...s, newText: i.newText ?? s.newText, reason: i.reason !== undefined ? i.reason : s.reason };
    ctx.suggestions.updatePending(s.id, next);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'suggestion.updated', targetType: 'suggestion', targetId: s.id, details: { newText: i.newText !== undefined, reason: i.reason !== undefined } }, now);
    return next;
  });
}

/** An accepted edit_text suggestion's edit as the plugins left it, and the text they were shown. */
interface VettedEdit {
  readonly edit: EditInput;
  readonly shownText: string | null;
}

function decide(ctx: CollabCtx, op: 'acceptSuggestion' | 'rejectSuggestion' | 'withdrawSuggestion', actor: string, suggestionId: string, vetted?: VettedEdit): FactSuggestion {
  const who = parseActor(actor, op);
  const id = parse(ids.suggestion, suggestionId, `${op}.suggestionId`);
  const now = ctx.now();
  return ctx.tx(op, () => {
    const s = loadSuggestion(ctx, id);
    const withdraw = op === 'withdrawSuggestion';
    const { space } = requireSpace(ctx, who, s.spaceId, withdraw ? { anyOf: ['read'], membersOnly: true } : { anyOf: ['write', 'manage'] });
    if (withdraw && s.suggestedBy !== who) throw denied(who, `withdraw suggestion ${s.id}`, `only its suggester ${JSON.stringify(s.suggestedBy)} may`);
    mustBePending(s);
    const status = op === 'acceptSuggestion' ? 'accepted' : op === 'rejectSuggestion' ? 'rejected' : 'withdrawn';
    // The suggestion was edited while the plugins looked at its text: decide on what they saw, or not at all.
    if (vetted && s.newText !== vetted.shownText) throw new MemoryError('MEM_ERR_SUGGESTION_CHANGED', `suggestion ${s.id} changed while it was being accepted; accept it again`);
    const applied = status === 'accepted' ? apply(ctx, s, who, vetted?.edit) : null;
    ctx.suggestions.decide(s.id, status, who, now, applied);
    ctx.record({
      orgId: space.orgId, spaceId: space.id, actorId: who, action: `suggestion.${status}`, targetType: 'suggestion', targetId: s.id,
      details: { suggestionType: s.suggestionType, factId: s.factId, appliedFactId: applied },
    }, now);
    return { ...s, status, decidedBy: who, decidedAt: now, appliedFactId: applied };
  });
}

/** Carry out an accepted suggestion inside the decision's transaction; returns the new fact version, if any. */
function apply(ctx: CollabCtx, s: FactSuggestion, who: string, edit?: EditInput): FactId | null {
  const space = ctx.spaces.get(s.spaceId);
  if (!space) throw new MemoryError('MEM_ERR_SPACE_NOT_FOUND', `no space ${s.spaceId}`);
  const fact = factInSpace(ctx, space, s.factId);
  if (s.suggestionType === 'remove_from_space') {
    ctx.spaceFacts.delete(space.id, fact.lineageId);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'fact.removed', targetType: 'fact', targetId: fact.id, details: { lineageId: fact.lineageId, suggestionId: s.id } }, ctx.now());
    return null;
  }
  // Fails with MEM_ERR_FACT_SUPERSEDED when the fact was edited since the suggestion: it stays pending.
  return ctx.memory.editFact(edit ?? { id: s.factId, text: s.newText ?? '' }, ctx.memoryCaller, 'collab').id;
}

/** Accept without the plugins' store hooks (the synchronous form; see acceptSuggestionWithHooks). */
export const acceptSuggestion = (ctx: CollabCtx, actor: string, id: string) => decide(ctx, 'acceptSuggestion', actor, id);

/**
 * Accept through the plugins' store hooks, as every other fact write goes: an edit_text suggestion's new
 * version is shown to beforeFactStore first (operation 'edit', source 'collab'), which may change it or
 * veto it (MEM_ERR_PLUGIN_VETO: the suggestion stays pending and nothing is written); the decision then
 * writes it in one transaction, and afterFactStore hears of it. Without store hooks it is acceptSuggestion.
 */
export async function acceptSuggestionWithHooks(ctx: CollabCtx, actor: string, suggestionId: string): Promise<FactSuggestion> {
  const plugins = ctx.memory.plugins;
  if (!plugins || (!plugins.has('beforeFactStore') && !plugins.has('afterFactStore'))) return acceptSuggestion(ctx, actor, suggestionId);
  const who = parseActor(actor, 'acceptSuggestion');
  const s = loadSuggestion(ctx, parse(ids.suggestion, suggestionId, 'acceptSuggestion.suggestionId'));
  if (s.suggestionType !== 'edit_text') return acceptSuggestion(ctx, actor, suggestionId);
  // The decision's own checks, before any plugin sees the text (they run again inside its transaction).
  requireSpace(ctx, who, s.spaceId, { anyOf: ['write', 'manage'] });
  mustBePending(s);
  const edit = await ctx.memory.vetEdit({ id: s.factId, text: s.newText ?? '' }, ctx.memoryCaller, 'collab');
  const decided = decide(ctx, 'acceptSuggestion', actor, suggestionId, { edit, shownText: s.newText });
  if (decided.appliedFactId) await ctx.memory.afterEdit(ctx.memory.getFact(decided.appliedFactId, ctx.memoryCaller), ctx.memoryCaller, 'collab');
  return decided;
}
export const rejectSuggestion = (ctx: CollabCtx, actor: string, id: string) => decide(ctx, 'rejectSuggestion', actor, id);
export const withdrawSuggestion = (ctx: CollabCtx, actor: string, id: string) => decide(ctx, 'withdrawSuggestion', actor, id);

export function deleteSuggestion(ctx: CollabCtx, actor: string, suggestionId: string): void {
  const who = parseActor(actor, 'deleteSuggestion');
  const id = parse(ids.suggestion, suggestionId, 'deleteSuggestion.suggestionId');
  const now = ctx.now();
  ctx.tx('deleteSuggestion', () => {
    const s = loadSuggestion(ctx, id);
    const { space } = requireSpace(ctx, who, s.spaceId, { anyOf: ['delete'] });
    ctx.suggestions.delete(s.id);
    ctx.record({ orgId: space.orgId, spaceId: space.id, actorId: who, action: 'suggestion.deleted', targetType: 'suggestion', targetId: s.id, details: { status: s.status, suggestedBy: s.suggestedBy } }, now);
  });
}
