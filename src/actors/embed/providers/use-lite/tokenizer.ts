/**
 * USE-lite's SentencePiece (unigram) tokenizer, read from the model package's vocab.json: the best-scoring
 * segmentation of the text into vocabulary pieces (Viterbi over code points).
 *
 * It reproduces the segmentation TF.js's USE-lite wrapper feeds the model, including its choices on ties
 * and unknown characters, so that the vectors equal the ones already stored: NFKC, every ASCII space and the
 * start become `▁`; a code point no piece starts with is the unknown id 0 (a run of them is one id 0); a
 * best score of exactly 0 counts as "none yet", and on equal scores the piece starting later wins.
 * `test/use-lite-native.test.ts` checks it token for token against the package's own tokenizer.
 */

/** One vocabulary entry as vocab.json stores it: [piece, log-probability score]. */
export type VocabEntry = readonly [string, number];

/** Ids 0-5 are reserved (unknown, <s>, </s>, three extras) and never matched. */
const RESERVED = 6;
const UNKNOWN = 0;
const SPACE = '\u2581';

interface TrieNode {
  readonly next: Map<number, TrieNode>;
  /** Vocabulary id of the piece ending here, or -1. */
  id: number;
}

function node(): TrieNode {
  return { next: new Map(), id: -1 };
}

export class UseLiteTokenizer {
  readonly #root = node();
  readonly #scores: Float64Array;
  /** Length in code points of every piece. */
  readonly #lengths: Int32Array;

  constructor(vocab: readonly VocabEntry[]) {
    this.#scores = new Float64Array(vocab.length);
    this.#lengths = new Int32Array(vocab.length);
    this.#lengths[UNKNOWN] = 1;
    for (let id = RESERVED; id < vocab.length; id++) {
      const entry = vocab[id];
      if (!entry) continue;
      const [piece, score] = entry;
      let at = this.#root;
      let len = 0;
      for (const ch of piece) {
        const cp = ch.codePointAt(0) as number;
        let child = at.next.get(cp);
        if (!child) {
          child = node();
          at.next.set(cp, child);
        }
        at = child;
        len++;
      }
      if (len === 0) continue;
      at.id = id;
      this.#scores[id] = score;
      this.#lengths[id] = len;
    }
  }

  /** The ids of `text`, in order. */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    const cps: number[] = [SPACE.codePointAt(0) as number];
    for (const ch of normalized) cps.push(ch === ' ' ? (SPACE.codePointAt(0) as number) : (ch.codePointAt(0) as number));
    const n = cps.length;
    // ends[end] lists the pieces ending at `end` as (start, id) pairs, starts ascending.
    const ends: number[][] = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      let at = this.#root.next.get(cps[start] as number);
      let matched = false;
      for (let end = start + 1; at; end++) {
        if (at.id >= 0) {
          (ends[end] as number[]).push(start, at.id);
          matched = true;
        }
        if (end >= n) break;
        at = at.next.get(cps[end] as number);
      }
      if (!matched) (ends[start + 1] as number[]).push(start, UNKNOWN);
    }
    // Pieces are pushed as their start is scanned, so each list is ordered by start, as the original's is.
    const best = new Float64Array(n + 1);
    const word = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      const list = ends[end] as number[];
      for (let i = 0; i < list.length; i += 2) {
        const start = list[i] as number;
        const id = list[i + 1] as number;
        const score = this.#scores[id] as number;
        const total = score + (best[start] as number);
        if (best[end] === 0 || total >= (best[end] as number)) {
          best[end] = total;
          word[end] = id;
        }
      }
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; ) {
      const id = word[at] as number;
      reversed.push(id);
      at -= this.#lengths[id] as number;
    }
    const ids: number[] = [];
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i] as number;
      if (id === UNKNOWN && ids.length > 0 && ids[ids.length - 1] === UNKNOWN) continue;
      ids.push(id);
    }
    return ids;
  }
}
