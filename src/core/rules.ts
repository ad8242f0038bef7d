/**
 * Rules the spec leaves open, chosen here and documented in docs/memory.md ("Rules the spec leaves open").
 */
import type { DecayClass } from './types.js';
import { tokenize } from './text.js';

const DAY = 86_400_000;

export const LINK_RULES = Object.freeze({
  /** Strength of a brand-new link when the caller gives none. */
  defaultStrength: 0.5,
  /** Linking an already-linked pair (same type) moves strength this fraction of the way to 1. */
  relinkGain: 0.2,
  /** Facts returned together by one recall: each existing link between them gains this fraction. */
  coRecallGain: 0.05,
  /** A link is weak when its strength is below this... */
  weakBelow: 0.25,
  /** ...and it was not created or strengthened within this window. */
  weakAfterMs: 14 * DAY,
});

/** Move `s` a fraction `gain` of the way towards 1. */
export function reinforce(s: number, gain: number): number {
  return Math.min(1, s + (1 - s) * gain);
}

export function isWeakLink(l: { strength: number; createdAt: number; lastStrengthenedAt: number | null }, now: number): boolean {
  const last = Math.max(l.createdAt, l.lastStrengthenedAt ?? 0);
  return l.strength < LINK_RULES.weakBelow && now - last >= LINK_RULES.weakAfterMs;
}

/** A fact is stale when untouched (no update, no recall) for longer than its class allows, or too weak. */
export const STALE_AFTER_MS: Readonly<Record<DecayClass, number>> = Object.freeze({
  permanent: Number.POSITIVE_INFINITY,
  stable: 180 * DAY,
  episodic: 30 * DAY,
  volatile: 3 * DAY,
});
export const STALE_STRENGTH_BELOW = 0.1;

export function isStale(
  f: { pinned: boolean; decayClass: DecayClass; updatedAt: number; lastRecalledAt: number | null },
  strengthNow: number,
  now: number,
): boolean {
  if (f.pinned || f.decayClass === 'permanent') return false;
  const idle = now - Math.max(f.updatedAt, f.lastRecalledAt ?? 0);
  return idle > STALE_AFTER_MS[f.decayClass] || strengthNow < STALE_STRENGTH_BELOW;
}

/** A new episode starts when a session has been idle for this long. */
export const EPISODE_IDLE_GAP_MS = 30 * 60_000;

export const CONFLICT_RULES = Object.freeze({
  /** Word-set overlap (Jaccard) at or above which two facts on one entity are "about the same thing". */
  minOverlap: 0.5,
  /** A new fact opens conflicts with at most this many current facts: the closest ones. */
  maxPerFact: 3,
});

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'cannot', 'isnt', 'arent', 'wasnt', 'dont', 'doesnt', 'didnt', 'wont', 'without']);

/**
 * Does `newer` contradict `older`? Both must be about the same (non-empty) entity and category; then they
 * contradict when they say nearly the same words but differ: one negates what the other states, or they
 * give a different value (different numbers or different remaining words) for the same subject.
 * Identical texts (after normalisation) are duplicates, not contradictions. Returns the reason and the
 * word overlap (to pick the closest matches), or null.
 */
export function contradiction(
  newer: { text: string; entity: string | null; category: string },
  older: { text: string; entity: string | null; category: string },
): { reason: string; overlap: number } | null {
  if (!newer.entity || !older.entity) return null;
  if (newer.entity.trim().toLowerCase() !== older.entity.trim().toLowerCase()) return null;
  if (newer.category !== older.category) return null;
  const a = tokenize(newer.text.replace(/'/g, ''));
  const b = tokenize(older.text.replace(/'/g, ''));
  if (a.join(' ') === b.join(' ')) return null;
  const negA = a.some((w) => NEGATIONS.has(w));
  const negB = b.some((w) => NEGATIONS.has(w));
  const setA = new Set(a.filter((w) => !NEGATIONS.has(w)));
  const setB = new Set(b.filter((w) => !NEGATIONS.has(w)));
  let inter = 0;
  for (const w of setA) if (setB.has(w)) inter++;
  const union = setA.size + setB.size - inter;
  const overlap = union === 0 ? 0 : inter / union;
  const pct = Math.round(overlap * 100);
  if (negA !== negB && overlap >= CONFLICT_RULES.minOverlap) return { reason: `one negates the other (${pct}% same words)`, overlap };
  if (overlap >= CONFLICT_RULES.minOverlap && overlap < 1) return { reason: `same subject, different value (${pct}% same words)`, overlap };
  return null;
}
