/** Facts by meaning alone: the vector leg of recall, for callers that want neighbours, not a ranked recall (plugins' vectorDb). */
import { MemoryError, invalidInput } from '../core/errors.js';
import { visibility } from '../core/scope.js';
import type { Caller, Fact } from '../core/types.js';
import type { Ctx } from './context.js';
import { LIMITS } from './inputs.js';
import type { Semantic } from './semantic.js';

export interface VectorMatch {
  readonly fact: Fact;
  /** Cosine similarity of the query and the fact. */
  readonly similarity: number;
}

export async function vectorSearch(ctx: Ctx, semantic: Semantic | null, query: string, caller: Caller, limit: number, deadlineMs: number): Promise<VectorMatch[]> {
  if (typeof query !== 'string' || query.trim() === '' || query.length > LIMITS.queryMax) throw invalidInput('vectorSearch.query', `text of 1..${LIMITS.queryMax} characters`, query);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.recallMax) throw invalidInput('vectorSearch.limit', `an integer from 1 to ${LIMITS.recallMax}`, limit);
  if (!semantic) throw new MemoryError('MEM_ERR_SEMANTIC_UNAVAILABLE', 'vector search needs the semantic layer (embedding.enabled, and a running `hybrid-mem serve`)');
  const leg = await semantic.search(query, limit, { visibility: visibility(caller), includeSuperseded: false }, Math.max(deadlineMs, 2000));
  if (!leg.hits) throw new MemoryError('MEM_ERR_SEMANTIC_UNAVAILABLE', `vector search failed: ${leg.reason ?? 'no answer'}`);
  const sim = new Map(leg.hits.map((h) => [h.seq, h.similarity]));
  return ctx.facts
    .bySeqs(leg.hits.map((h) => h.seq))
    .map(({ seq, ...fact }) => ({ fact, similarity: Math.round((sim.get(seq) ?? 0) * 10_000) / 10_000 }))
    .sort((a, b) => b.similarity - a.similarity);
}
