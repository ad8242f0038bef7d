/**
 * Auto-capture into the store (issue 19): the rules of src/core/capture.ts find the facts in a
 * conversation's user turns; here each one is kept as a new fact (source `auto-capture`), or, when a current
 * fact already says nearly the same about the same entity, that fact is strengthened instead of stored
 * again; a correction replaces the current fact it corrects (a new version, not a conflict). All of one
 * conversation is one transaction. `dryRun` decides everything and writes nothing.
 */
import { captureCandidates, plainFact, RESTATES, shareOf, type Candidate, type CapturedFact, type CaptureTurn } from '../core/capture.js';
import { joinFacts, ruledFacts } from '../core/capture-keep.js';
import { candidateText, modelFacts, modelFits } from '../core/capture-model.js';
import { CAPTURE_MODEL } from '../core/capture-weights.js';
import { contentStems as stemsOf } from '../core/relevant-block.js';
import { givesNewValue, newCountOf } from '../core/capture-values.js';
import { visibility } from '../core/scope.js';
import { strength } from '../core/strength.js';
import { parseQuery } from '../core/text.js';
import type { Caller, Category, Fact, ScopeKind } from '../core/types.js';
import type { Ctx } from './context.js';
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
  /** Why a fact was skipped. */
  readonly reason: string | null;
}

/**
 * The content stems memory compares facts by. "User" is not one: a fact an agent stored about the user
 * says "User keeps the family tree on Ancestry", while the user says "I've moved the family tree off
 * Ancestry", so the word would only stand between a statement and the fact it restates or changes.
 */
function contentStems(text: string): Set<string> {
  const out = stemsOf(text);
  out.delete('user');
  return out;
}

/** Word overlap (Jaccard of content stems) at which a current fact says the same thing. */
export const SAME_FACT = 0.8;
/** A correction replaces the current fact that shares at least this share of its content words. */
export const CORRECTS = 0.25;
/**
 * A fact the user says memory knows ("is still", "as you know", "like always", "hasn't changed") is a current
 * one whose content words it holds at least this much of (two or more): said to be known, a quarter of the
 * fact's words name it ("Still biweekly fridays" for "Payroll runs biweekly on Fridays through Gusto").
 */
export const RESTATED = 0.25;

/** A statement of change ("moved to", "is ... now", "switched", "no longer"): the fact it states replaces one. */
const CHANGE = /\b(?:now|moved|moves|moving|changed|switched|swapped|renamed|tak(?:ing|es)? over|took over|replaced|pushed|bumped|dropped|migrated|upgraded|no longer|anymore|instead|as of|starting|got (?:moved|changed|cut|pushed|bumped)|cut to|goes to|went to|new)\b/i;
/** Said to be unchanged ("that part didn't change", "hours are the same"): not a statement of change, whatever words follow. */
const UNCHANGED = /\b(?:(?:has|have|did|does|is|was)n[o']?t (?:changed?|moved)|(?:has|have|did|does) not (?:changed?|moved)|(?:nothing|none of (?:that|this|it|those))(?:'s| has| have)? changed|nothing new|(?:is|are|stays?|stayed|remains?) the same|unchanged|for \d+\+? (?:years?|yrs?|months?) now|\d+\+? (?:years?|yrs?) now)\b/gi;
/** The text states a change, not counting what it says is unchanged. */
function saysChange(text: string): boolean {
  return CHANGE.test(text.replace(UNCHANGED, ' '));
}
/** A changed fact replaces the current one whose content words it mostly holds (at least this share, two or more). */
export const CHANGED = 0.5;

/** The current fact a statement of change replaces: the one of `near` whose content words it holds most. */
function changes(said: ReadonlySet<string>, near: readonly Fact[]): Fact | null {
  let best: { fact: Fact; share: number } | null = null;
  for (const fact of near) {
    const share = heldShare(contentStems(fact.text), said);
    if (share >= CHANGED && names(fact, said) && (!best || share > best.share)) best = { fact, share };
  }
  return best?.fact ?? null;
}

/**
 * The statement names what the fact is about: a word of its entity, or else its first content word (the
 * first two of a fact about the "User": "User keeps the family tree ..." is about keeping the family tree).
 */
function names(fact: Fact, said: ReadonlySet<string>): boolean {
  const subject = fact.entity ? [...contentStems(fact.entity)] : [...contentStems(fact.text)].slice(0, /^user\b/i.test(fact.text) ? 2 : 1);
  return subject.length === 0 || subject.some((w) => said.has(w));
}

/**
 * The old value a statement of change names as gone: "not with LinguaBridge anymore", "no longer at the
 * Grange", "moved staging off the Dokku box", "switched from Enphase", "Highland Green instead of white",
 * "we dropped the Switch port", "left keller williams", "on enterprise accounts now, not mid-market". Its first
 * word after the frame.
 */
const OLD_VALUE = /(?:\b(?:not (?:with|at|on|in|using|from|the|a|an|our|my)\s+|swapped(?: out)?\s+(?:the|a|our|my)\s+|no longer(?:\s+[\w'-]+)?\s+(?:with|at|on|in|for|using|from|the|a|our|my)\s+(?:the\s+|a\s+|our\s+|my\s+)?|no longer\s+(?:doing|using|use|running|run|taking|playing|going to|offering|carrying)\s+(?:the\s+|a\s+|our\s+|my\s+)?|(?:moved|moving|switched|switching|went|came)(?:\s+[\w'-]+){0,2}?\s+(?:off|away from|from)\s+(?:of\s+|the\s+|a\s+|our\s+|my\s+)?|instead of\s+(?:the\s+|a\s+|our\s+|my\s+)?|rather than\s+(?:the\s+|a\s+)?|(?:dropped|ditched|replaced|retired|left|lost|ripped out|sold|finished(?!\s+[\w-]+ing\b)|handed off|gave up|stopped(?:\s+(?:doing|using|offering|taking|carrying|selling)|(?=\s+(?:the|our|my)\s)))\s+(?:the\s+|a\s+|our\s+|my\s+)?)|,\s*not\s+(?:the\s+|a\s+|an\s+)?|(?<=\w)n['’]t (?:with|at|on|in|using|from)\s+(?:the\s+|a\s+|our\s+|my\s+)?)\$?([\p{L}\d][\p{L}\d.'-]*)/giu;

/** An old value said to be gone before the words that say so: "mr delgado retired", "the 40 breeder is gone". */
const GONE_VALUE = /([\p{L}\d][\p{L}\d.'-]*)\s+(?:retired|retiring|quit|quitting|(?:is |'s )?leaving|moved away|passed away|(?:is|are|'s) gone|closed (?:down|for good)|stopped (?:hosting|carrying|offering|selling|making|running|doing))\b/giu;

/** The content stems of the old values a statement of change names (OLD_VALUE, GONE_VALUE). */
function oldValues(text: string): Set<string> {
  const out = new Set<string>();
  for (const re of [OLD_VALUE, GONE_VALUE]) for (const m of text.matchAll(re)) for (const w of contentStems(m[1] ?? '')) out.add(w);
  return out;
}

/** A role a person holds for the user, the roles a statement of a new holder names. */
const ROLE = String.raw`(?:coach|manager|director|principal|doctor|dentist|vet|[a-z]*ologist|pediatrician|physician|therapist|counselor|accountant|lawyer|attorney|assistant|tutor|teacher|instructor|trainer|contact|rep|lead|captain|president|treasurer|secretary|chair|landlord|nanny|sitter|editor|agent|advisor|adviser|supervisor|boss|pastor|mechanic|groomer|farrier|coordinator|planner|officer|ed|ceo|cto|cfo)`;
/** "our new office manager is Yolanda Pruitt", "our coach is Min-jun now": the role and its new holder. */
const NEW_HOLDER = new RegExp(String.raw`\b(?:my|our|the|his|her|their)\s+(?:new\s+)?((?:[\p{L}-]+\s+)?${ROLE})\s+(?:is|'s)\s+(?:now\s+)?(?:dr\.?\s+|mr\.?\s+|ms\.?\s+|mrs\.?\s+)?([\p{L}][\p{L}'-]*)`, 'iu');

/** The current fact a statement of a role's new holder replaces: one that says who holds that role ("office manager is Terri"), someone else. */
function formerHolder(text: string, near: readonly Fact[]): Fact | null {
  const m = NEW_HOLDER.exec(text);
  if (!m?.[1] || !m[2]) return null;
  const role = m[1].toLowerCase().split(/\s+/);
  const holder = m[2].toLowerCase();
  return near.find((f) => new RegExp(String.raw`\b${role.at(-1)}\s+(?:is|'s)\s`, 'i').test(f.text) && !f.text.toLowerCase().includes(holder)) ?? null;
}

/** The current fact of `near` that holds an old value the statement names as gone; the one holding most of the statement's words. */
function holdsOldValue(text: string, said: ReadonlySet<string>, near: readonly Fact[]): Fact | null {
  const old = oldValues(text);
  if (old.size === 0) return null;
  let best: { fact: Fact; share: number } | null = null;
  for (const fact of near) {
    const held = contentStems(fact.text);
    if (![...old].some((w) => held.has(w))) continue;
    const share = shareOf(held, said);
    if (!best || share > best.share) best = { fact, share };
  }
  return best?.fact ?? null;
}

/**
 * The current fact of `near` a statement of change gives a new value for ("Starlite league moved to
 * thursdays" for "League night is Tuesday at Starlite Lanes"): the clause that says the change shares two or
 * more words with the fact besides values and GENERIC words, and states a value of a kind the fact holds,
 * differently; the one sharing most words. One shared word is too little: "a $40 no-show fee" is not a new
 * "Dog adoption fee is $150".
 */
function newValueFor(text: string, near: readonly Fact[]): Fact | null {
  let best: { fact: Fact; shared: number } | null = null;
  for (const clause of text.split(CHANGE_CLAUSE).filter(saysChange)) {
    const said = contentStems(clause);
    for (const fact of near) {
      const shared = [...contentStems(fact.text)].filter((w) => said.has(w) && !/\d|^(?:mon|tue|wed|thu|fri|sat|sun)/.test(w) && !GENERIC.has(w));
      if ((shared.length >= 2 || (shared.length === 1 && newCountOf(fact.text, clause) === shared[0])) && (!best || shared.length > best.shared) && givesNewValue(fact.text, clause)) best = { fact, shared: shared.length };
    }
  }
  return best?.fact ?? null;
}

/** Stems too common to say what a fact is about: when and how often, and the words of change themselves. */
const GENERIC = new Set(['start', 'new', 'now', 'everi', 'week', 'month', 'year', 'dai', 'time', 'night', 'morn', 'even', 'move', 'switch', 'chang', 'bump', 'go', 'went', 'get', 'got', 'take', 'first', 'last', 'next', 'still', 'free', 'hour', 'minut']);
/** Where a clause of a statement ends, for newValueFor: a value is compared in the clause that says it changed. */
const CHANGE_CLAUSE = /[.!?;]+\s+|,\s+|\s+[—–]\s+|\s+(?:so|but|because|bc|since)\s+/i;

/** Where a known fact given as a reason ends: "..., so ...", "... so ...", "... which means ...". */
const LEAD_END = /,?\s+(?:so|which means|that means)\s+/i;

/** A fact that adds nothing to a current one: most of its content words are the current fact's, and none it adds is a value. */
export const CONTAINED = 0.75;
function contained(said: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
  const added = [...said].filter((w) => !known.has(w));
  return said.size - added.length >= 2 && shareOf(said, known) >= CONTAINED && !added.some((w) => /\d/.test(w));
}

/** The share of a current fact's content words a statement holds; 0 when it holds fewer than two. */
function heldShare(known: ReadonlySet<string>, said: ReadonlySet<string>): number {
  let held = 0;
  for (const w of known) if (said.has(w)) held++;
  return held >= 2 ? held / known.size : 0;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  const union = a.size + b.size - n;
  return union === 0 ? 0 : n / union;
}

/**
 * Two facts are about one thing when either has no entity, or one entity's words hold the other's: the
 * subject a sentence names ("reminder that grafana" -> `reminder-that-grafana`) is often a longer phrase
 * than the entity a fact was stored with (`grafana`).
 */
function sameEntity(a: string | null, b: string | null): boolean {
  if (a === null || b === null || a.toLowerCase() === b.toLowerCase()) return true;
  const [x, y] = [contentStems(a.replace(/[-_]/g, ' ')), contentStems(b.replace(/[-_]/g, ' '))];
  return x.size > 0 && y.size > 0 && (shareOf(x, y) === 1 || shareOf(y, x) === 1);
}

/** The current facts the caller sees that share words with `text`, best first. */
function neighbours(ctx: Ctx, text: string, caller: Caller): Fact[] {
  const parts = parseQuery(text);
  return parts.length === 0 ? [] : ctx.fts.search(parts, visibility(caller), { limit: 8 }).map((h) => h.fact);
}

/**
 * The current fact `found` says again, if any: nearly the same words, nothing added to it, or said to be
 * known already ("as you know ...") and mostly held. `near`: its neighbours, when already looked up.
 */
function known(ctx: Ctx, found: CapturedFact, caller: Caller, near = neighbours(ctx, found.text, caller)): Fact | null {
  const stems = contentStems(found.text);
  // A known fact given as the reason for a request ("I'm allergic to shellfish so flag anything with seafood").
  const lead = contentStems(found.text.split(LEAD_END)[0] ?? '');
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

/** Said as usual ("like always", "as usual", "still"): the sentence says a current fact again, perhaps with more. */
const AS_USUAL = /\b(?:like always|as usual|as ever|like usual|same as (?:always|before|usual|ever)|like before|still|(?:is|are|stays?|stayed|remains?) the same|(?:has|have|did|does)n'?t changed?|(?:nothing|none of (?:that|this|it|those))(?:'s| has| have)? changed|nothing new|unchanged)\b/i;

const AS_USUAL_ALL = new RegExp(AS_USUAL.source, 'gi');

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

/**
 * Sentences said in a row are one fact, unless some of them only say what memory knows ("Venue is still
 * Fenwick Gardens. The florist is Petal Theory."): those strengthen the fact they restate, and the rest is
 * decided as one fact.
 */
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
  const seen = new Set(done.flatMap((d) => [d.fact?.id, d.replaces?.id]));
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
  const restated = parts.map((p) => known(ctx, p, caller));
  if (!restated.some(Boolean)) return [decide(ctx, found, caller, o)];
  const out = parts.flatMap((p, i) => {
    const same = restated[i];
    return same ? [strengthened(ctx, p, same, o)] : [];
  });
  const rest = parts.filter((_, i) => !restated[i]);
  return rest.length === 0 ? out : [...out, decide(ctx, rest.reduce((a, b) => joinFacts(a, b)), caller, o)];
}

/**
 * A fact a clause says as usual, that the rest of the text neither names (two content words) nor gives a new
 * value for, is not the one that changed: "Still deriving types with z.infer. The backend moved to hono" does
 * not replace "User derives types with z.infer", while "office hours moved to wednesdays 10-12, still hale
 * 214" replaces "Office hours are Mondays 1-3pm in Hale 214".
 */
function saidAsUsualOnly(fact: Fact, text: string): boolean {
  const clauses = text.split(CHANGE_CLAUSE);
  const usual = (c: string) => AS_USUAL.test(c) && !saysChange(c);
  const held = contentStems(fact.text);
  if (!clauses.some((c) => usual(c) && heldShare(held, contentStems(c.replace(AS_USUAL_ALL, ' '))) >= RESTATED)) return false;
  const rest = clauses.filter((c) => !usual(c)).join(', ');
  return heldShare(held, contentStems(rest)) === 0 && !givesNewValue(fact.text, rest);
}

/** The current fact of `near` that `found` replaces, when it states a change: by the rules above, in order. */
function replacement(found: CapturedFact, near: readonly Fact[]): Fact | null {
  const text = found.text;
  if (!found.corrects && !saysChange(text)) return null;
  const stems = contentStems(text);
  const about = near.filter((f) => sameEntity(f.entity, found.entity) && !saidAsUsualOnly(f, text));
  const corrected = found.corrects ? (about.find((f) => shareOf(stems, contentStems(f.text)) >= CORRECTS) ?? null) : changes(stems, about);
  return corrected ?? holdsOldValue(text, stems, about) ?? newValueFor(text, about) ?? formerHolder(text, about);
}

/** `restated`: a fact the sentence says again and was strengthened for; what it adds is stored, not that again. */
function decide(ctx: Ctx, found: CapturedFact, caller: Caller, o: CaptureOptions, restated?: Fact): CaptureDecision {
  const skip = (reason: string): CaptureDecision => ({ action: 'skipped', found, fact: null, replaces: null, reason });
  if (found.confidence < o.minConfidence) return skip(`confidence ${found.confidence} is below autoCapture.minConfidence`);
  if (o.categories && !o.categories.includes(found.category)) return skip(`category ${found.category} is not in autoCapture.categories`);
  // A sentence with terminal control characters would be refused by memory_store; skip it, keep the rest.
  if (findControl(found.text) || (found.entity !== null && findControl(found.entity))) return skip('it holds control characters');
  const near = neighbours(ctx, found.text, caller);
  const same = known(ctx, found, caller, near);
  const replaces = replacement(found, near);
  // Said again, unless it also changes another fact ("fees are $30 now, work days are still ..."): then that one is replaced, and this one strengthened by saidAsUsual.
  if (same && same.id !== restated?.id && (!replaces || replaces.id === same.id)) return strengthened(ctx, found, same, o);
  if (o.dryRun) return { action: replaces ? 'superseded' : 'stored', found, fact: null, replaces, reason: null };
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
  return { action: replaces ? 'superseded' : 'stored', found, fact: r.fact, replaces, reason: null };
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
  const rules = (reason: string | null) => ({ found: ruledFacts(candidates), by: 'rules' as const, reason });
  if (!o.classifier) return rules('autoCapture.classifier is off');
  if (!embedder) return rules('the embedding model is not running');
  if (!modelFits(CAPTURE_MODEL, embedder.info.modelId, embedder.info.dim)) return rules(`the classifier was trained for ${CAPTURE_MODEL.modelId}, not ${embedder.info.modelId}`);
  if (candidates.length === 0) return { found: [], by: 'classifier', reason: null };
  try {
    const kept = modelFacts(CAPTURE_MODEL, candidates, await embedder.embedTexts(candidates.map(candidateText)));
    return { found: [...kept, ...restatementsDropped(candidates, kept)], by: 'classifier', reason: null };
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
