/**
 * The sentence classifier of auto-capture (issue 19): a logistic regression over a sentence's embedding
 * (the store's own offline model, USE-lite) and the cues of src/core/capture.ts (what the rules found,
 * question, request, something specific, ...). It decides which of the user's sentences are worth keeping:
 * it can keep a sentence no rule fired on (a fact stated without trigger words) and drop one a rule fired
 * on (a request that looks like a preference). Trained by `npm run eval:capture -- --train` on the dev
 * split of eval/capture/sets; the weights (src/core/capture-weights.ts) belong to one embedding model and
 * are not used with any other: the rules alone decide then.
 */
import { keepFacts, MAX_FACT_CHARS, plainFact, type Candidate, type CapturedFact } from './capture.js';
import { CUE_NAMES, sentenceCues } from './capture-cues.js';

export interface CaptureModel {
  /** The embedding model the weights were trained on (EmbedderInfo.modelId). */
  readonly modelId: string;
  readonly cueNames: readonly string[];
  readonly cues: readonly number[];
  readonly embedding: readonly number[];
  readonly bias: number;
  /** A sentence a rule fired on is kept at this probability or above. */
  readonly threshold: number;
  /** A sentence no rule fired on is kept at this probability or above (a fact without any cue, so a higher bar). */
  readonly plainThreshold: number;
}

/** The weights fit this embedder: same model, same dimension, same cues. */
export function modelFits(model: CaptureModel, modelId: string, dim: number): boolean {
  return model.modelId === modelId && model.embedding.length === dim && model.cueNames.length === CUE_NAMES.length && model.cueNames.every((n, i) => n === CUE_NAMES[i]);
}

/** Probability that a sentence is worth keeping. */
export function keepProbability(model: CaptureModel, cues: readonly number[], vector: Float32Array): number {
  let z = model.bias;
  for (let i = 0; i < cues.length; i++) z += (model.cues[i] ?? 0) * (cues[i] ?? 0);
  for (let i = 0; i < vector.length; i++) z += (model.embedding[i] ?? 0) * (vector[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** The text the classifier embeds for a sentence. */
export function candidateText(c: Candidate): string {
  return c.sentence.text;
}

/**
 * The facts the classifier keeps: the rule's fact where one fired, else the sentence as written. Kept
 * sentences that follow one another in one message are one fact ("Our distributor is Ole Imports. The rep
 * is Nadia, she comes by the first Monday of the month."): what a person says in a row is usually one
 * thing, and its second sentence often leans on the first ("it's port 8443 now", "the rate's 2.9%"). On the
 * blind rounds (eval/capture) this lifted precision 0.767 -> 0.834 at recall 0.775 -> 0.784.
 */
export function modelFacts(model: CaptureModel, candidates: readonly Candidate[], vectors: readonly Float32Array[]): CapturedFact[] {
  const chosen: { fact: CapturedFact; at: number; turn: number }[] = [];
  candidates.forEach((c, i) => {
    const v = vectors[i];
    if (!v || keepProbability(model, sentenceCues(c), v) < (c.ruled ? model.threshold : model.plainThreshold)) return;
    const f = c.ruled ?? plainFact(c.sentence);
    if (!f) return;
    const last = chosen[chosen.length - 1];
    if (last && last.at === i - 1 && last.turn === c.turn && last.fact.text.length + f.text.length < MAX_FACT_CHARS) {
      last.fact = joinFacts(last.fact, f);
      last.at = i;
    } else chosen.push({ fact: f, at: i, turn: c.turn });
  });
  return keepFacts(chosen.map((c) => c.fact));
}

/** One fact of two said in a row: the first's rule, category and entity, both texts, the stronger settings. */
function joinFacts(a: CapturedFact, b: CapturedFact): CapturedFact {
  return {
    ...a,
    text: `${a.text.replace(/[\s.;,]*$/, '.')} ${b.text}`,
    tags: [...new Set([...a.tags, ...b.tags])],
    importance: Math.max(a.importance, b.importance),
    confidence: Math.min(a.confidence, b.confidence),
    corrects: a.corrects || b.corrects,
    redacted: a.redacted || b.redacted,
  };
}
