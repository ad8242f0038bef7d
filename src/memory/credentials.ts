/**
 * Credential recall for the auth-failure hook: find credential facts (the spec's filter: category
 * technical, entity Credentials, or a credential tag) about a target, inside the queries, never by ranking
 * the whole store first. Scope is the hint scope: session-scoped facts are never injected.
 *
 * - Full-text leg: the target, its aliases, the names memory pairs with it, and its short names, as
 *   phrases, credential facts only.
 * - Facts are kept and ordered by how they help log in (hintOrder); a fact with no credential signal
 *   (it only shares the host name) is left out.
 * - Vector leg: the spec's query (target + credential password token key auth), credential facts only,
 *   only when the query's embedding is cached (precomputed for hosts named in credential facts; an
 *   uncached one is computed in the background for next time), under a deadline; kept only when clearly similar (see MIN_SIMILARITY), since a host or an IP carries
 *   little meaning for an embedding model.
 * - Vault entries match by their service name (never their secret), through their pointer facts.
 *
 * The recall is stored in recall_events (kind auth_failure, with the target) and emitted as a recall event.
 */
import { hintRank, hostVariants, type HostVariants } from '../core/auth/credential-signal.js';
import { searchQuery } from '../core/auth/hint.js';
import { pairFinder } from '../core/auth/memory-pairs.js';
import { RRF_K, rrf } from '../core/fusion.js';
import type { RecallEventId } from '../core/ids.js';
import { visibility, type Visibility } from '../core/scope.js';
import { parseQuery, type QueryPart } from '../core/text.js';
import type { Caller, Fact, RecallWhy, VaultType } from '../core/types.js';
import type { Ctx } from './context.js';
import type { FtsHit } from '../store/search.js';
import { recordRecall } from './recall.js';
import type { Semantic } from './semantic.js';

/** Vector hits below this cosine similarity are not trusted for a credential hint. */
export const MIN_SIMILARITY = 0.45;

export interface CredentialQuery {
  readonly target: string;
  readonly aliases: readonly string[];
  /** The spec's search text: target (and aliases) followed by credential, password, token, key, auth. */
  readonly query: string;
  /** The part of the turn that showed the failure (redacted), kept with the recall for the graph app. */
  readonly excerpt?: string | null;
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
  /** True when the session already had `limitPerSession` hints for this target: nothing was recorded. */
  readonly limited: boolean;
  readonly recallId: RecallEventId | null;
  readonly degraded: boolean;
}

export interface CredentialOptions {
  readonly semantic: Semantic | null;
  readonly includeVault: boolean;
  readonly limit: number;
  readonly vectorDeadlineMs: number;
  /** maxRecallsPerTarget: hints per target per session (0 = unlimited), counted in recall_events. */
  readonly limitPerSession: number;
}

export async function credentialRecall(ctx: Ctx, q: CredentialQuery, caller: Caller, options: CredentialOptions): Promise<CredentialRecall> {
  const vis = visibility(caller, { forHint: true });
  const depth = Math.max(options.limit * 4, 20);
  // A turn never waits on the embedding model: an uncached query is embedded in the background for the
  // next failing turn, and this one answers from full text. The vector query is the spec's (target and
  // the credential terms, no aliases), the one precomputed for every host a credential fact names.
  const vectorQuery = searchQuery({ target: q.target, kind: 'host', aliases: [] });
  const vectorLeg = options.semantic?.searchIfCached(vectorQuery, options.limit * 3, { visibility: vis, includeSuperseded: false, credentialsOnly: true }, options.vectorDeadlineMs) ?? null;
  const search = (v: HostVariants): FtsHit[] => {
    const parts = targetParts([...v.exact, ...v.short]);
    return parts.length > 0 ? ctx.fts.search(parts, vis, { limit: depth, credentialsOnly: true }) : [];
  };
  let variants = hostVariants(q.target, q.aliases);
  // Each candidate's place in the hint (src/core/auth/credential-signal.ts), computed once per fact and variant set.
  let ranks = new Map<string, number | null>();
  const hintOrder = (f: Fact, v: HostVariants): number | null => {
    if (!ranks.has(f.id)) ranks.set(f.id, hintRank(f, v));
    return ranks.get(f.id) ?? null;
  };
  let fts = search(variants);
  // Names memory pairs with the target are looked up only when the names the turn gave leave the hint short.
  if (fts.filter((h) => hintOrder(h.fact, variants) !== null).length < options.limit) {
    const paired = withMemoryPairs(ctx, vis, q, variants);
    if (paired !== variants) {
      variants = paired;
      ranks = new Map();
      fts = search(variants);
    }
  }
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
    .map((f) => ({ f, order: hintOrder(f.item, variants) }))
    .filter(({ order }) => order !== null)
    .sort((a, b) => (a.order as number) - (b.order as number) || b.f.fused - a.f.fused)
    .slice(0, options.limit)
    .map(({ f }): CredentialHit => {
      const service = f.item.vaultService;
      return {
        fact: f.item,
        score: Math.round((f.fused / (legs / (RRF_K + 1))) * 10_000) / 10_000,
        why: { ftsRank: f.ranks[0] ?? null, bm25: bm25.get(f.item.id) ?? null, vectorRank: f.ranks[1] ?? null, similarity: similarity.get(f.item.id) ?? null, fused: f.fused },
        vault: service ? { service, type: vaultTypes.get(service) ?? 'other' } : null,
      };
    });
  // The count and the record are one transaction, so two processes of one session cannot both hint.
  const recallId = hits.length === 0 ? null : ctx.tx('auth-recall', () =>
    underLimit(ctx, caller, q.target, options.limitPerSession) ? recordRecall(ctx, caller, { kind: 'auth_failure', query: q.query, target: q.target, excerpt: q.excerpt ?? null }, hits, ctx.now()) : null);
  const limited = hits.length > 0 && recallId === null;
  return { hits: limited ? [] : hits, limited, recallId, degraded: vec !== null && vec.hits === null };
}

/** True while the caller's session has had fewer than `limit` hints for `target` (0 = unlimited; no session: no limit here). */
export function underLimit(ctx: Ctx, caller: Caller, target: string, limit: number): boolean {
  return limit === 0 || caller.sessionId === null || ctx.recalls.authHints(caller.sessionId, target) < limit;
}

/**
 * Names memory pairs with the target: a fact that writes another name right beside the target ("db-prod.internal
 * resolves to 10.20.0.5", "the staging registry (10.20.9.50)") says they are one machine, so a credential
 * filed under the other name is found too (src/core/auth/memory-pairs.ts).
 */
function withMemoryPairs(ctx: Ctx, vis: Visibility, q: CredentialQuery, direct: HostVariants): HostVariants {
  const parts = targetParts(direct.exact);
  if (parts.length === 0) return direct;
  const paired: string[] = [];
  const finders = direct.exact.map(pairFinder);
  for (const { fact } of ctx.fts.search(parts, vis, { limit: 20 })) {
    for (const find of finders) for (const n of find(fact.text)) if (!direct.exact.includes(n) && !paired.includes(n)) paired.push(n);
    if (paired.length >= 6) break;
  }
  return paired.length === 0 ? direct : hostVariants(q.target, [...q.aliases, ...paired.slice(0, 6)]);
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
