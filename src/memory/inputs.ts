/**
 * Validation of every service input at the edge (agent tools, CLI, GraphQL all come through here).
 * Messages name the field, what was expected and what arrived; nothing is written on failure.
 */
import { z } from 'zod';
import { describeIssues, issuesMessage } from '../config/issues.js';
import { MemoryError, describeValue } from '../core/errors.js';
import { codePointName, findControl } from '../core/terminal.js';
import { isConflictId, isFactId, isLinkId, type ConflictId, type FactId, type LinkId } from '../core/ids.js';
import { OPERATOR, CALLER_ROLES, CATEGORIES, CONFLICT_RESOLUTIONS, DECAY_CLASSES, LINK_TYPES, SCOPE_KINDS, VAULT_TYPES, type Caller } from '../core/types.js';

export const LIMITS = Object.freeze({ textMax: 10_000, entityMax: 200, tagMax: 64, tagsMax: 32, queryMax: 1000, recallMax: 50, idMax: 200, secretMax: 65_536 });

/**
 * Stored free text may not hold NUL, C0 controls other than tab and newline, DEL or C1 controls: they
 * drive the terminal a later `list` prints to (src/core/terminal.ts). The message names the character.
 */
export const plain = <T extends z.ZodString>(schema: T): T =>
  schema.superRefine((value, ctx) => {
    const found = findControl(value);
    if (found) {
      ctx.addIssue({ code: 'custom', input: value, message: `text without control characters or bidi overrides (tab and newline are allowed), found ${codePointName(found.char)} at character ${found.index + 1}` });
    }
  });
/** Free text of 1..max characters, trimmed, without control characters. */
export const plainText = (max: number) => plain(z.string().trim().min(1).max(max));
const name = plainText;
const unit = z.number().min(0).max(1);
const factId = z.string().refine(isFactId, 'a fact id (fact_...)').transform((s) => s as FactId);
const linkId = z.string().refine(isLinkId, 'a link id (link_...)').transform((s) => s as LinkId);
const conflictId = z.string().refine(isConflictId, 'a conflict id (cf_...)').transform((s) => s as ConflictId);
/** Epoch milliseconds or an ISO-8601 date-time string. */
const time = z.union([z.int().min(0), z.iso.datetime({ offset: true }).transform((s) => Date.parse(s))]);
const tags = z
  .array(name(LIMITS.tagMax).transform((t) => t.toLowerCase()))
  .max(LIMITS.tagsMax)
  .transform((ts) => [...new Set(ts)]);

export const callerSchema = z.strictObject({
  role: z.enum(CALLER_ROLES),
  agentId: name(LIMITS.idMax).nullable().default(null),
  sessionId: name(LIMITS.idMax).nullable().default(null),
});

export const storeSchema = z.strictObject({
  text: plainText(LIMITS.textMax).describe('The fact, one self-contained statement.'),
  category: z.enum(CATEGORIES).default('fact').describe('What kind of memory it is.'),
  entity: name(LIMITS.entityMax).nullable().default(null).describe('What the fact is about (a host, project, person); conflicts are detected per entity.'),
  tags: tags.default([]).describe('Short keywords, lower-cased.'),
  importance: unit.default(0.5).describe('0..1: how much it matters.'),
  confidence: unit.default(0.8).describe('0..1: how sure the source is.'),
  decayClass: z.enum(DECAY_CLASSES).default('stable').describe('How fast it fades when not recalled: permanent never, volatile within days.'),
  expiresAt: time.nullable().default(null).describe('When it stops being true: epoch milliseconds or an ISO-8601 date-time.'),
  pinned: z.boolean().default(false).describe('Pinned facts stay central and do not decay.'),
  scope: z.enum(SCOPE_KINDS).default('global').describe("Who sees it: global (everyone), agent (this agent), session (this session)."),
  /** Operator only: write into another agent's or session's scope. */
  scopeAgentId: name(LIMITS.idMax).optional(),
  scopeSessionId: name(LIMITS.idMax).optional(),
  /** Explicitly replace this (current) fact: the new fact becomes its next version. */
  supersedes: factId.optional().describe('The id (fact_...) of a current fact this one replaces; it becomes the new version.'),
});
export type StoreInput = z.input<typeof storeSchema>;

export const editSchema = z
  .strictObject({
    id: factId,
    text: plainText(LIMITS.textMax).optional(),
    category: z.enum(CATEGORIES).optional(),
    entity: name(LIMITS.entityMax).nullable().optional(),
    tags: tags.optional(),
    importance: unit.optional(),
    confidence: unit.optional(),
    decayClass: z.enum(DECAY_CLASSES).optional(),
    expiresAt: time.nullable().optional(),
  })
  .refine((e) => Object.keys(e).length > 1, 'at least one field to change besides id');
export type EditInput = z.input<typeof editSchema>;

export const linkSchema = z.strictObject({
  sourceId: factId.describe('The fact the link starts from (fact_...).'),
  targetId: factId.describe('The fact the link points to (fact_...).'),
  linkType: z.enum(LINK_TYPES).default('RELATED_TO').describe('How the two facts relate.'),
  strength: unit.optional().describe('0..1; linking an existing pair again strengthens it.'),
});
export type LinkInput = z.input<typeof linkSchema>;

export const recallSchema = z.strictObject({
  query: z.string().max(LIMITS.queryMax).describe('What to look for, in words; matched by full text and by meaning.'),
  limit: z.int().min(1).max(LIMITS.recallMax).default(10).describe('How many facts to return.'),
  category: z.enum(CATEGORIES).optional().describe('Only facts of this category.'),
  includeSuperseded: z.boolean().default(false).describe('Also search older versions of facts.'),
});
export type RecallInput = z.input<typeof recallSchema>;

/** What one capture call takes at most: messages, and characters of each (the CLI cuts a long session file to fit). */
export const CAPTURE_LIMITS = { messages: 500, contentChars: 100_000 } as const;

export const captureSchema = z.strictObject({
  transcript: z
    .array(z.strictObject({ role: z.string().min(1).max(40).describe('user, assistant or tool: only user messages are read.'), content: z.string().max(CAPTURE_LIMITS.contentChars) }))
    .min(1)
    .max(CAPTURE_LIMITS.messages)
    .describe('The conversation, oldest first: [{role, content}].'),
  dryRun: z.boolean().default(false).describe('Report what would be kept; write nothing.'),
});
export type CaptureInput = z.input<typeof captureSchema>;

export const credentialGetSchema = z.strictObject({ service: name(LIMITS.entityMax).describe('The service the credential is for, as a hint names it.') });

export const vaultPutSchema = z.strictObject({
  service: name(LIMITS.entityMax),
  /** Absent: the type the entry already has in that scope (stored, or named by an import), else password. */
  type: z.enum(VAULT_TYPES).optional(),
  secret: z.string().min(1).max(LIMITS.secretMax),
  /** Absent: the note the entry already has in that scope; null or empty clears it. */
  note: plain(z.string().trim().max(500)).nullable().optional(),
  scope: z.enum(SCOPE_KINDS).default('global'),
  scopeAgentId: name(LIMITS.idMax).optional(),
  scopeSessionId: name(LIMITS.idMax).optional(),
});
export type VaultPutInput = z.input<typeof vaultPutSchema>;

export const resolveSchema = z.strictObject({ id: conflictId, resolution: z.enum(CONFLICT_RESOLUTIONS) });
export const linkTypeSchema = z.strictObject({ id: linkId, linkType: z.enum(LINK_TYPES) });
export const idSchemas = { fact: factId, link: linkId, conflict: conflictId } as const;

/** Parse `input` with `schema`, or throw MEM_ERR_INVALID_INPUT naming every bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = describeIssues(r.error, input, what, 'field');
  const first = issues[0] ?? { path: what, expected: 'valid input', received: describeValue(input) };
  throw new MemoryError('MEM_ERR_INVALID_INPUT', issuesMessage(issues), { details: { ...first, issues } });
}

/**
 * Callers this module validated and froze. Every service call validates its caller; a server passes the
 * same parsed caller to many calls, and a frozen, already-checked object needs no second schema pass.
 */
const checked = new WeakSet<object>([OPERATOR]);

export function parseCaller(input: unknown): Caller {
  if (typeof input === 'object' && input !== null && checked.has(input)) return input as Caller;
  const caller = Object.freeze(parse(callerSchema, input, 'caller'));
  checked.add(caller);
  return caller;
}
