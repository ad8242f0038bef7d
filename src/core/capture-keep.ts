/**
 * Which of a conversation's kept sentences become which facts (auto-capture, issue 19): sentences said in a
 * row that say one kind of thing join, repeats go, and a later correction replaces what it corrects.
 */
import { captureCandidates, MAX_FACT_CHARS, plainFact, requestItExplains, saidBy, shareOf, type Candidate, type CapturedFact, type CaptureTurn } from './capture.js';
import { contentStems } from './relevant-block.js';

/** The chosen facts in order, without repeats; a correction later in the conversation replaces what it corrects ("tuesdays ... wait, thursdays"). */
export function keepFacts(chosen: readonly CapturedFact[]): CapturedFact[] {
  const out: CapturedFact[] = [];
  const seen = new Set<string>();
  for (const f of chosen) {
    const key = f.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (f.corrects) {
      const words = contentStems(f.text);
      for (let i = out.length - 1; i >= 0; i--) if (shareOf(contentStems((out[i] as CapturedFact).text), words) >= 0.25) out.splice(i, 1);
    }
    out.push(f);
  }
  return out;
}

/**
 * The facts kept from `candidates` (`pick` says which, and as what), in order, without repeats. Kept
 * sentences that follow one another in one message and say one kind of thing (`oneThing`) are one fact
 * ("Our distributor is Ole Imports. The rep is Nadia, she comes by the first Monday of the month."): what a
 * person says in a row is usually one thing, and its second sentence often leans on the first ("it's port
 * 8443 now", "the rate's 2.9%"). On eval/capture this lifted the classifier's held-out precision 0.767 ->
 * 0.824 at recall 0.775 -> 0.785, and the rules' precision on dev 0.775 -> 0.804. Kept clauses of one sentence
 * are one fact whatever their kinds ("all my alerts go to #homelab-alerts not email, i hate alert emails"):
 * the writers of every labeled round kept such a sentence as one item (dev, rounds 1-51: 0.909 / 0.811 ->
 * 0.914 / 0.813).
 */
export function factsInRow(candidates: readonly Candidate[], pick: (c: Candidate, i: number) => CapturedFact | null): CapturedFact[] {
  const chosen: { fact: CapturedFact; at: number; turn: number }[] = [];
  candidates.forEach((c, i) => {
    const last = chosen[chosen.length - 1];
    // What a kept sentence goes on to say after a dash is part of it ("we never ride when it's wet — if it's muddy, stay home").
    // So is the rest of its sentence after a comma ("i never book anything before 9am, i take fridays off"), unless it asks for something.
    let f = pick(c, i) ?? ((c.sentence.afterDash || c.sentence.afterClause) && last?.at === i - 1 && last.turn === c.turn ? plainFact(c.sentence) : null);
    if (!f) return;
    // A preference given as the reason for the request before it in the sentence keeps the request: what to do instead.
    const before = candidates[i - 1];
    const request = f.category === 'preference' && c.sentence.afterClause && before?.turn === c.turn && last?.at !== i - 1 ? requestItExplains(before.sentence.text) : null;
    if (request) f = { ...f, text: `${request.charAt(0).toUpperCase()}${request.slice(1)}, ${asWritten(f.text, c.sentence.text)}` };
    if (last && last.at === i - 1 && last.turn === c.turn && last.fact.text.length + f.text.length < MAX_FACT_CHARS && (oneThing(last.fact, f) || c.sentence.afterClause === true)) {
      last.fact = c.sentence.afterDash ? joinFacts(last.fact, f, ' — ', asWritten(f.text, c.sentence.text)) : c.sentence.afterClause ? joinFacts(last.fact, f, ', ', asWritten(f.text, c.sentence.text)) : joinFacts(last.fact, f);
      last.at = i;
    } else chosen.push({ fact: c.sender ? saidBy(f, c.sender) : f, at: i, turn: c.turn });
  });
  return keepFacts(chosen.map((c) => c.fact));
}

/** A fact's text in the case the user wrote its first letter in (a piece after a dash or a comma goes on a sentence). */
function asWritten(text: string, said: string): string {
  return /^\p{Ll}/u.test(said) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/**
 * Two kept sentences in a row are one thing when they are of one category, or when one of them is a
 * sentence no rule fired on (it has no category of its own): "remember that staging is on db2. I prefer
 * tabs" stays two facts.
 */
function oneThing(a: CapturedFact, b: CapturedFact): boolean {
  return a.category === b.category || a.rule === 'model' || b.rule === 'model';
}

/**
 * One fact of sentences said in a row: the first's rule, category and entity, every text, the stronger
 * settings, each sentence's own fact as a part. `sep`: what joins a piece of the same sentence (a dash, a
 * comma), with `bText` the piece as written in it; each part keeps its own text.
 */
export function joinFacts(a: CapturedFact, b: CapturedFact, sep?: string, bText = b.text): CapturedFact {
  const text = sep ? `${a.text.replace(/[\s;,]*$/, '')}${sep}${bText}` : `${a.text.replace(/[\s.;,]*$/, '.')} ${b.text}`;
  const parts = [...(a.parts ?? [a]), ...(b.parts ?? [b])];
  return { ...a, text, parts, tags: [...new Set([...a.tags, ...b.tags])], importance: Math.max(a.importance, b.importance), confidence: Math.min(a.confidence, b.confidence), corrects: a.corrects || b.corrects, redacted: a.redacted || b.redacted };
}

/** The facts the rules alone keep from a conversation's sentences. */
export function ruledFacts(candidates: readonly Candidate[]): CapturedFact[] {
  return factsInRow(candidates, (c) => c.ruled);
}

/** Every fact the rules find in a conversation's user turns, in order, without repeats. */
export function captureFacts(turns: readonly CaptureTurn[], options: { maxChars: number }): CapturedFact[] {
  return ruledFacts(captureCandidates(turns, options.maxChars));
}
