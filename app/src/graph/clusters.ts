/**
 * Level of detail for large graphs: past CLUSTER_THRESHOLD facts the view draws groups instead of facts.
 * A group is a connected component split by category; facts alone (no visible link) group by category.
 * Expanded groups are drawn fact by fact again.
 */
import type { Category, GEdge, GNode, LinkType } from '../lib/types';

export const CLUSTER_THRESHOLD = 1500;

export interface Group {
  readonly key: string;
  readonly category: Category;
  readonly members: string[];
  /** Mean strength of the members. */
  strength: number;
  label: string;
}

export function groupKey(n: GNode, componentSize: number): string {
  return componentSize > 1 ? `c${n.cluster ?? 0}:${n.category}` : `solo:${n.category}`;
}

export function buildGroups(nodes: readonly GNode[]): Map<string, Group> {
  const sizes = new Map<number, number>();
  for (const n of nodes) sizes.set(n.cluster ?? -1, (sizes.get(n.cluster ?? -1) ?? 0) + 1);
  const groups = new Map<string, Group>();
  for (const n of nodes) {
    const key = groupKey(n, sizes.get(n.cluster ?? -1) ?? 1);
    let g = groups.get(key);
    if (!g) {
      g = { key, category: n.category, members: [], strength: 0, label: '' };
      groups.set(key, g);
    }
    g.members.push(n.id);
    g.strength += n.strength;
  }
  for (const g of groups.values()) {
    g.strength /= g.members.length;
    g.label = `${g.members.length} ${g.category}${g.key.startsWith('solo') ? ' (unlinked)' : ''}`;
  }
  return groups;
}

/** Edges between drawn items (facts or groups), merged per pair, the strongest kept (with its type). */
export function groupEdges(edges: Iterable<GEdge>, itemOf: (factId: string) => string | undefined): { source: string; target: string; strength: number; linkType: LinkType }[] {
  const merged = new Map<string, { source: string; target: string; strength: number; linkType: LinkType }>();
  for (const e of edges) {
    const s = itemOf(e.source);
    const t = itemOf(e.target);
    if (s === undefined || t === undefined || s === t) continue;
    const key = s < t ? `${s}|${t}` : `${t}|${s}`;
    const m = merged.get(key);
    if (!m) merged.set(key, { source: s, target: t, strength: e.strength, linkType: e.linkType });
    else if (e.strength > m.strength) Object.assign(m, { strength: e.strength, linkType: e.linkType });
  }
  return [...merged.values()];
}
