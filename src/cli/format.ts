/** Concise human renderings of facts, links, conflicts and vault entries (one line each where possible). */
import { oneLine as flatLine } from '../core/text.js';
import type { Conflict, Fact, Link, Scope, VaultEntry } from '../core/types.js';

export const when = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

export function scopeText(s: Scope): string {
  if (s.kind === 'global') return 'global';
  if (s.kind === 'agent') return `agent:${s.agentId ?? '?'}`;
  return `session:${s.sessionId ?? '?'}${s.agentId ? ` (agent ${s.agentId})` : ''}`;
}

/** Text on one line, shortened for listings. */
export const oneLine = (text: string, max = 100): string => flatLine(text, max);

export function factState(f: Fact): string {
  if (f.validUntil === null) return f.pinned ? 'current, pinned' : 'current';
  return f.endedReason === 'superseded' && f.supersededBy ? `superseded by ${f.supersededBy}` : (f.endedReason ?? 'ended');
}

export function factLine(f: Fact): string {
  const marks = [f.pinned ? 'pinned' : '', f.validUntil !== null ? (f.endedReason ?? 'ended') : ''].filter(Boolean);
  return `${f.id}  [${f.category}]${marks.length ? ` (${marks.join(', ')})` : ''}  ${oneLine(f.text)}`;
}

export function factDetails(f: Fact): string[] {
  return [
    `id:          ${f.id}`,
    `text:        ${f.text}`,
    `category:    ${f.category}`,
    `entity:      ${f.entity ?? '-'}`,
    `tags:        ${f.tags.length ? f.tags.join(', ') : '-'}`,
    `importance:  ${f.importance}   confidence: ${f.confidence}   decay: ${f.decayClass}`,
    `scope:       ${scopeText(f.scope)}`,
    `state:       ${factState(f)}`,
    `version:     ${f.version} (lineage ${f.lineageId})`,
    `created:     ${when(f.createdAt)}   expires: ${when(f.expiresAt)}`,
    `recalled:    ${f.recallCount} time(s), last ${when(f.lastRecalledAt)}`,
    ...(f.vaultService ? [`vault:       pointer to the vault entry "${f.vaultService}"`] : []),
  ];
}

export function linkLine(l: Link): string {
  return `${l.id}  ${l.sourceId} -[${l.linkType}]-> ${l.targetId}  strength ${l.strength.toFixed(2)}`;
}

export function conflictLine(c: Conflict): string {
  const outcome = c.status === 'unresolved' ? '' : ` -> ${c.resolution ?? c.status}`;
  return `${c.id}  ${c.status}${outcome}  new ${c.newFactId} vs old ${c.oldFactId}: ${oneLine(c.reason, 80)}`;
}

export function vaultLine(e: VaultEntry): string {
  return `${e.service}  ${e.type}  ${scopeText(e.scope)}${e.note ? `  ${oneLine(e.note, 60)}` : ''}`;
}

/** "1 fact" / "2 facts". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
