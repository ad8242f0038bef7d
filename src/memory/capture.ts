/**
 * Auto-capture into the store (issue 19): the rules of src/core/capture.ts find the facts in a
 * conversation's user turns; here each one is kept as a new fact (source `auto-capture`), or, when a current
 * fact already says nearly the same about the same entity, that fact is strengthened instead of stored
 * again; a correction replaces the current fact it corrects (a new version, not a conflict). All of one
 * conversation is one transaction. `dryRun` decides everything and writes nothing. Which fact a statement
 * replaces is capture-changes.ts's.
 */
import { captureCandidates, plainFact, RESTATES, shareOf, type Candidate, type CapturedFact, type CaptureTurn } from '../core/capture.js';
import { joinFacts, ruledFacts } from '../core/capture-keep.js';
import { candidateText, modelFacts, modelFits } from '../core/capture-model.js';
import { CAPTURE_MODEL } from '../core/capture-weights.js';
import { AS_USUAL, AS_USUAL_ALL, CHANGE_CLAUSE, changedInContext, changedValues, contentStems, heldShare, replacement, RESTATED, sameEntity, saysChange } from './capture-changes.js';
import { visibility } from '../core/scope.js';
import { strength } from '../core/strength.js';
import { parseQuery } from '../core/text.js';
import type { Caller, Category, Fact, ScopeKind } from '../core/types.js';
import type { Ctx } from './context.js';
import { supersede } from './versions.js';
import { storeFact } from './write.js';
import { findControl } from '../core/terminal.js';

export interface CaptureOptions {
  readonly maxChars: number;
  /** Let the sentence classifier decide (when the embedding model it was trained for runs). */
  readonly classifier: boolean;
  readonly minConfidence: number;
  /** Only facts of these categories are kept (null: every category). */
  readonly categories: readonly Category[] | null;
  /** Where captured facts live: the caller's agent, its session, or everyone (falls back to global without an id). */
  readonly scope: ScopeKind;
  readonly dryRun?: boolean;
}

export type CaptureAction = 'stored' | 'strengthened' | 'superseded' | 'skipped';

export interface CaptureDecision {
  readonly action: CaptureAction;
  readonly found: CapturedFact;
  /** The fact stored or strengthened (null for a skipped one, and for any in a dry run that would be stored). */
  readonly fact: Fact | null;
  /** A correction: the fact it replaced (or would replace). */
  readonly replaces: Fact | null;
  /** The other facts a statement that changes several replaced (or would replace): each ended, superseded by the new fact. */
  readonly alsoReplaces?: readonly Fact[];
  /** Why a fact was skipped. */
  readonly reason: string | null;
}

/** Every fact a decision replaces (or would replace): the one whose versions the new fact continues, then the others it ends. */
export function replacedBy(d: CaptureDecision): readonly Fact[] {
  return d.replaces ? [d.replaces, ...(d.alsoReplaces ?? [])] : [];
}

/** Word overlap (Jaccard of content stems) at which a current fact says the same thing. */
export const SAME_FACT = 0.8;
/** Where a known fact given as a reason ends: "..., so ...", "... so ...", "... which means ...". */
const LEAD_END = /,?\s+(?:so|which means|that means)\s+/i;
/** Words that make a request a standing rule. */
const STANDING = /\b(?:always|never|every|each|whenever|any ?time|from now on|going forward|from here on)\b/i;
/**
 * A known fact given as the reason a request opens with ("since we're licensed in oregon make sure ..."):
 * the reason. Only before a request: "since X, always Y" says something new about Y.
 */
const SINCE_LEAD = /^(?:since|because|given that)\s+(.+?),?\s+(?=(?:make sure|i want|i need|i'?d like|can you|could you|can u|please|pls|what|how|which|should i|write|draft)\b)/i;

/** A fact that adds nothing to a current one: most of its content words are the current fact's, and none it adds is a value. */
export const CONTAINED = 0.75;
function contained(said: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
  const added = [...said].filter((w) => !known.has(w));
  return said.size - added.length >= 2 && shareOf(said, known) >= CONTAINED && !added.some((w) => /\d/.test(w));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  const union = a.size + b.size - n;
  return union === 0 ? 0 : n / union;
}

/** The current facts the caller sees that share words with `text`, best first. */
function neighbours(ctx: Ctx, text: string, caller: Caller): Fact[] {
  const parts = parseQuery(text);
  return parts.length === 0 ? [] : ctx.fts.search(parts, visibility(caller), { limit: 8 }).map((h) => h.fact);
}

/**
 * The facts a statement of change may replace: its neighbours, and those of each clause that says the change
 * ("Im doing wed and fri routes now not tue/thu, the schedule flipped when we got a second driver" is looked
 * up by its first clause too), so that the rest of a long sentence does not push the fact it changes out.
 */
function changeNeighbours(ctx: Ctx, found: CapturedFact, caller: Caller, near: readonly Fact[]): readonly Fact[] {
  if (!found.corrects && !saysChange(found.text)) return near;
  const out = new Map(near.map((f) => [f.id, f]));
  for (const clause of found.text.split(CHANGE_CLAUSE)) if (clause !== found.text && saysChange(clause)) for (const f of neighbours(ctx, clause, caller)) out.set(f.id, f);
  return [...out.values()];
}

/**
 * The current fact `found` says again, if any: nearly the same words, nothing added to it, or said to be
 * known already ("as you know ...") and mostly held. `near`: its neighbours, when already looked up.
 */
function known(ctx: Ctx, found: CapturedFact, caller: Caller, near = neighbours(ctx, found.text, caller)): Fact | null {
  const stems = contentStems(found.text);
  // A known fact given as the reason for a request ("I'm allergic to shellfish so flag anything with seafood").
  const since = SINCE_LEAD.exec(found.text);
  // A request that sets a standing rule ("make sure every change order ...") is new, whatever reason it gives.
  const reason = since && !STANDING.test(found.text.slice(since[0].length)) ? since[1] : null;
  const lead = contentStems(reason ?? found.text.split(LEAD_END)[0] ?? '');
  const restates = RESTATES.test(found.text);
  const changing = found.corrects || saysChange(found.text);
  return (
    near.find((f) => {
      const held = contentStems(f.text);
      // Said to be known ("is still", "as you know"): the words decide, whatever subject the sentence opens with.
      if (restates && heldShare(held, stems) >= RESTATED) return true;
      if (!changing && lead.size < stems.size && contained(lead, held)) return true;
      return sameEntity(f.entity, found.entity) && (jaccard(stems, held) >= SAME_FACT || (!changing && contained(stems, held)));
    }) ?? null
  );
}

/** Content words a restatement must add to a fact it says again to be stored as well (new information). */
export const ADDS = 2;

/**
 * The current fact a sentence said as usual restates, not a change ("I edit in Lightroom Classic like
 * always, turnaround is 6 weeks"): one whose content words it holds (RESTATED); `adds` when it says
 * ADDS or more content words the fact does not, so it is stored too, and the known fact strengthened.
 */
function restatedIn(ctx: Ctx, found: CapturedFact, caller: Caller, near?: readonly Fact[]): { fact: Fact; adds: boolean } | null {
  // Said to be known in so many words ("as you know", "is still") is known() and decide()'s: strengthened only.
  if (!AS_USUAL.test(found.text) || RESTATES.test(found.text) || found.corrects || saysChange(found.text)) return null;
  // The words that say it is as usual ("haven't changed") add nothing.
  const stems = contentStems(found.text.replace(AS_USUAL_ALL, ' '));
  for (const f of near ?? neighbours(ctx, found.text, caller)) {
    const held = contentStems(f.text);
    if (heldShare(held, stems) >= RESTATED) return { fact: f, adds: [...stems].filter((w) => !held.has(w)).length >= ADDS };
  }
  return null;
}

function strengthened(ctx: Ctx, found: CapturedFact, same: Fact, o: CaptureOptions): CaptureDecision {
  if (!o.dryRun) {
    const now = ctx.now();
    ctx.facts.markRecalled([same.id], now);
    const fresh = ctx.facts.get(same.id);
    if (fresh) ctx.facts.setStrength(fresh.id, strength(fresh, now));
  }
  return { action: 'strengthened', found, fact: same, replaces: null, reason: null };
}

/** What memory does with a found fact (decideParts), and with the clauses in it said as usual (saidAsUsual). */
function decideAll(ctx: Ctx, found: CapturedFact, caller: Caller, o: CaptureOptions): CaptureDecision[] {
  const out = decideParts(ctx, found, caller, o);
  return found.restatesOnly ? out : [...out, ...saidAsUsual(ctx, found, caller, o, out)];
}

/**
 * The clauses said as usual in a fact that states something else ("Still in the ProMaster. Home base is Moab
 * now"; "dues are $265 now, board still meets second thursdays at 7"): each strengthens the fact it restates.
 */
function saidAsUsual(ctx: Ctx, found: CapturedFact, caller: Caller, o: CaptureOptions, done: readonly CaptureDecision[]): CaptureDecision[] {
  if (!AS_USUAL.test(found.text) && !RESTATES.test(found.text)) return [];
  const seen = new Set(done.flatMap((d) => [d.fact?.id, ...replacedBy(d).map((f) => f.id)]));
  const out: CaptureDecision[] = [];
  for (const text of found.text.split(CHANGE_CLAUSE)) {
    if ((!AS_USUAL.test(text) && !RESTATES.test(text)) || saysChange(text)) continue;
    const clause = { ...found, text, corrects: false };
    const same = restatedIn(ctx, clause, caller)?.fact ?? (RESTATES.test(text) ? known(ctx, clause, caller) : null);
    if (same && !seen.has(same.id)) {
      seen.add(same.id);
      out.push(strengthened(ctx, found, same, o));
    }
  }
  return out;
}

/**
 * Sentences said in a row are one fact, unless some of them only say what memory knows ("Venue is still
 * Fenwick Gardens. The florist is Petal Theory."): those strengthen the fact they restate, and the rest is
 * decided as one fact.
 */
function decideParts(ctx: Ctx, found: CapturedFact, caller: Caller, o: CaptureOptions): CaptureDecision[] {
  if (found.restatesOnly) {
    // One look-up of its neighbours serves both checks.
    const near = neighbours(ctx, found.text, caller);
    const same = restatedIn(ctx, found, caller, near)?.fact ?? known(ctx, found, caller, near);
    return same ? [strengthened(ctx, found, same, o)] : [];
  }
  const parts = found.parts ?? [];
  const again = parts.length > 1 ? null : restatedIn(ctx, found, caller);
  if (again) return [strengthened(ctx, found, again.fact, o), ...(again.adds ? [decide(ctx, found, caller, o, again.fact)] : [])];
  // One look-up of each part's neighbours serves both: is it said again, and what does it change.
  const near = parts.map((p) => neighbours(ctx, p.text, caller));
  const restated = parts.map((p, i) => known(ctx, p, caller, near[i]));
  if (!restated.some(Boolean)) {
    const replaced = parts.map((p, i) => replacement(p, changeNeighbours(ctx, p, caller, near[i] ?? [])));
    const pieces = changedApart(parts, replaced);
    if (pieces) return pieces.map((p) => decide(ctx, p, caller, o));
    // A part that changes a fact read alone ("it's 16 windows total not 14") changes it when the whole says nothing of it;
    // not by a word of correction alone ("actually ..."), which a few words share with too many facts.
    const changed = parts.map((p, i) => {
      if (!p.corrects) return replaced[i] ?? null;
      const part = { ...p, corrects: false };
      return replacement(part, changeNeighbours(ctx, part, caller, near[i] ?? []));
    });
    return [decide(ctx, found, caller, o, undefined, changed.find((f) => f !== null) ?? undefined)];
  }
  // The rest first: a fact it replaces is not strengthened by a part that says it again ("... is tuesdays now. The day program is still at maple house").
  const rest = parts.filter((_, i) => !restated[i]);
  const changed = rest.length === 0 ? [] : [decide(ctx, rest.reduce((a, b) => joinFacts(a, b)), caller, o)];
  const ended = new Set(changed.flatMap((d) => replacedBy(d).map((f) => f.id)));
  const out = parts.flatMap((p, i) => {
    const same = restated[i];
    return same && !ended.has(same.id) ? [strengthened(ctx, p, same, o)] : [];
  });
  return [...out, ...changed];
}

/**
 * Sentences said in a row that change different facts ("We're on postgres 16 now. Standup moved to 9:30"):
 * each that changes one is a fact of its own, with the sentences after it that change nothing (the first
 * sentence too, when it changes nothing); null when fewer than two change different facts. `replaced`: the fact
 * each part replaces, read alone.
 */
function changedApart(parts: readonly CapturedFact[], replaced: readonly (Fact | null)[]): CapturedFact[] | null {
  if (new Set(replaced.flatMap((f) => (f ? [f.id] : []))).size < 2) return null;
  const out: CapturedFact[] = [];
  parts.forEach((p, i) => {
    const last = out.at(-1);
    if (replaced[i] !== null || !last) out.push(p);
    else out[out.length - 1] = joinFacts(last, p);
  });
  return out;
}

/**
 * The facts besides `not` that the clauses of a statement of change replace, each clause that says a change
 * read alone ("The day program is tues/thurs now. Dr okafor retired so we're with dr lindqvist now"): only
 * among the statement's own neighbours `near`, so that a clause of a few words does not reach a fact about
 * something else. Measured on eval/capture dev (rounds 1-66): corrections 547 -> 554 isolated with no wrong
 * replacement more; 475 -> 484 in one store, with 16 more facts of other conversations replaced.
 */
function moreReplaced(ctx: Ctx, found: CapturedFact, caller: Caller, near: readonly Fact[], not: readonly (string | undefined)[]): Fact[] {
  const out = new Map<string, Fact>();
  const clauses = found.text.split(CHANGE_CLAUSE);
  if (clauses.length < 2) return [];
  for (const text of clauses) {
    if (!saysChange(text) || contentStems(text).size < 3) continue;
    const clause = { ...found, text, parts: undefined, corrects: false };
    const r = replacement(clause, changeNeighbours(ctx, clause, caller, neighbours(ctx, text, caller)));
    if (r && !not.includes(r.id) && near.some((f) => f.id === r.id)) out.set(r.id, r);
  }
  return [...out.values()];
}

/** The fact a change said in other words replaces, found among the facts the conversation is about (changedInContext). */
function inContext(ctx: Ctx, found: CapturedFact, caller: Caller): Fact | null {
  const clauses = changedValues(found);
  if (!found.context || clauses.length === 0) return null;
  return changedInContext(found, clauses, neighbours(ctx, [...found.context].join(' '), caller));
}

/** `restated`: a fact the sentence says again and was strengthened for; what it adds is stored, not that again. */
function decide(ctx: Ctx, found: CapturedFact, caller: Caller, o: CaptureOptions, restated?: Fact, partReplaces?: Fact): CaptureDecision {
  const skip = (reason: string): CaptureDecision => ({ action: 'skipped', found, fact: null, replaces: null, reason });
  if (found.confidence < o.minConfidence) return skip(`confidence ${found.confidence} is below autoCapture.minConfidence`);
  if (o.categories && !o.categories.includes(found.category)) return skip(`category ${found.category} is not in autoCapture.categories`);
  // A sentence with terminal control characters would be refused by memory_store; skip it, keep the rest.
  if (findControl(found.text) || (found.entity !== null && findControl(found.entity))) return skip('it holds control characters');
  const near = neighbours(ctx, found.text, caller);
  const same = known(ctx, found, caller, near);
  const candidates = changeNeighbours(ctx, found, caller, near);
  // A part's replacement only among the whole statement's neighbours: a few words alone reach facts about other things.
  // And a change said in other words, unless the statement says a known fact again.
  const replaces = replacement(found, candidates) ?? candidates.find((f) => f.id === partReplaces?.id) ?? (same ? null : inContext(ctx, found, caller));
  // Said again, unless it also changes another fact ("fees are $30 now, work days are still ..."): then that one is replaced, and this one strengthened by saidAsUsual.
  if (same && same.id !== restated?.id && (!replaces || replaces.id === same.id)) return strengthened(ctx, found, same, o);
  // Looked up only for a fact that is kept: each clause that says a change costs a search.
  const more = replaces ? moreReplaced(ctx, found, caller, near, [replaces.id, same?.id]) : [];
  if (o.dryRun) return { action: replaces ? 'superseded' : 'stored', found, fact: null, replaces, ...(more.length > 0 ? { alsoReplaces: more } : {}), reason: null };
  const scope = o.scope === 'agent' && caller.agentId ? 'agent' : o.scope === 'session' && caller.sessionId ? 'session' : o.scope === 'session' && caller.agentId ? 'agent' : 'global';
  const r = storeFact(
    ctx,
    {
      text: found.text,
      category: found.category,
      entity: replaces?.entity ?? found.entity,
      tags: [...found.tags],
      importance: found.importance,
      confidence: found.confidence,
      decayClass: found.decayClass,
      scope,
      ...(replaces ? { supersedes: replaces.id } : {}),
    },
    caller,
    'auto-capture',
  );
  if (!r.created) return { action: 'strengthened', found, fact: r.fact, replaces: null, reason: null };
  // The other facts it changes end too, each superseded by the new fact (which continues the first one's versions).
  const ended = more.flatMap((f) => {
    const current = ctx.facts.get(f.id);
    if (!current || current.validUntil !== null) return [];
    supersede(ctx, current, r.fact.id, ctx.now());
    return [current];
  });
  return { action: replaces ? 'superseded' : 'stored', found, fact: r.fact, replaces, ...(ended.length > 0 ? { alsoReplaces: ended } : {}), reason: null };
}

/** What decided which sentences are kept: the classifier over the rules and the embedding, or the rules alone. */
export type CaptureBy = 'classifier' | 'rules';

/** What embeds the user's sentences for the classifier (the semantic layer). */
export interface SentenceEmbedder {
  readonly info: { readonly modelId: string; readonly dim: number };
  embedTexts(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * The facts worth keeping in a conversation's user turns: the classifier decides when it may (enabled, an
 * embedder of the model its weights belong to); else, or when embedding fails, the rules alone.
 */
export async function findFacts(embedder: SentenceEmbedder | null, turns: readonly CaptureTurn[], o: Pick<CaptureOptions, 'maxChars' | 'classifier'>): Promise<{ found: CapturedFact[]; by: CaptureBy; reason: string | null }> {
  const candidates = captureCandidates(turns, o.maxChars);
  // What the user said in the whole conversation: what a change said in few words is about.
  const context = contentStems(candidates.map((c) => c.sentence.text).join(' '));
  const heard = (found: CapturedFact[]) => found.map((f) => ({ ...f, context, ...(f.parts ? { parts: f.parts.map((p) => ({ ...p, context })) } : {}) }));
  const rules = (reason: string | null) => ({ found: heard(ruledFacts(candidates)), by: 'rules' as const, reason });
  if (!o.classifier) return rules('autoCapture.classifier is off');
  if (!embedder) return rules('the embedding model is not running');
  if (!modelFits(CAPTURE_MODEL, embedder.info.modelId, embedder.info.dim)) return rules(`the classifier was trained for ${CAPTURE_MODEL.modelId}, not ${embedder.info.modelId}`);
  if (candidates.length === 0) return { found: [], by: 'classifier', reason: null };
  try {
    const kept = modelFacts(CAPTURE_MODEL, candidates, await embedder.embedTexts(candidates.map(candidateText)));
    return { found: heard([...kept, ...restatementsDropped(candidates, kept)]), by: 'classifier', reason: null };
  } catch (err) {
    return rules(`embedding the sentences failed: ${(err as Error).message}`);
  }
}

/**
 * The sentences the classifier dropped that say they restate what memory knows ("I shoot through my
 * Celestron like always", "venue is still Fenwick Gardens"): not worth a new fact, but the fact they
 * restate is strengthened (decideAll), as when the rules alone decide.
 */
function restatementsDropped(candidates: readonly Candidate[], kept: readonly CapturedFact[]): CapturedFact[] {
  return candidates.flatMap((c) => {
    const f = c.ruled ?? plainFact(c.sentence);
    if (!f || !(RESTATES.test(f.text) || AS_USUAL.test(f.text)) || kept.some((k) => k.text.includes(f.text))) return [];
    return [{ ...f, restatesOnly: true }];
  });
}

/** Capture what was found in a conversation: each fact decided and (unless dryRun) written, all in one transaction. */
export function captureConversation(ctx: Ctx, found: readonly CapturedFact[], caller: Caller, o: CaptureOptions): CaptureDecision[] {
  if (found.length === 0) return [];
  if (o.dryRun) return found.flatMap((f) => decideAll(ctx, f, caller, o));
  return ctx.tx('auto-capture', () => found.flatMap((f) => decideAll(ctx, f, caller, o)));
}
