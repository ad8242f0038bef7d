/**
 * The domain vocabulary: fixed sets as `as const` arrays with derived unions, and the record shapes
 * every layer shares. Values come from the spec ("Resources and their fields").
 */
import type { ConflictId, EpisodeId, FactId, LinkId, RecallEventId } from './ids.js';

export const CATEGORIES = ['preference', 'decision', 'entity', 'fact', 'other', 'technical'] as const;
export type Category = (typeof CATEGORIES)[number];

export const DECAY_CLASSES = ['permanent', 'stable', 'episodic', 'volatile'] as const;
export type DecayClass = (typeof DECAY_CLASSES)[number];

export const LINK_TYPES = ['RELATED_TO', 'CAUSED_BY', 'PART_OF', 'DEPENDS_ON', 'SUPERSEDES', 'INSTANCE_OF', 'CONTRADICTS'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const SCOPE_KINDS = ['global', 'agent', 'session'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

export const CALLER_ROLES = ['operator', 'orchestrator', 'specialist'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

export const CONFLICT_STATUSES = ['unresolved', 'resolved', 'reviewed'] as const;
export type ConflictStatus = (typeof CONFLICT_STATUSES)[number];

export const CONFLICT_RESOLUTIONS = ['keep_new', 'keep_old', 'both_fine'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

export const VAULT_TYPES = ['password', 'token', 'api_key', 'ssh_key', 'certificate', 'other'] as const;
export type VaultType = (typeof VAULT_TYPES)[number];

/** Where a fact version came from; `collab`: an accepted collaboration suggestion. */
export const FACT_SOURCES = ['tool', 'cli', 'import', 'graphql', 'plugin', 'system', 'collab', 'auto-capture'] as const;
export type FactSource = (typeof FACT_SOURCES)[number];

/** Where a fact is visible. `agentId` is set for agent scope, `sessionId` (and the writing agent) for session scope. */
export interface Scope {
  readonly kind: ScopeKind;
  readonly agentId: string | null;
  readonly sessionId: string | null;
}

export const GLOBAL_SCOPE: Scope = Object.freeze({ kind: 'global', agentId: null, sessionId: null });

/** Who is asking. Every service call carries one. */
export interface Caller {
  readonly role: CallerRole;
  readonly agentId: string | null;
  readonly sessionId: string | null;
}

/** The local operator (CLI, dashboard user): sees everything. */
export const OPERATOR: Caller = Object.freeze({ role: 'operator', agentId: null, sessionId: null });

/** A stored fact, one version of it. */
export interface Fact {
  readonly id: FactId;
  readonly text: string;
  readonly category: Category;
  readonly entity: string | null;
  readonly tags: readonly string[];
  readonly importance: number;
  readonly confidence: number;
  readonly decayClass: DecayClass;
  readonly expiresAt: number | null;
  readonly pinned: boolean;
  readonly scope: Scope;
  /** The first version's id: every version of one fact shares it. */
  readonly lineageId: FactId;
  readonly version: number;
  /** The version this one replaced, if any. */
  readonly supersedes: FactId | null;
  /** The version that replaced this one; non-null means this version is superseded. */
  readonly supersededBy: FactId | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastRecalledAt: number | null;
  readonly recallCount: number;
  /** This version is the truth from validFrom until validUntil (null: still current). */
  readonly validFrom: number;
  readonly validUntil: number | null;
  readonly deletedAt: number | null;
  /** Why the fact stopped being current: superseded, deleted, expired (scheduled), decayed (maintenance). */
  readonly endedReason: EndReason | null;
  readonly episodeId: EpisodeId | null;
  /** Set on a pointer fact for a vault credential: the vault service name. */
  readonly vaultService: string | null;
  readonly source: FactSource;
}

export const END_REASONS = ['superseded', 'deleted', 'expired', 'decayed'] as const;
export type EndReason = (typeof END_REASONS)[number];

export interface Link {
  readonly id: LinkId;
  readonly sourceId: FactId;
  readonly targetId: FactId;
  readonly linkType: LinkType;
  readonly strength: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastStrengthenedAt: number | null;
  /** How many times the link was reinforced (re-linked or co-recalled). */
  readonly reinforcements: number;
}

export interface Episode {
  readonly id: EpisodeId;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly title: string;
  readonly startedAt: number;
  readonly lastActivityAt: number;
  readonly factCount: number;
  readonly recallCount: number;
}

export interface Conflict {
  readonly id: ConflictId;
  /** The newer fact (the one whose arrival raised the conflict). */
  readonly newFactId: FactId;
  readonly oldFactId: FactId;
  readonly status: ConflictStatus;
  readonly resolution: ConflictResolution | null;
  readonly reason: string;
  readonly createdAt: number;
  readonly resolvedAt: number | null;
}

/** Why a fact was recalled: its rank and score in each leg of hybrid search, and the fused score. */
export interface RecallWhy {
  /** 1-based rank in the full-text leg, or null when that leg did not return the fact. */
  readonly ftsRank: number | null;
  /** bm25 relevance (higher is better), or null. */
  readonly bm25: number | null;
  /** 1-based rank in the vector leg, or null. */
  readonly vectorRank: number | null;
  /** Cosine similarity of query and fact, or null. */
  readonly similarity: number | null;
  /** The fused score in [0, 1]: normalized bm25 and similarity, weighted (search.vectorWeight). */
  readonly fused: number;
  /**
   * The dialogue turn this one follows, when its full-text score is carried from that turn's match (a reply
   * to a matching question: src/core/turn-rank.ts); absent otherwise.
   */
  readonly replyTo?: FactId;
}

export interface FactScore extends Partial<RecallWhy> {
  readonly factId: FactId;
  /** The final score in [0, 1]. */
  readonly score: number;
}

export const RECALL_KINDS = ['memory_recall', 'auth_failure', 'relevant'] as const;
export type RecallKind = (typeof RECALL_KINDS)[number];

export interface RecallEvent {
  readonly id: RecallEventId;
  readonly kind: RecallKind;
  readonly query: string;
  readonly target: string | null;
  readonly owner: Caller;
  readonly scores: readonly FactScore[];
  readonly createdAt: number;
  /** What in the turn triggered it (auth-failure hints: the failing lines, secrets redacted), or null. */
  readonly excerpt: string | null;
}

/** How far a long operation (embedding, import, export) has got. */
export interface Progress {
  readonly done: number;
  readonly total: number;
}

/** A vault entry as listed: never the secret. */
export interface VaultEntry {
  readonly service: string;
  readonly type: VaultType;
  readonly scope: Scope;
  readonly note: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}
