/**
 * Credential recall for the auth-failure hook: find credential facts (the spec's filter: category
 * technical, entity Credentials, or a credential tag) about a target, inside the queries, never by ranking
 * the whole store first. Scope is the hint scope: session-scoped facts are never injected.
 *
 * - Full-text leg: the target and its aliases as phrases, credential facts only.
 * - Vector leg: the spec's query (target + credential password token key auth), credential facts only,
 *   only when the query's embedding is cached (precomputed for hosts named in credential facts; an
 *   uncached one is computed in the background for next time), under a deadline; kept only when clearly similar (see MIN_SIMILARITY), since a host or an IP carries
 *   little meaning for an embedding model.
 * - Vault entries match by their service name (never their secret), through their pointer facts.
 *
 * The recall is stored in recall_events (kind auth_failure, with the target) and emitted as a recall event.
 */
import { RRF_K, rrf } from '../core/fusion.js';
import type { RecallEventId } from '../core/ids.js';
import { visibility } from '../core/scope.js';
import { parseQuery, type QueryPart } from '../core/text.js';
import type { Caller, Fact, RecallWhy, VaultType } from '../core/types.js';
import type { Ctx } from './context.js';
import { recordRecall } from './recall.js';
import type { Semantic } from './semantic.js';

/** Vector hits below this cosine similarity are not trusted for a credential hint. */
export const MIN_SIMILARITY = 0.45;

export interface CredentialQuery {
  readonly target: string;
  readonly aliases: readonly string[];
  /** The spec's search text: target (and aliases) followed by credential, password, token, key, auth. */
  readonly query: string;
}

export interface CredentialHit {
  readonly fact: Fact;
  readonly score: number;
  readonly why: RecallWhy;
  /** Set for a vault pointer: the entry's service and type. */
  readonly vault: { readonly service: string; readonly type: VaultType } | null;
}

export interface CredentialRecall {
  readonly hits: readonly CredentialHit[];
  readonly recallId: RecallEventId | null;
  readonly degraded: boolean;
}

export interface CredentialOptions {
  readonly semantic: Semantic | null;
  readonly includeVault: boolean;
  readonly limit: number;
  readonly vectorDeadlineMs: number;
}

export async function credentialRecall(ctx: Ctx, q: CredentialQuery, caller: Caller, options: CredentialOptions): Promise<CredentialRecall> {
  const vis = visibility(caller, { forHint: true });
  const depth = options.limit * 3;
  // A turn never waits on the embedding model: an uncached query is embedded in the background for the
  // next failing turn, and this one answers from full text.
  const vectorLeg = options.semantic?.searchIfCached(q.query, depth, { visibility: vis, includeSuperseded: false, credentialsOnly: true }, options.vectorDeadlineMs) ?? null;
  const parts = targetParts([q.target, ...q.aliases]);
  const fts = parts.length > 0 ? ctx.fts.search(parts, vis, { limit: depth, credentialsOnly: true }) : [];
  const vec = vectorLeg ? await vectorLeg : null;
  const near = vec?.hits?.filter((h) => h.similarity >= MIN_SIMILARITY) ?? [];
  const similarity = new Map<string, number>();
  const vecFacts = ctx.facts.bySeqs(near.map((h) => h.seq)).map(({ seq, ...fact }) => {
    similarity.set(fact.id, near.find((h) => h.seq === seq)?.similarity ?? 0);
    return fact as Fact;
  });
  const legs = vec?.hits ? 2 : 1;
  const bm25 = new Map(fts.map((h) => [h.fact.id, h.relevance]));
  const vaultTypes = new Map(ctx.vault.list(vis).map((e) => [e.service, e.type]));
  const hits = rrf<Fact>([fts.map((h) => h.fact), vecFacts], (f) => f.id)
    .filter((f) => options.includeVault || f.item.vaultService === null)
    .slice(0, options.limit)
    .map((f): CredentialHit => {
      const service = f.item.vaultService;
      return {
        fact: f.item,
        score: Math.round((f.fused / (legs / (RRF_K + 1))) * 10_000) / 10_000,
        why: { ftsRank: f.ranks[0] ?? null, bm25: bm25.get(f.item.id) ?? null, vectorRank: f.ranks[1] ?? null, similarity: similarity.get(f.item.id) ?? null, fused: f.fused },
        vault: service ? { service, type: vaultTypes.get(service) ?? 'other' } : null,
      };
    });
  const recallId = hits.length > 0 ? recordRecall(ctx, caller, 'auth_failure', q.query, q.target, hits, ctx.now()) : null;
  return { hits, recallId, degraded: vec !== null && vec.hits === null };
}

/** Each target or alias as a quoted phrase (hosts and IPs tokenize into several words). */
function targetParts(terms: readonly string[]): QueryPart[] {
  const parts: QueryPart[] = [];
  for (const t of terms) {
    const quoted = `"${t.replace(/"/g, ' ')}"`;
    for (const p of parseQuery(quoted)) if (!parts.some((x) => JSON.stringify(x) === JSON.stringify(p))) parts.push(p);
  }
  return parts;
}
