/**
 * The facts and links the view holds, by id: replaced by a fresh read, patched by live events. Every
 * change asks the view (the subclass) to rebuild what it draws on its next frame.
 */
import { CATEGORIES, type Category, type GEdge, type GNode } from '../lib/types';

export abstract class GraphData {
  readonly nodes = new Map<string, GNode>();
  readonly edges = new Map<string, GEdge>();

  /** Something changed: rebuild what is drawn before the next frame. */
  protected abstract schedule(): void;
  /** A fact left the view (the selection may have to go with it). */
  protected abstract removed(id: string): void;

  /** Replace everything (a fresh read of the graph). */
  protected replace(nodes: readonly GNode[], edges: readonly GEdge[]): void {
    this.nodes.clear();
    this.edges.clear();
    for (const n of nodes) this.nodes.set(n.id, n);
    for (const e of edges) this.edges.set(e.id, e);
    this.schedule();
  }

  upsertNode(n: GNode): void {
    this.nodes.set(n.id, { ...this.nodes.get(n.id), ...n });
    this.schedule();
  }

  patchNode(id: string, patch: Partial<GNode>): void {
    const n = this.nodes.get(id);
    if (!n) return;
    this.nodes.set(id, { ...n, ...patch });
    this.schedule();
  }

  removeNode(id: string): void {
    this.nodes.delete(id);
    for (const [k, e] of this.edges) if (e.source === id || e.target === id) this.edges.delete(k);
    this.removed(id);
    this.schedule();
  }

  upsertEdge(e: GEdge): void {
    this.edges.set(e.id, e);
    this.schedule();
  }

  removeEdge(id: string): void {
    this.edges.delete(id);
    this.schedule();
  }

  /** How many facts of each category the view holds (the legend's counts). */
  categoryCounts(): Record<Category, number> {
    const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
    for (const n of this.nodes.values()) out[n.category]++;
    return out;
  }
}
