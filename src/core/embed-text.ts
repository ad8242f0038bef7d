/**
 * What gets embedded for a fact: its entity (when it has one) gives the sentence its subject. A dialogue
 * turn's time stamp is left out: every turn of a session shares it, so it only pulls them together (on the
 * chat sets, stamped turns lost 0.07-0.14 of the vector leg's R@5 on dev); full text still indexes it.
 */
export function embedText(f: { readonly text: string; readonly entity: string | null }): string {
  const said = f.text.replace(STAMP, '');
  const text = speakerOf(said) === null ? f.text : said;
  return f.entity ? `${f.entity}: ${text}` : text;
}

/**
 * A turn of dialogue as an agent stores it: a speaker, a colon, then what was said ("Maya: I got the
 * job!", "user: ..."). A speaker is a role word or one to three capitalized words ("Dr. Lee", "Maya
 * O'Brien"); a note's topic label is not ("Prettier config:", "DNS:", "Jonas corrected me:", "Update:").
 */
const TURN = /^([^:\n]{1,40}):\s+\S/u;
const ROLES = new Set(['user', 'assistant', 'human', 'ai', 'bot', 'system', 'agent', 'me', 'you']);
const NAME_WORD = /^\p{Lu}[\p{Ll}.]*(?:['’-]\p{Lu}?[\p{Ll}.]*)*$/u;
const NOTE_LABELS = new Set(
  'note notes update reminder todo decision decided benchmark summary context fix error warning info status result results answer question tip idea goal task action outcome fyi important locally remotely example usage config settings setup layout caution edit correction issue problem solution cause workaround'.split(' '),
);

/**
 * A time stamp a transcript line may open with, before its speaker: "[2023-05-08 13:56]", "(Mon 9:30)",
 * "2023-05-08T13:56Z - ", "1:56 pm on 8 May, 2023 - ".
 */
const STAMP = /^(?:\[[^\]\n]{1,60}\]|\([^)\n]{1,60}\)|\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}\s*[ap]\.?m\.?(?: on \d{1,2} \p{L}+,? \d{4})?)\s*(?:[-–—|,]\s*)?/iu;

export function isDialogueTurn(text: string): boolean {
  return turnSpeaker(text) !== null;
}

/** What a dialogue turn says, without its time stamp and speaker ("[2023-05-08 13:56] Maya: hi" -> "hi"); any other text as it is. */
export function spokenWords(text: string): string {
  const said = text.replace(STAMP, '');
  return speakerOf(said) === null ? text : said.slice(said.indexOf(':') + 1).trimStart();
}

/** Who speaks a dialogue turn ("Maya O'Brien", "user"), or null when the text is not one. */
export function turnSpeaker(text: string): string | null {
  return speakerOf(text.replace(STAMP, ''));
}

/** The speaker of a line whose time stamp is already out. */
function speakerOf(said: string): string | null {
  const label = TURN.exec(said)?.[1]?.trim();
  if (!label) return null;
  if (ROLES.has(label.toLowerCase())) return label;
  const words = label.split(/\s+/);
  return words.length <= 3 && words.every((w) => NAME_WORD.test(w)) && !(words.length === 1 && NOTE_LABELS.has(label.toLowerCase())) ? label : null;
}

/**
 * A dialogue turn is embedded with the turn before it (issue 18): a short reply ("Yes, the adoption
 * agency one!") takes its meaning from what it answers. The turn's own vector plus this share of the
 * previous turn's, normalized; tuned on the dev split of the chat sets in eval/recall (0.2-0.5 all helped,
 * 0.4 best; the turn after it did not help, and blending did harm on notes that are not dialogue).
 */
export const TURN_CONTEXT_WEIGHT = 0.4;

/** Bumped when what a turn is embedded with changes: a store embedded under another version re-embeds its turns once. */
export const TURN_CONTEXT_VERSION = '1';

/** Turns further apart than this are not one exchange. */
export const TURN_CONTEXT_WINDOW_MS = 30 * 60_000;

/** Both read as dialogue turns, the earlier stored at most TURN_CONTEXT_WINDOW_MS before. */
export function continuesTurn(turn: { readonly text: string; readonly createdAt: number }, before: { readonly text: string; readonly createdAt: number }): boolean {
  const gap = turn.createdAt - before.createdAt;
  return gap >= 0 && gap <= TURN_CONTEXT_WINDOW_MS && isDialogueTurn(turn.text) && isDialogueTurn(before.text);
}

/** `own + weight * context`, scaled to unit length. */
export function blendVectors(own: Float32Array, context: Float32Array, weight = TURN_CONTEXT_WEIGHT): Float32Array {
  const out = new Float32Array(own.length);
  let norm = 0;
  for (let i = 0; i < own.length; i++) {
    const x = (own[i] as number) + weight * ((context[i] as number) || 0);
    out[i] = x;
    norm += x * x;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 1;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) * scale;
  return out;
}

type Embeddable = { readonly text: string; readonly entity: string | null };

/**
 * Each fact's vector: its own text's, blended with the turn before it where `before` gives one (a dialogue
 * turn, src/memory/semantic.ts decides); every distinct text is embedded once.
 */
export async function factVectors(facts: readonly Embeddable[], before: readonly (Embeddable | null)[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
  const texts = [...new Set([...facts, ...before.flatMap((b) => (b ? [b] : []))].map(embedText))];
  const embedded = await embed(texts);
  const byText = new Map(texts.map((t, i) => [t, embedded[i]]));
  return facts.map((f, i) => {
    const own = byText.get(embedText(f)) as Float32Array;
    const b = before[i];
    const context = b ? byText.get(embedText(b)) : undefined;
    return context ? blendVectors(own, context) : own;
  });
}
