/**
 * How recall ranks dialogue turns beyond their words (issue 18): a reply carries its question's match, and
 * a turn spoken by someone the query names counts for more.
 *
 * A reply carries its question's full-text match. In a stored conversation the turn whose words
 * match a question ("What present did Callum give Ada?" matches "How was Ada's birthday?") is often not the
 * one that answers it: the answer is the next turn or the one after ("She loves it. The microscope hasn't
 * left her hands."). The vector leg already embeds a turn with the turn before it (src/core/embed-text.ts);
 * this is the full-text leg's counterpart, at query time: each of the leg's best dialogue turns lends the
 * turns that follow it in the same exchange a share of its bm25, and a turn that is itself a question keeps
 * only a share of its own (it asks, its reply answers). Notes are not dialogue and are left as they are.
 *
 * Tuned on the dev split of eval/recall (the chat sets; agent and tech notes do not move): hybrid R@5 on
 * chat 0.667 -> 0.704, MRR 0.562 -> 0.599. Flat around the chosen values (next turn 0.8-1.0, the one
 * after 0.5-0.7, questions 0.4-0.6, the best 15-30 turns).
 */
import { tokenize } from './text.js';

/**
 * A turn spoken by someone the query names ("What did Hana ..." and "Hana: ...") has its score multiplied
 * by this. A speaker's name is in most of a conversation's turns, so its words weigh next to nothing in
 * bm25, yet a question about a person is mostly answered by that person. Tuned on the dev split of
 * eval/recall (chat R@5 0.704 -> 0.726, MRR 0.599 -> 0.613; 1.2-2 all helped, flat from 1.5).
 */
export const SPEAKER_NAMED_WEIGHT = 1.5;

/** Whether the query's words (tokenized: src/core/text.ts) name who speaks this turn (any word of the name). */
export function speakerNamed(queryWords: ReadonlySet<string>, speaker: string | null): boolean {
  return speaker !== null && tokenize(speaker).some((w) => w.length > 1 && queryWords.has(w));
}

/** The share of a turn's bm25 the next turn and the one after it get. */
export const REPLY_CARRY = [0.9, 0.6] as const;

/** The share of its own bm25 a question turn keeps. */
export const QUESTION_SHARE = 0.5;

/** How many of the full-text leg's best hits lend to their replies. */
export const CARRY_DEPTH = 20;

/** A turn that asks: it ends with a question mark. */
export function isQuestion(text: string): boolean {
  return /\?[\s!?"')\]]*$/u.test(text);
}

export interface Relevant<T> {
  readonly item: T;
  /** bm25 relevance, higher is better. */
  readonly relevance: number;
}

export interface Carried<T> extends Relevant<T> {
  /** The turn whose match this one carries (its own words matched less, or not at all), else null. */
  readonly from: T | null;
}

/**
 * The full-text leg with replies carried: `replies(hit)` gives the dialogue turns that follow a dialogue
 * hit in its exchange, in order (at most REPLY_CARRY.length; [] for a note). Sorted by relevance, best
 * first; ties keep the leg's order.
 */
export function carryToReplies<T>(
  hits: readonly Relevant<T>[],
  key: (item: T) => string,
  replies: (hit: T) => readonly T[],
  isTurn: (item: T) => boolean,
  text: (item: T) => string,
): Carried<T>[] {
  const out = new Map<string, { item: T; relevance: number; from: T | null; order: number }>();
  hits.forEach((h, i) => {
    const own = isTurn(h.item) && isQuestion(text(h.item)) ? h.relevance * QUESTION_SHARE : h.relevance;
    out.set(key(h.item), { item: h.item, relevance: own, from: null, order: i });
  });
  hits.slice(0, CARRY_DEPTH).forEach((h, i) => {
    if (!isTurn(h.item)) return;
    replies(h.item).forEach((reply, d) => {
      const carried = h.relevance * (REPLY_CARRY[d] ?? 0);
      const k = key(reply);
      const cur = out.get(k);
      if (!cur) out.set(k, { item: reply, relevance: carried, from: h.item, order: hits.length + i * REPLY_CARRY.length + d });
      else if (carried > cur.relevance) Object.assign(cur, { relevance: carried, from: h.item });
    });
  });
  return [...out.values()].sort((a, b) => b.relevance - a.relevance || a.order - b.order).map(({ item, relevance, from }) => ({ item, relevance, from }));
}
