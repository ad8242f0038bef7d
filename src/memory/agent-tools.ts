/**
 * The agent tools (spec: memory_store, memory_link, memory_recall, credential_get; and memory_capture) as one transport-free
 * table: a name, a description for the model, a JSON Schema of the input (generated from the same zod
 * schema that validates it), and a call that answers with a short text for the model plus the data.
 * The MCP server (src/mcp) and the OpenClaw plugin (src/openclaw) both serve this table, so an agent
 * sees the same tools, inputs and errors through either.
 *
 * A call never throws: bad input, a refused scope or a missing credential come back as a typed error
 * (`MEM_ERR_*` code, message, details), and nothing was written.
 */
import { z } from 'zod';
import { toWire, type WireError } from '../core/errors.js';
import { oneLine } from '../core/text.js';
import type { Caller, Fact, Link } from '../core/types.js';
import { replacedBy } from './capture.js';
import { captureSchema, credentialGetSchema, linkSchema, parse, recallSchema, storeSchema } from './inputs.js';
import type { MemoryService } from './service.js';

export const AGENT_TOOL_NAMES = ['memory_store', 'memory_link', 'memory_recall', 'memory_capture', 'credential_get'] as const;
export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number];

/** A JSON Schema object (draft 2020-12), as MCP's `inputSchema` and OpenClaw's tool `parameters` take it. */
export interface ToolInputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
  readonly [key: string]: unknown;
}

export type ToolData = Readonly<Record<string, unknown>>;

export type ToolOutcome =
  | { readonly ok: true; readonly text: string; readonly data: ToolData }
  | { readonly ok: false; readonly text: string; readonly error: WireError };

export interface AgentTool {
  readonly name: AgentToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  /** True when the tool changes memory (MCP annotations, gateway policies). */
  readonly writes: boolean;
}

interface ToolImpl extends AgentTool {
  run(svc: MemoryService, caller: Caller, args: unknown): Promise<{ text: string; data: ToolData }>;
}

/** An agent writes only into its own scopes: the operator's scopeAgentId/scopeSessionId are not offered. */
const storeToolSchema = storeSchema.omit({ scopeAgentId: true, scopeSessionId: true });

const ISO = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What an agent needs of a fact (ids, text, kind, weight, scope, times): not the bookkeeping columns. */
export function toolFact(f: Fact): ToolData {
  return {
    id: f.id,
    text: f.text,
    category: f.category,
    entity: f.entity,
    tags: f.tags,
    importance: f.importance,
    confidence: f.confidence,
    pinned: f.pinned,
    scope: f.scope.kind,
    version: f.version,
    current: f.supersededBy === null && f.validUntil === null,
    createdAt: ISO(f.createdAt),
    expiresAt: ISO(f.expiresAt),
  };
}

const toolLink = (l: Link): ToolData => ({ id: l.id, sourceId: l.sourceId, targetId: l.targetId, linkType: l.linkType, strength: l.strength });


/** The JSON Schema of a zod input schema, as a tool input: draft 2020-12 without `$schema`, input side. */
export function toolInputSchema(schema: z.ZodType): ToolInputSchema {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return stripDatePatterns(json) as unknown as ToolInputSchema;
}

/** zod writes a 300-character regular expression beside `format: date-time`; the format says it. */
function stripDatePatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDatePatterns);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  const o = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'pattern' && o.format === 'date-time') continue;
    out[k] = stripDatePatterns(v);
  }
  return out;
}

const TOOLS: readonly ToolImpl[] = [
  {
    name: 'memory_store',
    title: 'Store a memory',
    description:
      'Store a fact in long-term memory (a preference, decision, entity, technical detail). Storing the same current fact again returns the existing one; a fact that contradicts a current fact about the same entity is stored and reported as a conflict. Never store secrets here: passwords and keys belong in the vault.',
    inputSchema: toolInputSchema(storeToolSchema),
    writes: true,
    async run(svc, caller, args) {
      parse(storeToolSchema, args, 'memory_store');
      const r = await svc.storeWithHooks(args as z.input<typeof storeToolSchema>, caller, 'tool');
      const lines = [r.created ? `Stored ${r.fact.id}.` : `Already known as ${r.fact.id}; nothing new was stored.`];
      for (const c of r.conflicts) lines.push(`Conflict ${c.id}: it contradicts ${c.oldFactId} (${c.reason}).`);
      return { text: lines.join('\n'), data: { fact: toolFact(r.fact), created: r.created, conflicts: r.conflicts.map((c) => ({ id: c.id, oldFactId: c.oldFactId, reason: c.reason })) } };
    },
  },
  {
    name: 'memory_link',
    title: 'Link two memories',
    description:
      'Link two stored facts with a typed edge (RELATED_TO, CAUSED_BY, PART_OF, DEPENDS_ON, SUPERSEDES, INSTANCE_OF, CONTRADICTS). Linking a linked pair again strengthens the link. CONTRADICTS opens a conflict for the operator to settle.',
    inputSchema: toolInputSchema(linkSchema),
    writes: true,
    async run(svc, caller, args) {
      const r = svc.memoryLink(parse(linkSchema, args, 'memory_link'), caller);
      const l = r.link;
      const verb = r.created ? 'Linked' : 'Strengthened';
      return { text: `${verb} ${l.sourceId} -[${l.linkType}]-> ${l.targetId} (${l.id}, strength ${l.strength.toFixed(2)}).`, data: { link: toolLink(l), created: r.created } };
    },
  },
  {
    name: 'memory_recall',
    title: 'Recall memories',
    description:
      'Search long-term memory by words and by meaning (hybrid full-text + vector search). Returns the best-matching current facts with their ids and scores; each recall strengthens what it finds.',
    inputSchema: toolInputSchema(recallSchema),
    writes: false,
    async run(svc, caller, args) {
      const r = await svc.memoryRecall(parse(recallSchema, args, 'memory_recall'), caller);
      const lines = r.results.length
        ? r.results.map((h, i) => `${i + 1}. [${h.fact.category}] ${oneLine(h.fact.text, 300, '…')} (${h.fact.id}, score ${h.score.toFixed(3)})`)
        : ['No matching memories.'];
      if (r.degraded) lines.push(`(full-text only: ${r.reason ?? 'the vector search did not answer in time'})`);
      return {
        text: lines.join('\n'),
        data: { mode: r.mode, degraded: r.degraded, recallId: r.recallId, results: r.results.map((h) => ({ score: h.score, fact: toolFact(h.fact) })) },
      };
    },
  },
  {
    name: 'memory_capture',
    title: 'Capture memories from a conversation',
    description:
      "Read a conversation and keep what the user said that is worth remembering (explicit requests, preferences, decisions, facts about named things, corrections), offline: rules and a small classifier over the local embeddings. Facts memory already has are strengthened, a correction replaces the fact it corrects, and secret values are never kept. Only the user's messages are read. dryRun reports without writing.",
    inputSchema: toolInputSchema(captureSchema),
    writes: true,
    async run(svc, caller, args) {
      const i = parse(captureSchema, args, 'memory_capture');
      const { decisions: r, by } = await svc.capture(i.transcript, caller, { dryRun: i.dryRun });
      const kept = r.filter((d) => d.action !== 'skipped');
      const lines = kept.length
        ? kept.map((d) => `${d.action}${i.dryRun ? ' (dry run)' : ''}: [${d.found.rule}] ${oneLine(d.found.text, 200, '…')}${d.fact ? ` (${d.fact.id})` : ''}${d.replaces ? `, replacing ${replacedBy(d).map((f) => f.id).join(', ')}` : ''}`)
        : ['Nothing worth keeping was found.'];
      return {
        text: lines.join('\n'),
        data: { dryRun: i.dryRun, by, decisions: r.map((d) => ({ action: d.action, rule: d.found.rule, text: d.found.text, category: d.found.category, factId: d.fact?.id ?? null, replaces: d.replaces?.id ?? null, alsoReplaces: replacedBy(d).slice(1).map((f) => f.id), reason: d.reason })) },
      };
    },
  },
  {
    name: 'credential_get',
    title: 'Get a vault credential',
    description:
      'Retrieve a credential held in the encrypted vault, by the service name a memory hint gave (e.g. "Credential for `db.internal` ... use credential_get(service=db.internal)"). Use the secret for the task at hand only; never store it in memory or repeat it.',
    inputSchema: toolInputSchema(credentialGetSchema),
    writes: false,
    async run(svc, caller, args) {
      const c = svc.credentialGet(parse(credentialGetSchema, args, 'credential_get'), caller);
      return { text: `Credential for ${c.service} (${c.type}): ${c.secret}`, data: { service: c.service, type: c.type, secret: c.secret } };
    },
  },
];

/** The tools, for listing (without their implementations). */
export const AGENT_TOOLS: readonly AgentTool[] = TOOLS.map(({ name, title, description, inputSchema, writes }) => Object.freeze({ name, title, description, inputSchema, writes }));

export function isAgentToolName(name: unknown): name is AgentToolName {
  return typeof name === 'string' && (AGENT_TOOL_NAMES as readonly string[]).includes(name);
}

/** Run one tool as `caller`. Never throws: a failure is `{ok: false, error}` with its code, and wrote nothing. */
export async function callAgentTool(svc: MemoryService, caller: Caller, name: AgentToolName, args: unknown): Promise<ToolOutcome> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown agent tool ${name}`);
  try {
    const { text, data } = await tool.run(svc, caller, args ?? {});
    return { ok: true, text, data };
  } catch (err) {
    const error = toWire(err);
    return { ok: false, text: `${error.code}: ${error.message}`, error };
  }
}
