/** What the app's panels render: one Qwik store of this shape, written by the controller. */
import type { LiveStatus } from './live';
import type { GEdge, GNode, GraphFilter } from './types';

export interface FeedLine {
  key: string;
  kind: string;
  text: string;
  at: number;
  /** A recall's line: the recall to explain when it is clicked. */
  recallId?: string;
}

/** Why a recall returned what it did: per fact, its rank and score in each leg of hybrid search. */
export interface WhyRecalled {
  id: string;
  kind: string;
  query: string;
  target: string | null;
  /** A credential hint's turn excerpt: the failing lines and the command, secrets redacted. */
  excerpt: string | null;
  createdAt: number;
  rows: { factId: string; label: string; score: number; ftsRank: number | null; bm25: number | null; vectorRank: number | null; similarity: number | null; fused: number | null; replyTo?: string | null }[];
}

export interface FactDetail extends GNode {
  text: string;
  tags: string[];
  decayClass: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  lastRecalledAt: number | null;
  recallCount: number;
  scope: { kind: string; agentId: string | null; sessionId: string | null };
  versions: { id: string; version: number; text: string; superseded: boolean; createdAt: number }[];
  links: GEdge[];
}

export interface Gaps {
  orphans: { id: string; label: string; category: string }[];
  conflicts: { id: string; reason: string; newFactId: string; oldFactId: string; newFact: { id: string; label: string } | null; oldFact: { id: string; label: string } | null }[];
  weakLinks: GEdge[];
  staleFacts: { id: string; label: string; category: string; decayClass: string }[];
  suggested: { source: string; target: string; similarity: number; sourceFact: { label: string } | null; targetFact: { label: string } | null }[];
  suggestedNote: string;
}

export interface UiState {
  live: LiveStatus;
  totalFacts: number;
  links: number;
  openConflicts: number;
  searchMode: string;
  truncated: boolean;
  mode: 'facts' | 'clusters';
  drawn: number;
  feed: FeedLine[];
  selectedId: string | null;
  detail: FactDetail | null;
  searchHits: { id: string; label: string; score: number }[];
  gaps: Gaps | null;
  tokenRequired: boolean;
  tokenPrompt: boolean;
  tokenMessage: string;
  notice: string;
  /** Bonding: the fact a new link starts from, and the one picked as its target. */
  linkFrom: string | null;
  linkTarget: string | null;
  /** Counts facts added from the form (the form clears when it moves, also after a token prompt's retry). */
  added: number;
  filter: GraphFilter;
  /** The recall being explained (a feed line was clicked), or null. */
  why: WhyRecalled | null;
  /** Time travel: the graph as of this time (epoch ms), or null for now (live). */
  asOf: number | null;
  /** Where the memory's history starts (the earliest visible fact), or null with no facts. */
  historyFrom: number | null;
  /** The time-travel player is running. */
  playing: boolean;
  /** Facts in the graph last read (the past view's count). */
  pastFacts: number;
  /** How facts are placed: by their links and strength, or by meaning (the semantic map). */
  layout: 'links' | 'meaning';
  /** What the semantic map could not do ("3 facts have no vector yet ..."), or ''. */
  mapNote: string;
}

export const initialUi = (): UiState => ({
  live: 'connecting',
  totalFacts: 0,
  links: 0,
  openConflicts: 0,
  searchMode: '',
  truncated: false,
  mode: 'facts',
  drawn: 0,
  feed: [],
  selectedId: null,
  detail: null,
  searchHits: [],
  gaps: null,
  tokenRequired: false,
  tokenPrompt: false,
  tokenMessage: '',
  notice: '',
  linkFrom: null,
  linkTarget: null,
  why: null,
  added: 0,
  asOf: null,
  historyFrom: null,
  playing: false,
  pastFacts: 0,
  layout: 'links',
  mapNote: '',
  filter: { categories: [], minStrength: 0, includeSuperseded: false, search: '' },
});
