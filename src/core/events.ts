/**
 * Memory events: what changed, as plain data. Every change appends one to the event log in the same
 * transaction; buses in every process tail the log. `scopes` lists the scope of every fact the event
 * reveals, so delivery can drop (or, for recalls, trim) what a subscriber may not see.
 */
import type { FactId, LinkId, RecallEventId } from './ids.js';
import { isVisible, ownsRecall } from './scope.js';
import type { Caller, Category, Conflict, FactScore, Link, RecallKind, Scope } from './types.js';

export const EVENT_KINDS = [
  'fact.stored',
  'fact.superseded',
  'fact.deleted',
  'fact.updated',
  'fact.ended',
  'link.created',
  'link.strengthened',
  'link.updated',
  'link.deleted',
  'recall',
  'conflict.raised',
  'conflict.resolved',
  'plugin',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface FactBrief {
  readonly id: FactId;
  readonly text: string;
  readonly category: Category;
  readonly entity: string | null;
  readonly importance: number;
  readonly confidence: number;
  readonly pinned: boolean;
  readonly strength: number;
}

export interface ScoredFact extends FactScore {
  readonly scope: Scope;
}

export type EventPayload =
  | { readonly kind: 'fact.stored'; readonly fact: FactBrief; readonly scopes: readonly Scope[] }
  | { readonly kind: 'fact.superseded'; readonly oldId: FactId; readonly newId: FactId; readonly scopes: readonly Scope[] }
  | { readonly kind: 'fact.deleted'; readonly factId: FactId; readonly linkIds: readonly LinkId[]; readonly scopes: readonly Scope[] }
  | { readonly kind: 'fact.updated'; readonly factId: FactId; readonly pinned: boolean; readonly scopes: readonly Scope[] }
  | { readonly kind: 'fact.ended'; readonly factId: FactId; readonly reason: 'expired' | 'decayed'; readonly scopes: readonly Scope[] }
  | { readonly kind: 'link.created' | 'link.strengthened' | 'link.updated'; readonly link: Link; readonly scopes: readonly Scope[] }
  | { readonly kind: 'link.deleted'; readonly linkId: LinkId; readonly sourceId: FactId; readonly targetId: FactId; readonly scopes: readonly Scope[] }
  | {
      readonly kind: 'recall';
      readonly recallId: RecallEventId;
      readonly recallKind: RecallKind;
      readonly query: string;
      readonly target: string | null;
      readonly owner: Caller;
      readonly scores: readonly ScoredFact[];
      readonly scopes: readonly Scope[];
    }
  | { readonly kind: 'conflict.raised' | 'conflict.resolved'; readonly conflict: Conflict; readonly scopes: readonly Scope[] }
  /** A plugin's own event (context.emit): every subscriber sees it (no scopes), with the data as the plugin sent it. */
  | { readonly kind: 'plugin'; readonly pluginId: string; readonly event: string; readonly data: unknown; readonly scopes: readonly Scope[] };

/** An event as read back from the log. `seq` is the resume point. */
export type MemoryEvent = EventPayload & { readonly seq: number; readonly at: number };

/**
 * The event as `caller` may see it, or null. A recall event is shown only to its owner's viewers
 * (the operator, or the same agent) and keeps only the scores of facts the caller may see.
 */
export function eventFor(event: MemoryEvent, caller: Caller): MemoryEvent | null {
  if (event.kind === 'recall') {
    if (!ownsRecall(event.owner, caller)) return null;
    const scores = event.scores.filter((s) => isVisible(s.scope, caller));
    return { ...event, scores, scopes: scores.map((s) => s.scope) };
  }
  return event.scopes.every((s) => isVisible(s, caller)) ? event : null;
}
