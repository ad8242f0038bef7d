/**
 * What the auto-capture sentence classifier (src/core/capture-model.ts) reads about a sentence besides its
 * embedding: what the rules of src/core/capture.ts found in it, its form (question, request, list item,
 * first person), what is specific in it, and how the assistant answered the turn it is in.
 */
import { IMPERATIVE, NAMED_THING, NOT_A_STATEMENT, RULE_NAMES, SPECIFIC, type Candidate } from './capture.js';
import { TROUBLE } from './capture-moment.js';
import { FILLER } from './capture-sentences.js';

/** What the sentence classifier (src/core/capture-model.ts) reads besides the sentence's embedding. */
export const CUE_NAMES = ['listed', 'question', 'not-a-statement', 'imperative', 'specific', 'named-thing', 'first-person', 'trouble', 'words', 'redacted', 'acknowledged', 'echoed', ...RULE_NAMES.map((r) => `rule:${r}`)] as const;

/** The cues of one sentence, in CUE_NAMES order (0 or 1, words scaled to 0..2); `ruled` is what the rules found in it. */
export function sentenceCues({ sentence, ruled, reply }: Candidate): number[] {
  const body = sentence.text.replace(FILLER, '').trim();
  const words = body.split(/\s+/).length;
  const flags = [
    sentence.listed,
    /\?\s*$/.test(body),
    NOT_A_STATEMENT.test(body),
    IMPERATIVE.test(body),
    SPECIFIC.test(body),
    NAMED_THING.test(body),
    /^(?:i|i'm|im|i've|i'd|we|we're|we've|my|our|us)\b/i.test(body),
    TROUBLE.test(body),
  ].map(Number);
  return [...flags, Math.min(words / 20, 2), Number(ruled?.redacted ?? false), ...replyCues(body, reply), ...RULE_NAMES.map((r) => Number(ruled?.rule === r))];
}

/** The assistant took note of the turn ("Got it", "Noted", "I'll remember that"). */
const ACKNOWLEDGED = /^\W*(?:got it|noted|will do|understood|sure thing|(?:ok(?:ay)?|sure|thanks)[,!.]?\s+(?:noted|got it|i'?ll remember)|i'?ll (?:remember|keep|note|make sure|keep in mind)|saved|good to know|thanks for (?:letting me know|the heads[- ]up)|remembered|i'?ve noted)/i;
/** What makes a sentence's content its own: numbers, codes, Names. */
const DISTINCT = /\b[\w.-]*\d[\w.-]*\b|(?<=\s)[A-Z][\p{L}'-]+/gu;

/**
 * How the assistant answered the turn a sentence is in: it acknowledged it, and how much of the
 * sentence's specific content it wrote back into a long reply (a draft, a list: the sentence was the
 * task's material, not something to keep).
 */
function replyCues(body: string, reply: string): [number, number] {
  const ack = ACKNOWLEDGED.test(reply);
  const own = [...new Set(body.match(DISTINCT) ?? [])];
  if (ack || reply.length < 300 || own.length === 0) return [Number(ack), 0];
  const lower = reply.toLowerCase();
  return [0, own.filter((t) => lower.includes(t.toLowerCase())).length / own.length];
}
