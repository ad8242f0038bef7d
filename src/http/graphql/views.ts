/**
 * Field resolvers that turn domain records into the schema's types: a fact's label, strength, decay and
 * versions; an edge's endpoints; a memory event's kind and payload. Parents are domain objects; nothing
 * here writes.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { MemoryError } from '../../core/errors.js';
import type { MemoryEvent } from '../../core/events.js';
import { isWeakLink } from '../../core/rules.js';
import { HALF_LIFE_MS, recency, strength } from '../../core/strength.js';
import type { Conflict, Fact, Link } from '../../core/types.js';
import type { GraphNode } from '../../memory/graph.js';
import type { GqlContext } from './context.js';

/** A fact as resolvers pass it around: with strength and cluster when a graph read computed them. */
export type FactView = Fact & { readonly strength?: number; readonly cluster?: number };

type Resolver<P> = GraphQLFieldResolver<P, GqlContext, Record<string, unknown>>;
export type FieldMap<P> = Readonly<Record<string, Resolver<P>>>;

const LABEL_MAX = 80;
const DAY = 86_400_000;

export const nodeView = (n: GraphNode): FactView => ({ ...n.fact, strength: n.strength, cluster: n.cluster });

/** Read a fact the caller may see, or null (gone, or out of scope). */
export function factOrNull(ctx: GqlContext, id: string): Fact | null {
  try {
    return ctx.svc.getFact(id, ctx.caller);
  } catch (err) {
    if (err instanceof MemoryError && err.code === 'MEM_ERR_FACT_NOT_FOUND') return null;
    throw err;
  }
}

export const factFields: FieldMap<FactView> = {
  label: (f) => {
    const line = f.text.replace(/\s+/g, ' ').trim();
    return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
  },
  strength: (f, _a, ctx) => f.strength ?? strength(f, ctx.svc.now()),
  cluster: (f) => f.cluster ?? null,
  decay: (f, _a, ctx) => {
    const halfLife = HALF_LIFE_MS[f.decayClass];
    return {
      class: f.decayClass,
      halfLifeDays: Number.isFinite(halfLife) ? halfLife / DAY : null,
      recency: recency(f, ctx.svc.now()),
      frozen: f.pinned || !Number.isFinite(halfLife),
    };
  },
  superseded: (f) => f.supersededBy !== null,
  versions: (f, _a, ctx) => ctx.svc.history(f.id, ctx.caller),
  links: (f, _a, ctx) => ctx.svc.listLinks(ctx.caller, { factId: f.id }),
};

export const edgeFields: FieldMap<Link> = {
  source: (l) => l.sourceId,
  target: (l) => l.targetId,
  weak: (l, _a, ctx) => isWeakLink(l, ctx.svc.now()),
};

export const conflictFields: FieldMap<Conflict> = {
  newFact: (c, _a, ctx) => factOrNull(ctx, c.newFactId),
  oldFact: (c, _a, ctx) => factOrNull(ctx, c.oldFactId),
};

export const suggestedLinkFields: FieldMap<{ sourceId: string; targetId: string; similarity: number }> = {
  source: (s) => s.sourceId,
  target: (s) => s.targetId,
  sourceFact: (s, _a, ctx) => factOrNull(ctx, s.sourceId),
  targetFact: (s, _a, ctx) => factOrNull(ctx, s.targetId),
};

/** 'fact.stored' <-> FACT_STORED */
export const eventKindName = (kind: string): string => kind.replace('.', '_').toUpperCase();
export const eventKindOf = (name: string): string => name.toLowerCase().replace('_', '.');

export const eventFields: FieldMap<MemoryEvent> = {
  kind: (e) => eventKindName(e.kind),
  fact: (e, _a, ctx) => (e.kind === 'fact.stored' ? factOrNull(ctx, e.fact.id) : null),
  factId: (e) => {
    switch (e.kind) {
      case 'fact.stored':
        return e.fact.id;
      case 'fact.superseded':
        return e.newId;
      case 'fact.deleted':
      case 'fact.updated':
      case 'fact.ended':
        return e.factId;
      default:
        return null;
    }
  },
  oldFactId: (e) => (e.kind === 'fact.superseded' ? e.oldId : null),
  pinned: (e) => (e.kind === 'fact.updated' ? e.pinned : null),
  reason: (e) => (e.kind === 'fact.ended' ? e.reason : null),
  link: (e) => (e.kind === 'link.created' || e.kind === 'link.strengthened' || e.kind === 'link.updated' ? e.link : null),
  linkIds: (e) => (e.kind === 'fact.deleted' ? e.linkIds : e.kind === 'link.deleted' ? [e.linkId] : null),
  recall: (e) =>
    e.kind === 'recall' ? { id: e.recallId, kind: e.recallKind, query: e.query, target: e.target, scores: e.scores } : null,
  conflict: (e) => (e.kind === 'conflict.raised' || e.kind === 'conflict.resolved' ? e.conflict : null),
  plugin: (e) => (e.kind === 'plugin' ? { pluginId: e.pluginId, event: e.event, data: JSON.stringify(e.data ?? null) } : null),
};
