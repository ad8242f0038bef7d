/** One activity-feed line per memory event, naming facts by their labels where the view knows them. */
import type { MemoryEvent } from './types.js';

export function describeEvent(e: MemoryEvent, label: (id: string) => string | undefined): string {
  const f = (id: string | null | undefined): string => (id ? `"${label(id) ?? id}"` : '');
  switch (e.kind) {
    case 'FACT_STORED':
      // What auto-capture kept from a turn says so; everything else was stored by someone.
      return `${e.fact?.source === 'auto-capture' ? 'captured from a turn' : 'stored'} ${f(e.fact?.id)}`.replace('""', `"${e.fact?.label ?? ''}"`);
    case 'FACT_SUPERSEDED':
      return `new version of ${f(e.oldFactId)}`;
    case 'FACT_DELETED':
      return `deleted ${e.factId ?? ''}`;
    case 'FACT_ENDED':
      return `${e.reason ?? 'ended'}: ${f(e.factId)}`;
    case 'FACT_UPDATED':
      return `${e.pinned ? 'pinned' : 'unpinned'} ${f(e.factId)}`;
    case 'LINK_CREATED':
    case 'LINK_STRENGTHENED':
    case 'LINK_UPDATED':
      return `${e.kind.slice(5).toLowerCase()} link ${e.link?.linkType ?? ''} ${f(e.link?.source)} → ${f(e.link?.target)} (${(e.link?.strength ?? 0).toFixed(2)})`;
    case 'LINK_DELETED':
      return 'link cut';
    case 'RECALL': {
      // The hooks' recalls say what they were: memories given to a turn, a credential hint.
      const what = e.recall?.kind === 'relevant' ? 'memories for a turn' : e.recall?.kind === 'auth_failure' ? `credential hint for ${e.recall.target ?? '?'}` : 'recall';
      return `${what} "${e.recall?.query ?? ''}": ${(e.recall?.scores ?? []).map((s) => `${label(s.factId) ?? s.factId} ${s.score.toFixed(2)}`).join(', ')}`;
    }
    case 'CONFLICT_RAISED':
      return `conflict: ${e.conflict?.reason ?? ''}`;
    case 'CONFLICT_RESOLVED':
      return 'conflict resolved';
    default:
      return e.kind.toLowerCase();
  }
}

/** The feed's line for an event (a recall's line carries the recall, to explain on click). */
export function feedLine(e: MemoryEvent, label: (id: string) => string | undefined): { key: string; kind: string; at: number; text: string; recallId?: string } {
  const line: { key: string; kind: string; at: number; text: string; recallId?: string } = { key: `e-${e.seq}`, kind: e.kind, at: e.at, text: describeEvent(e, label) };
  if (e.recall?.id) line.recallId = e.recall.id;
  return line;
}
