/**
 * The fact operations through the plugin hooks: input is validated first (bad input never reaches a
 * plugin), the before-hooks run (they may change the input, or refuse it with a typed error), then the
 * operation itself, then the after-hooks (awaited, so a caller that got its answer knows they ran; they
 * never throw). Writes plugins make themselves through context.service never come through here: a
 * plugin's hook calling back into the service cannot re-enter its own worker.
 */
import type { z } from 'zod';
import type { FactId } from '../core/ids.js';
import type { Caller, Fact, FactSource } from '../core/types.js';
import { currentFact } from './access.js';
import type { Ctx } from './context.js';
import { editSchema, idSchemas, parse, recallSchema, storeSchema, type EditInput, type RecallInput, type StoreInput } from './inputs.js';
import { deleteFact } from './lifecycle.js';
import type { FactDraft, SearchQuery, ServicePlugins, StoreInfo } from './plugin-hooks.js';
import { memoryRecall, type RecallOptions, type RecallResult } from './recall.js';
import { EDITABLE, editFact, editedFields, storeFact, type StoreResult } from './write.js';

/** The draft a store hook sees: validated store input with every default filled, no undefined keys. */
export function toDraft(i: z.output<typeof storeSchema>): FactDraft {
  return {
    text: i.text,
    category: i.category,
    entity: i.entity,
    tags: i.tags,
    importance: i.importance,
    confidence: i.confidence,
    decayClass: i.decayClass,
    expiresAt: i.expiresAt,
    pinned: i.pinned,
    scope: i.scope,
    ...(i.scopeAgentId !== undefined ? { scopeAgentId: i.scopeAgentId } : {}),
    ...(i.scopeSessionId !== undefined ? { scopeSessionId: i.scopeSessionId } : {}),
    ...(i.supersedes !== undefined ? { supersedes: i.supersedes } : {}),
  };
}

const draftOf = (input: StoreInput): FactDraft => toDraft(parse(storeSchema, input, 'memory_store'));

export async function storeWithHooks(ctx: Ctx, plugins: ServicePlugins, input: StoreInput, caller: Caller, source: FactSource): Promise<StoreResult> {
  const draft = draftOf(input);
  const info: StoreInfo = { operation: 'store', source, caller };
  const final = plugins.has('beforeFactStore') ? await plugins.beforeFactStore(draft, info) : draft;
  const r = storeFact(ctx, { ...final, tags: [...final.tags] }, caller, source);
  if (r.created && plugins.has('afterFactStore')) await plugins.afterFactStore(r.fact, info);
  return r;
}

/**
 * beforeFactStore on an edit (operation 'edit'): the edit to write, as the plugins left it (only what
 * differs from the current version), or their veto as a typed error. Writes nothing.
 */
export async function vetEdit(ctx: Ctx, plugins: ServicePlugins, input: EditInput, caller: Caller, source: FactSource): Promise<EditInput> {
  const e = parse(editSchema, input, 'editFact');
  if (!plugins.has('beforeFactStore')) return input;
  const old = currentFact(ctx, e.id, caller);
  // An edit is a new version: beforeFactStore sees the whole next version.
  const draft: FactDraft = {
    ...editedFields(old, e),
    pinned: old.pinned,
    scope: old.scope.kind,
    ...(old.scope.agentId !== null ? { scopeAgentId: old.scope.agentId } : {}),
    ...(old.scope.sessionId !== null ? { scopeSessionId: old.scope.sessionId } : {}),
    supersedes: old.id,
  };
  const final = await plugins.beforeFactStore(draft, { operation: 'edit', source, caller });
  // Send only what differs from the current version (an unchanged expiry in the past must not be re-checked).
  const changes: Record<string, unknown> = {};
  for (const k of EDITABLE) if (JSON.stringify(final[k]) !== JSON.stringify(old[k])) changes[k] = final[k];
  if (Object.keys(changes).length === 0) changes.text = final.text;
  return { id: old.id, ...changes } as EditInput;
}

export async function editWithHooks(ctx: Ctx, plugins: ServicePlugins, input: EditInput, caller: Caller, source: FactSource): Promise<Fact> {
  if (!plugins.has('beforeFactStore') && !plugins.has('afterFactStore')) return editFact(ctx, input, caller, source);
  const fact = editFact(ctx, await vetEdit(ctx, plugins, input, caller, source), caller, source);
  if (plugins.has('afterFactStore')) await plugins.afterFactStore(fact, { operation: 'edit', source, caller });
  return fact;
}

export async function deleteWithHooks(ctx: Ctx, plugins: ServicePlugins, id: string, caller: Caller): Promise<Fact> {
  const factId = parse(idSchemas.fact, id, 'deleteFact.id');
  // Only a fact the caller could delete reaches a plugin (no probing of ids through a plugin).
  const fact = currentFact(ctx, factId, caller);
  if (plugins.has('beforeFactDelete')) await plugins.beforeFactDelete(fact.id, { caller });
  const deleted = deleteFact(ctx, fact.id, caller);
  if (plugins.has('afterFactDelete')) await plugins.afterFactDelete(deleted.id as FactId, { caller });
  return deleted;
}

/** memory_recall (kind 'recall') or the dashboard search (kind 'search') with beforeSearch and afterSearch. */
export async function recallWithHooks(ctx: Ctx, plugins: ServicePlugins, input: RecallInput, caller: Caller, options: RecallOptions, kind: 'recall' | 'search'): Promise<RecallResult> {
  const q = parse(recallSchema, input, 'memory_recall');
  const asked: SearchQuery = { query: q.query, limit: q.limit, includeSuperseded: q.includeSuperseded, ...(q.category !== undefined ? { category: q.category } : {}) };
  const info = { kind, caller };
  const final = plugins.has('beforeSearch') ? await plugins.beforeSearch(asked, info) : asked;
  const afterSearch = plugins.has('afterSearch') ? (hits: RecallResult['results']) => plugins.afterSearch(hits, final, info) : undefined;
  return memoryRecall(ctx, final, caller, { ...options, afterSearch });
}
