/**
 * memory_recall: hybrid search. The vector leg (query embedding + index search, in workers) starts first;
 * the full-text leg (bounded bm25, src/store/search.ts) runs meanwhile on this thread; the two are fused by
 * weighted score fusion (src/core/fusion.ts: normalized bm25 x (1 - w) + normalized similarity x w, w =
 * search.vectorWeight, tuned on eval/recall's dev split). The vector leg has a deadline: when it is late or
 * fails the answer is full text only and marked `degraded`. Without a semantic layer (embeddings disabled
 * or not started) the mode is `fulltext`.
 *
 * Time asked for in the query re-weights the candidates (src/core/time-cues.ts). score = fused x time
 * weight x (0.85 + 0.15 x strength): the legs' evidence decides the order, strength breaks near-ties.
 * Every result says why it was recalled; the recall is stored in recall_events with those per-fact scores
 * and fed back into the store (recall counts, co-recall link strengthening, the session's episode).
 */
import { MemoryError } from '../core/errors.js';
import { DEFAULT_TURN_VECTOR_WEIGHT, DEFAULT_VECTOR_WEIGHT, NORM_DEPTH, fuseScores } from '../core/fusion.js';
import { continuesTurn, isDialogueTurn, turnSpeaker } from '../core/embed-text.js';
import { CARRY_DEPTH, carryToReplies, REPLY_CARRY, SPEAKER_NAMED_WEIGHT, speakerNamed } from '../core/turn-rank.js';
import { newRecallEventId, type FactId, type RecallEventId } from '../core/ids.js';
import { visibility } from '../core/scope.js';
import { strength } from '../core/strength.js';
import { isLookupQuery, parseQuery, tokenize } from '../core/text.js';
import { asksNumber, asksWhen, dateInText, SAYS_NUMBER_WEIGHT, SAYS_WHEN_WEIGHT, saysNumber, saysWhen, timeCues, timeWeights } from '../core/time-cues.js';
import type { Caller, Category, Fact, RecallKind, RecallWhy } from '../core/types.js';
import type { FtsHit } from '../store/search.js';
import type { Ctx } from './context.js';
import { parse, recallSchema, type RecallInput } from './inputs.js';
import { strengthenCoRecalled } from './links.js';
import type { Semantic, VectorLeg } from './semantic.js';

/** Vector hits less similar than this fraction of the best hit's similarity are dropped as unrelated. */
export const VECTOR_RELATIVE_FLOOR = 0.5;

export interface RecallHit {
  readonly fact: Fact;
  readonly score: number;
  readonly why: RecallWhy;
}

export interface RecallResult {
  readonly results: readonly RecallHit[];
  readonly recallId: RecallEventId | null;
  /** hybrid: both legs ran; fulltext: no semantic layer. */
  readonly mode: 'hybrid' | 'fulltext';
  /** True when the vector leg was expected but missed its deadline or failed. */
  readonly degraded: boolean;
  readonly reason: string | null;
}

export interface RecallOptions {
  readonly semantic: Semantic | null;
  readonly vectorDeadlineMs: number;
  /** Weight of the vector leg in fusion (config search.vectorWeight); the full-text leg has 1 - this. */
  readonly vectorWeight?: number;
  /** Its weight for a dialogue turn (config search.turnVectorWeight). */
  readonly turnVectorWeight?: number;
  /** false: a look-up (dashboard search) that is not a recall: nothing is logged or strengthened. Default true. */
  readonly record?: boolean;
  /** Plugins' afterSearch: may filter or reorder the results before they are logged and returned. */
  readonly afterSearch?: (hits: readonly RecallHit[]) => Promise<readonly RecallHit[]>;
}

export async function memoryRecall(ctx: Ctx, input: RecallInput, caller: Caller, options: RecallOptions): Promise<RecallResult> {
  const i = parse(recallSchema, input, 'memory_recall');
  const parts = parseQuery(i.query);
  if (parts.length === 0) throw new MemoryError('MEM_ERR_QUERY_EMPTY', `memory_recall.query: expected searchable words, received ${JSON.stringify(i.query.slice(0, 60))}`);
  const v = visibility(caller);
  const depth = Math.min(100, i.limit * 3);
  // The vector leg goes at least NORM_DEPTH deep, whatever the limit: its scores are normalized over those.
  const vectors = (): Promise<VectorLeg> | null =>
    options.semantic ? options.semantic.search(i.query, Math.max(NORM_DEPTH, depth), { visibility: v, includeSuperseded: i.includeSuperseded, category: i.category }, options.vectorDeadlineMs) : null;
  // A lookup ("hx-ch-1", "port 8096") ranks as full text does, and the vector leg only adds what full text
  // missed: it is not asked at all when full text fills the answer.
  const lookup = isLookupQuery(i.query);
  let vectorLeg = lookup ? null : vectors();
  const found = ctx.fts.search(parts, v, { limit: depth, includeSuperseded: i.includeSuperseded, category: i.category });
  // A reply carries its question's match (src/core/turn-rank.ts); a lookup ranks as full text does.
  const fts = fullTextLeg(ctx, found, i, depth, lookup);
  if (lookup && fts.length < i.limit) vectorLeg = vectors();
  const vec = vectorLeg ? await vectorLeg : null;
  const hits = vec?.hits ?? [];
  // A vector leg always returns k neighbours, however far: only those at least half as similar as the best
  // are read and fused (the rest still set the scale the similarities are normalized over).
  const floor = (hits[0]?.similarity ?? 0) * VECTOR_RELATIVE_FLOOR;
  const near = hits.filter((h) => h.similarity >= floor);
  const facts = new Map(ctx.facts.bySeqs(near.map((h) => h.seq)).map(({ seq, ...fact }) => [seq, fact as Fact]));
  const vecLeg = near.flatMap((h) => {
    const fact = facts.get(h.seq);
    return fact ? [{ item: fact, score: h.similarity }] : [];
  });
  const now = ctx.now();
  const fused = fuseScores<Fact>(
    fts.map((h) => ({ item: h.item, score: h.relevance })),
    vecLeg,
    (f) => f.id,
    (f) => (lookup ? 0 : isDialogueTurn(f.text) ? (options.turnVectorWeight ?? DEFAULT_TURN_VECTOR_WEIGHT) : (options.vectorWeight ?? DEFAULT_VECTOR_WEIGHT)),
    hits.map((h) => h.similarity),
  );
  const bm25 = new Map(found.map((h) => [h.fact.id, h.relevance]));
  const carried = new Map(fts.flatMap((h) => (h.from ? [[h.item.id, h.from.id] as const] : [])));
  // Time asked for ("in March 2025", "now", "the first time"): facts whose time fits gain.
  const cues = timeCues(i.query, now);
  const weights = cues.range || cues.prefer ? timeWeights(cues, fused.map((f) => factTime(f.item))) : null;
  // A turn spoken by someone the query names counts for more (src/core/turn-rank.ts).
  const named = new Set(tokenize(i.query));
  // Asked when, a text that says when ("Slipped on black ice last Tuesday") is more likely the answer; asked
  // how much, one that gives a number ("A little girl, 3.4 kilos").
  const when = asksWhen(i.query);
  const howMuch = asksNumber(i.query);
  const ranked = fused
    .map((f, k) => {
      const why: RecallWhy = {
        ftsRank: f.ranks[0],
        bm25: round(bm25.get(f.item.id) ?? null),
        vectorRank: f.ranks[1],
        similarity: round(f.ranks[1] === null ? null : (vecLeg[f.ranks[1] - 1]?.score ?? null)),
        fused: round(f.fused) ?? 0,
        ...(carried.has(f.item.id) ? { replyTo: carried.get(f.item.id) } : {}),
      };
      const speaker = speakerNamed(named, turnSpeaker(f.item.text)) ? SPEAKER_NAMED_WEIGHT : 1;
      const said = (when && saysWhen(f.item.text) ? SAYS_WHEN_WEIGHT : 1) * (howMuch && saysNumber(f.item.text) ? SAYS_NUMBER_WEIGHT : 1);
      const score = round(f.fused * speaker * said * (weights?.[k] ?? 1) * (0.85 + 0.15 * strength(f.item, now))) ?? 0;
      return { fact: f.item, score, why };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, i.limit);
  const results = options.afterSearch ? await options.afterSearch(ranked) : ranked;
  const mode = options.semantic ? 'hybrid' : 'fulltext';
  // A vector leg that cannot see every fact yet is not healthy either: say how many it misses.
  const lagging = vec?.hits && options.semantic ? options.semantic.lagging() : 0;
  const degraded = (vec !== null && vec.hits === null) || lagging > 0;
  const reason = vec?.reason ?? (lagging > 0 ? laggingReason(lagging) : null);
  // The record is written after the answer has left (src/memory/deferred.ts), not in its path.
  const recallId = results.length === 0 || options.record === false ? null : recordRecall(ctx, caller, { kind: 'memory_recall', query: i.query }, results, now, 'later');
  return { results, recallId, mode, degraded, reason };
}

/** A candidate of the full-text leg: a fact it found, or a turn that follows one (read lightly, fetched if kept). */
type Turn = { readonly id: FactId; readonly text: string; readonly createdAt: number; readonly seq?: number; readonly fact?: Fact };

/**
 * The full-text leg as fusion takes it: a lookup's hits as they came; otherwise with replies carried
 * (src/core/turn-rank.ts), cut back to the leg's depth, and only the replies kept fetched whole.
 */
function fullTextLeg(ctx: Ctx, found: readonly FtsHit[], i: { readonly includeSuperseded: boolean; readonly category?: Category | undefined }, depth: number, lookup: boolean): { item: Fact; relevance: number; from: Fact | null }[] {
  if (lookup) return found.map((h) => ({ item: h.fact, relevance: h.relevance, from: null }));
  const sources = found.slice(0, CARRY_DEPTH).map((h) => h.fact).filter((f) => isDialogueTurn(f.text));
  const after = ctx.facts.storedAfter(sources.map((f) => f.id), REPLY_CARRY.length);
  // The dialogue turns that follow a turn in its exchange (continuesTurn): stored after it in the same
  // scope, each within the window of the one before, current unless superseded versions were asked for,
  // and of the category asked for.
  const following = (turn: Turn): Turn[] => {
    const out: Turn[] = [];
    let before: Turn = turn;
    for (const next of after.get(turn.id) ?? []) {
      if (!continuesTurn(next, before)) break;
      before = next;
      if ((i.includeSuperseded || next.validUntil === null) && (i.category === undefined || next.category === i.category)) out.push(next);
    }
    return out;
  };
  const carried = carryToReplies<Turn>(
    found.map((h) => ({ item: { id: h.fact.id, text: h.fact.text, createdAt: h.fact.createdAt, fact: h.fact }, relevance: h.relevance })),
    (t) => t.id,
    following,
    (t) => isDialogueTurn(t.text),
    (t) => t.text,
  ).slice(0, Math.max(depth, found.length));
  const fetched = new Map(ctx.facts.bySeqs(carried.flatMap((c) => (c.item.fact || c.item.seq === undefined ? [] : [c.item.seq]))).map(({ seq: _, ...f }) => [f.id, f as Fact]));
  const fact = (t: Turn): Fact | undefined => t.fact ?? fetched.get(t.id);
  return carried.flatMap((c) => {
    const item = fact(c.item);
    return item ? [{ item, relevance: c.relevance, from: c.from ? (fact(c.from) ?? null) : null }] : [];
  });
}

/** When a fact happened: the date its text opens with, else when it was stored. */
function factTime(f: Fact): number {
  return dateInText(f.text) ?? f.validFrom;
}

function laggingReason(n: number): string {
  return `${n} ${n === 1 ? 'fact has' : 'facts have'} no vector yet, so meaning-based matches may miss ${n === 1 ? 'it' : 'them'} (they are being embedded; or run "hybrid-mem reindex")`;
}

/**
 * Log a recall (recall_events + event log) and feed it back into the store, in one transaction: now, or
 * `later` with the deferred writes (the id is returned at once, the rows land after the answer has left).
 */
export function recordRecall(ctx: Ctx, caller: Caller, what: RecallWhat, results: readonly RecallHit[], now: number, when: 'now' | 'later' = 'now'): RecallEventId {
  const id = newRecallEventId(now);
  const write = (): void => writeRecall(ctx, id, caller, what, results, now);
  if (when === 'later') ctx.deferred.later(write);
  else ctx.tx('recall', write);
  return id;
}

/** What a recall was: its kind, query, the target of an auth hint and the excerpt of the turn that triggered it. */
export interface RecallWhat {
  readonly kind: RecallKind;
  readonly query: string;
  readonly target?: string | null;
  readonly excerpt?: string | null;
}

/** The rows of one recall and its feedback into the store; inside a write transaction. */
function writeRecall(ctx: Ctx, id: RecallEventId, caller: Caller, what: RecallWhat, results: readonly RecallHit[], now: number): void {
  const { kind, query } = what;
  const target = what.target ?? null;
  const ids = results.map((r) => r.fact.id);
  const scores = results.map((r) => ({ factId: r.fact.id, score: r.score, ...r.why }));
  ctx.recalls.insert({ id, kind, query, target, owner: caller, scores, createdAt: now, excerpt: what.excerpt ?? null });
  ctx.facts.markRecalled(ids, now);
  for (const r of results) {
    const f = ctx.facts.get(r.fact.id);
    if (f) ctx.facts.setStrength(f.id, strength(f, now));
  }
  strengthenCoRecalled(ctx, ids, now);
  ctx.episodes.touch(caller, 'recall', query, now);
  ctx.emit({
    kind: 'recall',
    recallId: id,
    recallKind: kind,
    query,
    target,
    owner: caller,
    scores: results.map((r, k) => ({ ...scores[k], factId: r.fact.id, score: r.score, scope: r.fact.scope })),
    scopes: results.map((r) => r.fact.scope),
  });
}

function round(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}
