/** How facts and links look: colour by category, size and ring by strength, width by link strength. */
import type { Category } from '../lib/types';

export const CATEGORY_COLORS: Readonly<Record<Category, string>> = {
  preference: '#e377c2',
  decision: '#ff7f0e',
  entity: '#2ca02c',
  fact: '#1f77b4',
  other: '#8c8c8c',
  technical: '#9467bd',
};

/** Radius of the ring a fact settles on: strong facts are central. */
export const ringOf = (strength: number): number => 40 + 460 * (1 - Math.max(0, Math.min(1, strength)));
/** Drawn node radius. */
export const sizeOf = (strength: number): number => 3 + 9 * Math.max(0, Math.min(1, strength));
export const edgeWidth = (strength: number): number => 0.4 + 2.6 * Math.max(0, Math.min(1, strength));
