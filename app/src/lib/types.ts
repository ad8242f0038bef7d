/** The shapes the app reads (mirroring the server's GraphQL types it asks for). */
export const CATEGORIES = ['preference', 'decision', 'entity', 'fact', 'other', 'technical'] as const;
export type Category = (typeof CATEGORIES)[number];
export const LINK_TYPES = ['RELATED_TO', 'CAUSED_BY', 'PART_OF', 'DEPENDS_ON', 'SUPERSEDES', 'INSTANCE_OF', 'CONTRADICTS'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface GNode {
  id: string;
  label: string;
  category: Category;
  entity: string | null;
  importance: number;
  confidence: number;
  strength: number;
  cluster: number | null;
  pinned: boolean;
  superseded: boolean;
  supersededBy: string | null;
  expiresAt: number | null;
  /** What wrote it ('auto-capture': kept from a turn). */
  source: string;
  decay: { class: string; halfLifeDays: number | null; recency: number; frozen: boolean };
}

export interface GEdge {
  id: string;
  source: string;
  target: string;
  linkType: LinkType;
  strength: number;
  weak: boolean;
}

export interface MemoryEvent {
  seq: number;
  at: number;
  kind: string;
  factId: string | null;
  oldFactId: string | null;
  pinned: boolean | null;
  reason: string | null;
  linkIds: string[] | null;
  fact: GNode | null;
  link: GEdge | null;
  recall: { id: string; kind: string; query: string; target: string | null; scores: { factId: string; score: number }[] } | null;
  conflict: { id: string; reason: string } | null;
}

export interface GraphFilter {
  categories: Category[];
  minStrength: number;
  includeSuperseded: boolean;
  search: string;
}
