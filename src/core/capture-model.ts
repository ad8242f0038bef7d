/**
 * The sentence classifier of auto-capture (issue 19): a logistic regression over a sentence's embedding
 * (the store's own offline model, USE-lite), its words (a vocabulary of the words seen in at least three
 * training sentences: "tonight", "again", "always" say what the embedding blurs) and the cues of
 * src/core/capture.ts (what the rules found, question, request, something specific, ...). It decides
 * which of the user's sentences are worth keeping: it can keep a sentence no rule fired on (a fact stated
 * without trigger words) and drop one a rule fired on (a request that looks like a preference). Trained
 * by `npm run eval:capture:train -- --write` on the dev split of eval/capture/sets; the weights
 * (src/core/capture-weights.ts) belong to one embedding model and are not used with any other: the rules
 * alone decide then.
 */
import { CREDENTIAL_HOME_TAG, plainFact, type Candidate, type CapturedFact } from './capture.js';
import { factsInRow } from './capture-keep.js';
import { CUE_NAMES, sentenceCues } from './capture-cues.js';
import { tokenize } from './text.js';

export interface CaptureModel {
  /** The embedding model the weights were trained on (EmbedderInfo.modelId). */
  readonly modelId: string;
  readonly cueNames: readonly string[];
  readonly cues: readonly number[];
  readonly embedding: readonly number[];
  /** Weight of each vocabulary word a sentence holds (counted once); words not listed weigh 0. */
  readonly words: Readonly<Record<string, number>>;
  readonly bias: number;
  /** A sentence a rule fired on is kept at this probability or above. */
  readonly threshold: number;
  /** A sentence only the named-fact rule fired on ("X is Y", the loosest rule) is kept at this probability or above. */
  readonly namedThreshold: number;
  /** A sentence no rule fired on is kept at this probability or above (a fact without any cue, so a higher bar). */
  readonly plainThreshold: number;
}

/** Rules whose sentence, said as a message of its own, is kept whatever the classifier says. */
const ALONE_RULES: ReadonlySet<string> = new Set(['preference', 'explicit']);
/** A decision that says it lasts ("we decided ...", "from now on ..."); "going with the B today" is this task's choice. */
const LASTING_DECISION = /\b(?:decided|agreed|from now on|going forward|from here on)\b/i;

/** The weights fit this embedder: same model, same dimension, same cues. */
export function modelFits(model: CaptureModel, modelId: string, dim: number): boolean {
  return model.modelId === modelId && model.embedding.length === dim && model.cueNames.length === CUE_NAMES.length && model.cueNames.every((n, i) => n === CUE_NAMES[i]);
}

/** Probability that a sentence is worth keeping. */
export function keepProbability(model: CaptureModel, cues: readonly number[], vector: Float32Array, text: string): number {
  let z = model.bias;
  for (const w of sentenceWords(text)) z += Object.hasOwn(model.words, w) ? (model.words[w] ?? 0) : 0;
  for (let i = 0; i < cues.length; i++) z += (model.cues[i] ?? 0) * (cues[i] ?? 0);
  for (let i = 0; i < vector.length; i++) z += (model.embedding[i] ?? 0) * (vector[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** The probability a sentence needs: a fact without any cue needs more than one a rule fired on. */
function threshold(model: CaptureModel, c: Candidate): number {
  if (!c.ruled) return model.plainThreshold;
  return c.ruled.rule === 'named-fact' ? model.namedThreshold : model.threshold;
}

/** The distinct words of a sentence, as the classifier reads them. */
export function sentenceWords(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/** The text the classifier embeds for a sentence. */
export function candidateText(c: Candidate): string {
  return c.sentence.text;
}

/** The facts the classifier keeps: the rule's fact where one fired, else the sentence as written. */
export function modelFacts(model: CaptureModel, candidates: readonly Candidate[], vectors: readonly Float32Array[]): CapturedFact[] {
  return factsInRow(candidates, (c, i) => {
    const v = vectors[i];
    // Where a credential lives is kept whatever the classifier says: issue 19 asks for exactly that fact.
    if (c.ruled?.tags.includes(CREDENTIAL_HOME_TAG)) return c.ruled;
    // A message that is only a preference, a decision or a request to remember ("I hate tabs", "we decided
    // to keep backups for 30 days") says it to be kept, whatever the classifier makes of its few words.
    if (c.alone && c.ruled && (ALONE_RULES.has(c.ruled.rule) || (c.ruled.rule === 'decision' && LASTING_DECISION.test(c.sentence.text)))) return c.ruled;
    if (!v || keepProbability(model, sentenceCues(c), v, candidateText(c)) < threshold(model, c)) return null;
    return c.ruled ?? plainFact(c.sentence);
  });
}
