/** The export/import JSON format (docs/cli.md, "Export format"): constants, record schemas and types. */
import { z } from 'zod';
import { LINK_RULES } from '../core/rules.js';
import { LINK_TYPES, SCOPE_KINDS, VAULT_TYPES, type Fact, type Link, type Scope, type VaultEntry } from '../core/types.js';
import { LIMITS, idSchemas, plain, plainText, storeSchema } from './inputs.js';

export const EXPORT_FORMAT = 'hybrid-mem-export';
export const EXPORT_VERSION = 1;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
/** Epoch milliseconds or an ISO-8601 date-time. */
export const time = z.union([z.int().min(0), z.iso.datetime({ offset: true }).transform((s) => Date.parse(s))]);
const name = plainText(LIMITS.idMax);

export const scopeSchema = z
  .strictObject({ kind: z.enum(SCOPE_KINDS), agentId: name.nullable().default(null), sessionId: name.nullable().default(null) })
  .refine((s) => s.kind !== 'agent' || s.agentId !== null, { message: 'an agentId for agent scope', path: ['agentId'] })
  .refine((s) => s.kind !== 'session' || s.sessionId !== null, { message: 'a sessionId for session scope', path: ['sessionId'] })
  .transform((s): Scope => (s.kind === 'global' ? { kind: 'global', agentId: null, sessionId: null } : s.kind === 'agent' ? { ...s, sessionId: null } : s));

const s = storeSchema.shape;
export const factRecord = z
  .strictObject({
    id: idSchemas.fact.optional(),
    text: s.text,
    category: s.category,
    entity: s.entity,
    tags: s.tags,
    importance: s.importance,
    confidence: s.confidence,
    decayClass: s.decayClass,
    expiresAt: s.expiresAt,
    pinned: s.pinned,
    scope: scopeSchema.default({ kind: 'global', agentId: null, sessionId: null }),
    vaultService: plainText(LIMITS.entityMax).nullable().default(null),
    lineageId: idSchemas.fact.optional(),
    version: z.int().min(1).default(1),
    supersedes: idSchemas.fact.nullable().default(null),
    supersededBy: idSchemas.fact.nullable().default(null),
    createdAt: time.optional(),
    updatedAt: time.optional(),
    validFrom: time.optional(),
    validUntil: time.nullable().default(null),
    lastRecalledAt: time.nullable().default(null),
  })
  .refine((f) => (f.validUntil === null) === (f.supersededBy === null), { message: 'validUntil and supersededBy set together (a superseded version)', path: ['supersededBy'] });
export type FactRecord = z.output<typeof factRecord>;

export const linkRecord = z.strictObject({
  id: idSchemas.link.optional(),
  sourceId: idSchemas.fact,
  targetId: idSchemas.fact,
  linkType: z.enum(LINK_TYPES).default('RELATED_TO'),
  strength: z.number().min(0).max(1).default(LINK_RULES.defaultStrength),
  createdAt: time.optional(),
});

export const vaultRecord = z.strictObject({
  service: plainText(LIMITS.entityMax),
  type: z.enum(VAULT_TYPES),
  scope: scopeSchema.default({ kind: 'global', agentId: null, sessionId: null }),
  note: plain(z.string().max(500)).nullable().default(null),
});

export const documentSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: time.optional(),
  facts: z.array(z.unknown()).default([]),
  links: z.array(z.unknown()).default([]),
  vault: z.array(z.unknown()).default([]),
});

type Dropped = 'recallCount' | 'deletedAt' | 'endedReason' | 'episodeId' | 'source' | Times;
type Times = 'expiresAt' | 'createdAt' | 'updatedAt' | 'validFrom' | 'validUntil' | 'lastRecalledAt';
/** A fact as exported: times as ISO-8601 strings; recall counts, episodes and deletion state stay behind. */
export type ExportedFact = Omit<Fact, Dropped> &
  Readonly<Record<'createdAt' | 'updatedAt' | 'validFrom', string>> &
  Readonly<Record<'expiresAt' | 'validUntil' | 'lastRecalledAt', string | null>>;
export type ExportedLink = Pick<Link, 'id' | 'sourceId' | 'targetId' | 'linkType' | 'strength'> & { readonly createdAt: string };
export type ExportedVaultEntry = Pick<VaultEntry, 'service' | 'type' | 'scope' | 'note'>;

export interface ExportDocument {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  readonly exportedAt: string;
  readonly facts: readonly ExportedFact[];
  readonly links: readonly ExportedLink[];
  readonly vault: readonly ExportedVaultEntry[];
}

