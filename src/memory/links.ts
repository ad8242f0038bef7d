/**
 * memory_link and link curation. Linking an already-linked pair (same type) strengthens the link instead
 * of duplicating it; a CONTRADICTS link opens a conflict between its two facts.
 */
import { MemoryError } from '../core/errors.js';
import { newLinkId, type FactId } from '../core/ids.js';
import { LINK_RULES, reinforce } from '../core/rules.js';
import type { Caller, Link, LinkType } from '../core/types.js';
import { currentFact, visibleLink } from './access.js';
import type { Ctx } from './context.js';
import { linkSchema, linkTypeSchema, parse, type LinkInput } from './inputs.js';
import { openConflict } from './conflicts.js';

export interface LinkResult {
  readonly link: Link;
  /** true: a new link; false: an existing link of the same type was strengthened. */
  readonly created: boolean;
}

/** The agent tool / curation "create link". Both endpoints must be current and in the caller's scope. */
export function memoryLink(ctx: Ctx, input: LinkInput, caller: Caller): LinkResult {
  const i = parse(linkSchema, input, 'memory_link');
  return ctx.tx('memory_link', () => linkFacts(ctx, i, caller, ctx.now(), 'linked as CONTRADICTS'));
}

/** Create or strengthen a link. Call inside a transaction. */
export function linkFacts(
  ctx: Ctx,
  i: { sourceId: FactId; targetId: FactId; linkType: LinkType; strength?: number | undefined },
  caller: Caller,
  now: number,
  conflictReason: string,
): LinkResult {
  if (i.sourceId === i.targetId) throw new MemoryError('MEM_ERR_LINK_SELF', 'a link needs two different facts');
  const source = currentFact(ctx, i.sourceId, caller);
  const target = currentFact(ctx, i.targetId, caller);
  const scopes = [source.scope, target.scope];
  const existing = ctx.links.find(source.id, target.id, i.linkType);
  let result: LinkResult;
  if (existing) {
    const s = Math.max(reinforce(existing.strength, LINK_RULES.relinkGain), i.strength ?? 0);
    ctx.links.setStrength(existing.id, s, now);
    const link = ctx.links.get(existing.id) as Link;
    ctx.emit({ kind: 'link.strengthened', link, scopes });
    result = { link, created: false };
  } else {
    const link: Link = {
      id: newLinkId(now),
      sourceId: source.id,
      targetId: target.id,
      linkType: i.linkType,
      strength: i.strength ?? LINK_RULES.defaultStrength,
      createdAt: now,
      updatedAt: now,
      lastStrengthenedAt: null,
      reinforcements: 0,
    };
    ctx.links.insert(link);
    ctx.emit({ kind: 'link.created', link, scopes });
    result = { link, created: true };
  }
  if (i.linkType === 'CONTRADICTS') openConflict(ctx, source, target, conflictReason, now);
  return result;
}

export function changeLinkType(ctx: Ctx, input: { id: string; linkType: string }, caller: Caller): Link {
  const i = parse(linkTypeSchema, input, 'changeLinkType');
  return ctx.tx('changeLinkType', () => {
    const { link, source, target } = visibleLink(ctx, i.id, caller);
    if (link.linkType === i.linkType) return link;
    const clash = ctx.links.find(link.sourceId, link.targetId, i.linkType);
    if (clash) throw new MemoryError('MEM_ERR_LINK_EXISTS', `a ${i.linkType} link between these facts already exists (${clash.id})`, { details: { linkId: clash.id } });
    const now = ctx.now();
    ctx.links.setType(link.id, i.linkType, now);
    const updated = ctx.links.get(link.id) as Link;
    ctx.emit({ kind: 'link.updated', link: updated, scopes: [source.scope, target.scope] });
    if (i.linkType === 'CONTRADICTS') openConflict(ctx, source, target, 'link changed to CONTRADICTS', now);
    return updated;
  });
}

export function cutLink(ctx: Ctx, id: string, caller: Caller): Link {
  const linkId = parse(linkTypeSchema.shape.id, id, 'cutLink.id');
  return ctx.tx('cutLink', () => {
    const { link, source, target } = visibleLink(ctx, linkId, caller);
    ctx.links.delete(link.id);
    ctx.emit({ kind: 'link.deleted', linkId: link.id, sourceId: link.sourceId, targetId: link.targetId, scopes: [source.scope, target.scope] });
    return link;
  });
}

/** Facts returned together by one recall: strengthen the links already between them. Inside a transaction. */
export function strengthenCoRecalled(ctx: Ctx, ids: readonly FactId[], now: number): void {
  for (const link of ctx.links.among(ids)) {
    ctx.links.setStrength(link.id, reinforce(link.strength, LINK_RULES.coRecallGain), now);
    const source = ctx.facts.get(link.sourceId);
    const target = ctx.facts.get(link.targetId);
    if (!source || !target) continue;
    ctx.emit({ kind: 'link.strengthened', link: ctx.links.get(link.id) as Link, scopes: [source.scope, target.scope] });
  }
}
