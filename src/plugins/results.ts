/**
 * What a hook's answer means, checked at the edge: a plugin's return value is untrusted input. Each reader
 * returns what to do next, or throws a MemoryError (wrong shape: MEM_ERR_INVALID_INPUT; a change the
 * plugin may not make: MEM_ERR_PLUGIN_CAPABILITY) that the host hands to the plugin's policy.
 */
import { z } from 'zod';
import { MemoryError, describeValue, invalidInput } from '../core/errors.js';
import { parse, recallSchema, storeSchema } from '../memory/inputs.js';
import { toDraft } from '../memory/hooked.js';
import type { FactDraft, SearchHit, SearchQuery, StoreInfo } from '../memory/plugin-hooks.js';
import type { Capability } from './types.js';

type Caps = Readonly<Record<Capability, boolean>>;

export type Verdict<T> = { readonly go: T } | { readonly veto: string | null };

const vetoSchema = z.strictObject({ veto: z.literal(true), reason: z.string().max(1000).optional() });

/** `false` or `{ veto: true, reason? }`: an explicit refusal. */
function vetoOf(answer: unknown): string | null | undefined {
  if (answer === false) return null;
  if (typeof answer === 'object' && answer !== null && 'veto' in answer) {
    const v = vetoSchema.safeParse(answer);
    if (!v.success) throw invalidInput('veto', '{ veto: true, reason?: string }', answer);
    return v.data.reason ?? null;
  }
  return undefined;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const DRAFT_KEYS = ['text', 'category', 'entity', 'tags', 'importance', 'confidence', 'decayClass', 'expiresAt', 'pinned', 'scope', 'scopeAgentId', 'scopeSessionId', 'supersedes'] as const;
const QUERY_KEYS = ['query', 'limit', 'category', 'includeSuperseded'] as const;
const sameDraft = (a: FactDraft, b: FactDraft): boolean => DRAFT_KEYS.every((k) => same(a[k], b[k]));
const sameQuery = (a: SearchQuery, b: SearchQuery): boolean => QUERY_KEYS.every((k) => same(a[k], b[k]));
const FIXED_IN_EDIT = ['scope', 'scopeAgentId', 'scopeSessionId', 'pinned', 'supersedes'] as const;


/** beforeFactStore: nothing (unchanged), the fact (maybe changed), or a veto. */
export function readStoreAnswer(answer: unknown, draft: FactDraft, info: StoreInfo, caps: Caps, id: string): Verdict<FactDraft> {
  if (answer === undefined) return { go: draft };
  const veto = vetoOf(answer);
  if (veto !== undefined) return { veto };
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw invalidInput('beforeFactStore', 'the fact, false or { veto: true, reason }', answer);
  const next = toDraft(parse(storeSchema, answer, 'beforeFactStore(fact)'));
  if (sameDraft(next, draft)) return { go: draft };
  if (!caps.canModifyFacts) throw new MemoryError('MEM_ERR_PLUGIN_CAPABILITY', `plugin ${id}: beforeFactStore changed the fact without the canModifyFacts capability`);
  if (info.operation === 'edit') {
    const changed = FIXED_IN_EDIT.filter((k) => !same(next[k], draft[k]));
    if (changed.length > 0) throw invalidInput('beforeFactStore(fact)', `an edit with ${changed.join(', ')} unchanged`, changed.map((k) => `${k} = ${describeValue(next[k])}`).join(', '));
  }
  return { go: next };
}

/** beforeFactDelete: true or nothing lets it go on; false or a veto refuses. */
export function readDeleteAnswer(answer: unknown): Verdict<true> {
  if (answer === undefined || answer === true) return { go: true };
  const veto = vetoOf(answer);
  if (veto !== undefined) return { veto };
  throw invalidInput('beforeFactDelete', 'true, false or { veto: true, reason }', answer);
}

/** beforeSearch: nothing (unchanged), the query text, or the query object. */
export function readSearchAnswer(answer: unknown, query: SearchQuery, caps: Caps, id: string): SearchQuery {
  if (answer === undefined) return query;
  const raw = typeof answer === 'string' ? { ...query, query: answer } : answer;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidInput('beforeSearch', 'the query (an object or its text)', answer);
  const q = parse(recallSchema, raw, 'beforeSearch(query)');
  const next: SearchQuery = { query: q.query, limit: q.limit, includeSuperseded: q.includeSuperseded, ...(q.category !== undefined ? { category: q.category } : {}) };
  if (sameQuery(next, query)) return query;
  if (!caps.canInterceptSearch) throw new MemoryError('MEM_ERR_PLUGIN_CAPABILITY', `plugin ${id}: beforeSearch changed the query without the canInterceptSearch capability`);
  return next;
}

/**
 * afterSearch: nothing (unchanged) or the results to keep: hits from those given (matched by fact id), in
 * any order. The hits returned are ours, so a plugin can drop or reorder results but not rewrite them.
 */
export function readResultsAnswer(answer: unknown, hits: readonly SearchHit[], caps: Caps, id: string): readonly SearchHit[] {
  if (answer === undefined) return hits;
  if (!Array.isArray(answer)) throw invalidInput('afterSearch', 'an array of the results to keep', answer);
  const byId = new Map(hits.map((h) => [h.fact.id as string, h]));
  const seen = new Set<string>();
  const kept = answer.map((item: unknown, k) => {
    const factId = (item as { fact?: { id?: unknown } } | null)?.fact?.id;
    const hit = typeof factId === 'string' ? byId.get(factId) : undefined;
    if (!hit || seen.has(factId as string)) throw invalidInput(`afterSearch[${k}]`, 'one of the results given (each once)', typeof factId === 'string' ? factId : item);
    seen.add(factId as string);
    return hit;
  });
  if (kept.length === hits.length && kept.every((h, k) => h === hits[k])) return hits;
  if (!caps.canInterceptSearch) throw new MemoryError('MEM_ERR_PLUGIN_CAPABILITY', `plugin ${id}: afterSearch changed the results without the canInterceptSearch capability`);
  return kept;
}

const endpointSchema = z
  .strictObject({
    status: z.int().min(200).max(599).default(200),
    headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'a header name'), z.string().max(8192).regex(/^[^\r\n\0]*$/, 'a header value without line breaks')).default({}),
    body: z.string().max(16 * 1024 * 1024).optional(),
    json: z.unknown().optional(),
  })
  .refine((r) => r.body === undefined || r.json === undefined, 'either body or json, not both');

/** Headers a plugin may not set: CORS (never, anywhere on this server), cookies, framing and length. */
const FORBIDDEN_HEADER = /^(?:access-control-.*|set-cookie|content-length|transfer-encoding|connection|x-frame-options|x-content-type-options|content-security-policy|referrer-policy)$/i;

export function readEndpointAnswer(answer: unknown): { status: number; headers: Record<string, string>; body: string } {
  const r = parse(endpointSchema, answer ?? {}, 'endpoint response');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (!FORBIDDEN_HEADER.test(k)) headers[k.toLowerCase()] = v;
  if (r.json !== undefined) {
    headers['content-type'] ??= 'application/json; charset=utf-8';
    return { status: r.status, headers, body: JSON.stringify(r.json) };
  }
  headers['content-type'] ??= 'text/plain; charset=utf-8';
  return { status: r.status, headers, body: r.body ?? '' };
}

const commandSchema = z.strictObject({ output: z.string().max(16 * 1024 * 1024).optional(), exitCode: z.int().min(0).max(255).default(0), json: z.unknown().optional() });

export function readCommandAnswer(answer: unknown): { output: string; exitCode: number; json: unknown } {
  if (answer === undefined) return { output: '', exitCode: 0, json: null };
  if (typeof answer === 'string') return { output: answer, exitCode: 0, json: { output: answer } };
  const r = parse(commandSchema, answer, 'command result');
  return { output: r.output ?? '', exitCode: r.exitCode, json: r.json ?? { output: r.output ?? '' } };
}
