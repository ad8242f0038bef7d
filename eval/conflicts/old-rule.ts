/**
 * The conflict rule as it was before issue 21 item 6 (word overlap within an entity and category), frozen
 * here so `npm run eval:conflicts` prints its numbers next to the current rule's.
 */
import { tokenize } from '../../src/core/text.js';

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'cannot', 'isnt', 'arent', 'wasnt', 'dont', 'doesnt', 'didnt', 'wont', 'without']);

/** Old rule: same entity and category, Jaccard word overlap >= 0.5 and not identical. */
export function oldContradiction(
  newer: { text: string; entity: string | null; category: string },
  older: { text: string; entity: string | null; category: string },
): { reason: string } | null {
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
  if (negA !== negB && overlap >= 0.5) return { reason: 'one negates the other' };
  if (overlap >= 0.5 && overlap < 1) return { reason: 'same subject, different value' };
  return null;
}
