/**
 * Rules the spec leaves open, chosen here and documented in docs/memory.md ("Rules the spec leaves open").
 */
import type { DecayClass } from './types.js';

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
  /** A new fact opens conflicts with at most this many current facts: the closest ones. */
  maxPerFact: 3,
});

/** Whether a new fact contradicts a current one, and the evidence: see src/core/contradiction/rule.ts. */
export { contradiction, type Contradiction, type Statement } from './contradiction/rule.js';
