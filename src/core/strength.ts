/**
 * Strength score and decay, pure functions.
 *
 *   strength = clamp01( importance x recency x confidence + pinnedBoost + recallBoost )
 *
 * - recency = 0.5 ^ (age / halfLife(decayClass)), where age runs from the fact's last activity
 *   (last recall, else last update). Permanent facts and pinned facts have recency 1: decay is frozen.
 * - pinnedBoost keeps a pinned fact central whatever its importance.
 * - recallBoost grows with the logarithm of the recall count and is capped, so a fact recalled often
 *   resists decay but cannot outrank an important one on frequency alone.
 */
import type { DecayClass } from './types.js';

const DAY = 86_400_000;

/** Half-life of recency per decay class, in milliseconds. Infinity = never decays. */
export const HALF_LIFE_MS: Readonly<Record<DecayClass, number>> = Object.freeze({
  permanent: Number.POSITIVE_INFINITY,
  stable: 180 * DAY,
  episodic: 30 * DAY,
  volatile: 3 * DAY,
});

export const STRENGTH = Object.freeze({
  /** Added to a pinned fact's score. */
  pinnedBoost: 0.3,
  /** recallBoost = min(recallBoostCap, recallBoostPerDoubling x log2(1 + recallCount)). */
  recallBoostPerDoubling: 0.04,
  recallBoostCap: 0.2,
  /** Maintenance ends (as "decayed") a non-pinned episodic or volatile fact whose strength falls below this. */
  forgetBelow: 0.02,
});

export interface StrengthInput {
  readonly importance: number;
  readonly confidence: number;
  readonly decayClass: DecayClass;
  readonly pinned: boolean;
  readonly recallCount: number;
  readonly updatedAt: number;
  readonly lastRecalledAt: number | null;
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Time of the fact's last activity: decay is measured from here. */
export function lastActivity(f: Pick<StrengthInput, 'updatedAt' | 'lastRecalledAt'>): number {
  return Math.max(f.updatedAt, f.lastRecalledAt ?? 0);
}

/** Recency factor in [0, 1]. */
export function recency(f: Pick<StrengthInput, 'decayClass' | 'pinned' | 'updatedAt' | 'lastRecalledAt'>, now: number): number {
  if (f.pinned) return 1;
  const halfLife = HALF_LIFE_MS[f.decayClass];
  if (!Number.isFinite(halfLife)) return 1;
  const age = Math.max(0, now - lastActivity(f));
  return Math.pow(0.5, age / halfLife);
}

export function recallBoost(recallCount: number): number {
  return Math.min(STRENGTH.recallBoostCap, STRENGTH.recallBoostPerDoubling * Math.log2(1 + Math.max(0, recallCount)));
}

export function strength(f: StrengthInput, now: number): number {
  const base = clamp01(f.importance) * recency(f, now) * clamp01(f.confidence);
  return clamp01(base + (f.pinned ? STRENGTH.pinnedBoost : 0) + recallBoost(f.recallCount));
}

/** Whether maintenance should end this fact as decayed. Pinned, permanent and stable facts never are. */
export function isForgotten(f: StrengthInput, now: number): boolean {
  if (f.pinned || f.decayClass === 'permanent' || f.decayClass === 'stable') return false;
  return strength(f, now) < STRENGTH.forgetBelow;
}
