/**
 * What the view draws for a set of facts and links: the items (facts, or groups past CLUSTER_THRESHOLD
 * facts unless expanded), which item draws each fact, the merged edges between items, and the layout
 * worker's input with every item's last known position (so settled nodes stay where they were).
 */
import type { GEdge, GNode } from '../lib/types';
import { buildGroups, CLUSTER_THRESHOLD, groupEdges } from './clusters';
import type { LayoutInput } from './protocol';
import type { DrawnEdge, Item } from './renderer';
import { edgeStyleOf, edgeWidth, ringOf, sizeOf } from './style';

export interface Scene {
  readonly mode: 'facts' | 'clusters';
  readonly items: readonly Item[];
  readonly index: ReadonlyMap<string, number>;
  readonly itemOfFact: ReadonlyMap<string, string>;
  readonly edges: readonly DrawnEdge[];
  /** Item indexes in label priority order: groups, then facts from the largest (strongest) down. */
  readonly labelOrder: Int32Array;
  /** Initial positions (known ones, else 0,0 until the first tick). */
  readonly pos: Float32Array;
  readonly layout: LayoutInput;
}

/** The semantic map's places (x, y in [-1, 1]) by fact id, and whether the layout restarts from scratch. */
export interface SceneOptions {
  readonly targets?: ReadonlyMap<string, readonly [number, number]> | null;
  readonly reheat?: boolean;
}

export function buildScene(nodes: ReadonlyMap<string, GNode>, edges: Iterable<GEdge>, expanded: ReadonlySet<string>, known: ReadonlyMap<string, readonly [number, number]>, o: SceneOptions = {}): Scene {
  const items: Item[] = [];
  const itemOfFact = new Map<string, string>();
  const mode = nodes.size > CLUSTER_THRESHOLD ? 'clusters' : 'facts';
  const addFact = (n: GNode): void => {
    items.push({ id: n.id, group: false, category: n.category, strength: n.strength, pinned: n.pinned, superseded: n.superseded, label: n.label, size: sizeOf(n.strength) });
    itemOfFact.set(n.id, n.id);
  };
  if (mode === 'facts') nodes.forEach(addFact);
  else {
    for (const g of buildGroups([...nodes.values()]).values()) {
      const key = `group:${g.key}`;
      if (expanded.has(key) || g.members.length === 1) {
        for (const id of g.members) {
          const n = nodes.get(id);
          if (n) addFact(n);
        }
        continue;
      }
      items.push({ id: key, group: true, category: g.category, strength: g.strength, pinned: false, superseded: false, label: g.label, size: Math.min(40, 6 + 3 * Math.sqrt(g.members.length)) });
      for (const id of g.members) itemOfFact.set(id, key);
    }
  }
  const index = new Map(items.map((it, i) => [it.id, i]));
  const merged = groupEdges(edges, (f) => itemOfFact.get(f));
  const xs = new Float32Array(items.length);
  const ys = new Float32Array(items.length);
  const pos = new Float32Array(items.length * 2);
  let fresh = 0;
  items.forEach((it, i) => {
    const p = known.get(it.id);
    if (!p) fresh++;
    xs[i] = p ? p[0] : NaN;
    ys[i] = p ? p[1] : NaN;
    pos[2 * i] = p ? p[0] : 0;
    pos[2 * i + 1] = p ? p[1] : 0;
  });
  const links = new Int32Array(merged.length * 2);
  const linkStrength = new Float32Array(merged.length);
  const drawn = merged.map((e, k): DrawnEdge => {
    const s = index.get(e.source) ?? 0;
    const t = index.get(e.target) ?? 0;
    links[2 * k] = s;
    links[2 * k + 1] = t;
    linkStrength[k] = e.strength;
    // A link between groups stands for many: only a fact-to-fact link shows its type.
    const style = items[s]?.group || items[t]?.group ? 'solid' : edgeStyleOf(e.linkType);
    return { s, t, w: edgeWidth(e.strength), style };
  });
  const labelOrder = Int32Array.from(items.keys()).sort((a, b) => labelRank(items[b] as Item) - labelRank(items[a] as Item));
  const layout: LayoutInput = {
    type: 'set',
    rings: Float32Array.from(items, (it) => ringOf(it.strength)),
    xs,
    ys,
    sizes: Float32Array.from(items, (it) => it.size),
    links,
    linkStrength,
    // A settled graph with a few changes only warms up a little: existing nodes barely move.
    alpha: o.reheat || fresh > items.length / 2 ? 1 : 0.3,
    ...(o.targets ? { targets: mapTargets(items.length, index, itemOfFact, o.targets) } : {}),
  };
  return { mode, items, index, itemOfFact, edges: drawn, labelOrder, pos, layout };
}

/** Groups before facts, larger before smaller. */
const labelRank = (it: Item): number => (it.group ? 1000 : 0) + it.size;

/**
 * Layout places for the semantic map: each item at the mean of its facts' places (a group at its members'
 * centroid), spread over a disc that grows with the number of items; NaN for an item with no place.
 */
function mapTargets(count: number, index: ReadonlyMap<string, number>, itemOfFact: ReadonlyMap<string, string>, places: ReadonlyMap<string, readonly [number, number]>): Float32Array {
  const sum = new Float64Array(count * 3);
  for (const [factId, [x, y]] of places) {
    const i = index.get(itemOfFact.get(factId) ?? '');
    if (i === undefined) continue;
    sum[3 * i] = (sum[3 * i] as number) + x;
    sum[3 * i + 1] = (sum[3 * i + 1] as number) + y;
    sum[3 * i + 2] = (sum[3 * i + 2] as number) + 1;
  }
  const spread = Math.min(1500, Math.max(160, 55 * Math.sqrt(count)));
  const out = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    const n = sum[3 * i + 2] as number;
    out[2 * i] = n > 0 ? ((sum[3 * i] as number) / n) * spread : NaN;
    out[2 * i + 1] = n > 0 ? ((sum[3 * i + 1] as number) / n) * spread : NaN;
  }
  return out;
}
