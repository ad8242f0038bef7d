/**
 * Suggested links: pairs of visible current facts whose embeddings are near-duplicates or paraphrases,
 * not linked yet. The pairwise scan runs in the vector worker on the WASM core (VectorCore.pairwise) over
 * the newest 3000 visible facts that have a vector (PAIRS_MAX_ROWS in src/actors/vector/hnsw.ts); facts
 * still waiting for their embedding are not considered yet.
 *
 * - threshold: cosine similarity at or above which a pair is suggested. Default 0.75: with the shipped
 *   embedding model, paraphrases of one statement measured 0.74-0.85 while facts that merely share words
 *   or a topic stayed at or below 0.50, so 0.75 keeps suggestions precise (pass ~0.7 to catch looser
 *   paraphrases).
 * - A pair is left out when any link already joins the two facts, of any type, in either direction.
 * - Both facts must be visible to the caller: the worker's SQL filter applies the visibility rule, and
 *   every fact is checked again here with `isVisible` before it is returned.
 * - `sourceId` is the older fact (lower seq), `targetId` the newer; best first.
 */
import type { VectorPair } from '../actors/vector/contract.js';
import { invalidInput, MemoryError } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import { isVisible, visibility } from '../core/scope.js';
import type { Caller } from '../core/types.js';
import type { Ctx } from './context.js';
import type { Semantic } from './semantic.js';

export interface SuggestLinksOptions {
  /** Minimum cosine similarity, in [-1, 1]. Default 0.75. */
  readonly threshold?: number;
  /** Most suggestions returned, 1..1000. Default 50. */
  readonly limit?: number;
}

export interface SuggestedLink {
  readonly sourceId: FactId;
  readonly targetId: FactId;
  readonly similarity: number;
}

export const SUGGEST_DEFAULTS = Object.freeze({ threshold: 0.75, limit: 50 });
const MAX_LIMIT = 1000;
/** The most pairs asked from the worker (its own cap). */
const MAX_FETCH = 10_000;

export async function suggestLinks(ctx: Ctx, semantic: Semantic | null, caller: Caller, options: SuggestLinksOptions = {}): Promise<SuggestedLink[]> {
  const threshold = options.threshold ?? SUGGEST_DEFAULTS.threshold;
  const limit = options.limit ?? SUGGEST_DEFAULTS.limit;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < -1 || threshold > 1) {
    throw invalidInput('suggestLinks.threshold', 'a number in [-1, 1]', threshold);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidInput('suggestLinks.limit', `an integer in 1..${MAX_LIMIT}`, limit);
  if (!semantic) throw new MemoryError('MEM_ERR_SEMANTIC_UNAVAILABLE', 'suggested links need embeddings: the semantic layer is off or not started');

  const filter = { visibility: visibility(caller), includeSuperseded: false };
  // Already-linked pairs are dropped after the scan, so ask for more than `limit`, and again for more when
  // the first batch was full but not enough pairs survived.
  for (let fetch = Math.min(MAX_FETCH, limit * 4 + 100); ; fetch = Math.min(MAX_FETCH, fetch * 4)) {
    const pairs = await semantic.suggestPairs(filter, threshold, fetch);
    const out = resolve(ctx, caller, pairs, limit);
    if (out.length >= limit || pairs.length < fetch || fetch >= MAX_FETCH) return out;
  }
}

/** Pairs of seqs to fact ids: both current and visible, not linked yet; at most `limit`. */
function resolve(ctx: Ctx, caller: Caller, pairs: readonly VectorPair[], limit: number): SuggestedLink[] {
  if (pairs.length === 0) return [];
  const seqs = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const facts = new Map(ctx.facts.bySeqs(seqs).filter((f) => f.validUntil === null && f.deletedAt === null && isVisible(f.scope, caller)).map((f) => [f.seq, f]));
  const ids = [...facts.values()].map((f) => f.id);
  const linked = new Set<string>();
  for (const l of ctx.links.among(ids)) {
    linked.add(`${l.sourceId} ${l.targetId}`);
    linked.add(`${l.targetId} ${l.sourceId}`);
  }
  const out: SuggestedLink[] = [];
  for (const p of pairs) {
    const a = facts.get(Math.min(p.a, p.b));
    const b = facts.get(Math.max(p.a, p.b));
    if (!a || !b || linked.has(`${a.id} ${b.id}`)) continue;
    out.push({ sourceId: a.id, targetId: b.id, similarity: p.similarity });
    if (out.length >= limit) break;
  }
  return out;
}
