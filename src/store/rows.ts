/**
 * Rows as SQLite returns them, and their mapping to domain records. Rows read back from disk are an edge:
 * values outside the known sets are refused as corruption rather than passed on.
 */
import { MemoryError } from '../core/errors.js';
import type { ConflictId, EpisodeId, FactId, LinkId, RecallEventId } from '../core/ids.js';
import {
  CALLER_ROLES,
  CATEGORIES,
  DECAY_CLASSES,
  END_REASONS,
  FACT_SOURCES,
  LINK_TYPES,
  RECALL_KINDS,
  SCOPE_KINDS,
  type Conflict,
  type Episode,
  type Fact,
  type FactScore,
  type Link,
  type RecallEvent,
  type Scope,
} from '../core/types.js';

export interface FactRow {
  seq: number;
  id: string;
  text: string;
  category: string;
  entity: string | null;
  tags: string;
  importance: number;
  confidence: number;
  decay_class: string;
  expires_at: number | null;
  pinned: number;
  scope_kind: string;
  scope_agent: string | null;
  scope_session: string | null;
  lineage_id: string;
  version: number;
  supersedes: string | null;
  superseded_by: string | null;
  created_at: number;
  updated_at: number;
  last_recalled_at: number | null;
  recall_count: number;
  valid_from: number;
  valid_until: number | null;
  deleted_at: number | null;
  ended_reason: string | null;
  episode_id: string | null;
  vault_service: string | null;
  source: string;
}

/**
 * The facts columns a FactRow holds, in order, over alias `f`. Hot reads (search, recall's fetches, get by
 * id) select these with `.raw()` and build rows with factRow: SQLite's driver builds an object row key by
 * key, about three times the cost of an array and one object literal.
 */
export const FACT_COLUMNS =
  'f.seq, f.id, f.text, f.category, f.entity, f.tags, f.importance, f.confidence, f.decay_class, f.expires_at, f.pinned, f.scope_kind, f.scope_agent, ' +
  'f.scope_session, f.lineage_id, f.version, f.supersedes, f.superseded_by, f.created_at, f.updated_at, f.last_recalled_at, f.recall_count, ' +
  'f.valid_from, f.valid_until, f.deleted_at, f.ended_reason, f.episode_id, f.vault_service, f.source';

/** A FactRow from a raw row of FACT_COLUMNS. */
export function factRow(a: readonly unknown[]): FactRow {
  return {
    seq: a[0] as number,
    id: a[1] as string,
    text: a[2] as string,
    category: a[3] as string,
    entity: a[4] as string | null,
    tags: a[5] as string,
    importance: a[6] as number,
    confidence: a[7] as number,
    decay_class: a[8] as string,
    expires_at: a[9] as number | null,
    pinned: a[10] as number,
    scope_kind: a[11] as string,
    scope_agent: a[12] as string | null,
    scope_session: a[13] as string | null,
    lineage_id: a[14] as string,
    version: a[15] as number,
    supersedes: a[16] as string | null,
    superseded_by: a[17] as string | null,
    created_at: a[18] as number,
    updated_at: a[19] as number,
    last_recalled_at: a[20] as number | null,
    recall_count: a[21] as number,
    valid_from: a[22] as number,
    valid_until: a[23] as number | null,
    deleted_at: a[24] as number | null,
    ended_reason: a[25] as string | null,
    episode_id: a[26] as string | null,
    vault_service: a[27] as string | null,
    source: a[28] as string,
  };
}

function oneOf<T extends string>(set: readonly T[], value: string | null, field: string): T {
  if (value !== null && (set as readonly string[]).includes(value)) return value as T;
  throw new MemoryError('MEM_ERR_DB_CORRUPT', `stored ${field} has an unknown value ${JSON.stringify(value)}`);
}

function parseJson<T>(text: string, field: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new MemoryError('MEM_ERR_DB_CORRUPT', `stored ${field} is not valid JSON`, { cause });
  }
}

export function scopeOf(kind: string, agent: string | null, session: string | null): Scope {
  return { kind: oneOf(SCOPE_KINDS, kind, 'scope'), agentId: agent, sessionId: session };
}

export function toFact(r: FactRow): Fact {
  return {
    id: r.id as FactId,
    text: r.text,
    category: oneOf(CATEGORIES, r.category, 'category'),
    entity: r.entity,
    tags: parseJson<string[]>(r.tags, 'tags'),
    importance: r.importance,
    confidence: r.confidence,
    decayClass: oneOf(DECAY_CLASSES, r.decay_class, 'decay class'),
    expiresAt: r.expires_at,
    pinned: r.pinned === 1,
    scope: scopeOf(r.scope_kind, r.scope_agent, r.scope_session),
    lineageId: r.lineage_id as FactId,
    version: r.version,
    supersedes: r.supersedes as FactId | null,
    supersededBy: r.superseded_by as FactId | null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastRecalledAt: r.last_recalled_at,
    recallCount: r.recall_count,
    validFrom: r.valid_from,
    validUntil: r.valid_until,
    deletedAt: r.deleted_at,
    endedReason: r.ended_reason === null ? null : oneOf(END_REASONS, r.ended_reason, 'ended reason'),
    episodeId: r.episode_id as EpisodeId | null,
    vaultService: r.vault_service,
    source: oneOf(FACT_SOURCES, r.source, 'source'),
  };
}

export interface LinkRow {
  id: string;
  source_id: string;
  target_id: string;
  link_type: string;
  strength: number;
  created_at: number;
  updated_at: number;
  last_strengthened_at: number | null;
  reinforcements: number;
}

export function toLink(r: LinkRow): Link {
  return {
    id: r.id as LinkId,
    sourceId: r.source_id as FactId,
    targetId: r.target_id as FactId,
    linkType: oneOf(LINK_TYPES, r.link_type, 'link type'),
    strength: r.strength,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastStrengthenedAt: r.last_strengthened_at,
    reinforcements: r.reinforcements,
  };
}

export interface ConflictRow {
  id: string;
  new_fact_id: string;
  old_fact_id: string;
  status: string;
  resolution: string | null;
  reason: string;
  created_at: number;
  resolved_at: number | null;
}

export function toConflict(r: ConflictRow): Conflict {
  return {
    id: r.id as ConflictId,
    newFactId: r.new_fact_id as FactId,
    oldFactId: r.old_fact_id as FactId,
    status: oneOf(['unresolved', 'resolved', 'reviewed'] as const, r.status, 'conflict status'),
    resolution: r.resolution === null ? null : oneOf(['keep_new', 'keep_old', 'both_fine'] as const, r.resolution, 'conflict resolution'),
    reason: r.reason,
    createdAt: r.created_at,
    resolvedAt: r.resolved_at,
  };
}

export interface EpisodeRow {
  id: string;
  agent_id: string | null;
  session_id: string | null;
  title: string;
  started_at: number;
  last_activity_at: number;
  fact_count: number;
  recall_count: number;
}

export function toEpisode(r: EpisodeRow): Episode {
  return {
    id: r.id as EpisodeId,
    agentId: r.agent_id,
    sessionId: r.session_id,
    title: r.title,
    startedAt: r.started_at,
    lastActivityAt: r.last_activity_at,
    factCount: r.fact_count,
    recallCount: r.recall_count,
  };
}

export interface RecallRow {
  id: string;
  kind: string;
  query: string;
  target: string | null;
  owner_role: string;
  owner_agent: string | null;
  owner_session: string | null;
  scores: string;
  created_at: number;
  excerpt: string | null;
}

export function toRecall(r: RecallRow): RecallEvent {
  return {
    id: r.id as RecallEventId,
    kind: oneOf(RECALL_KINDS, r.kind, 'recall kind'),
    query: r.query,
    target: r.target,
    owner: { role: oneOf(CALLER_ROLES, r.owner_role, 'owner role'), agentId: r.owner_agent, sessionId: r.owner_session },
    scores: parseJson<FactScore[]>(r.scores, 'recall scores'),
    createdAt: r.created_at,
    excerpt: r.excerpt ?? null,
  };
}
