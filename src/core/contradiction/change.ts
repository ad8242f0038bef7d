/**
 * Changes told as changes: "We switched the app database from Postgres 13 to Postgres 16" against "The
 * app database is Postgres 13", or "We moved production deploys to Thursdays" against "We deploy to
 * production on Tuesdays". The statements are worded differently, so the one-replaced-run test does not
 * apply; the evidence is a change verb with "to <value>" in one, a different value of that kind in the
 * other (the "from" value when one is given), and the same subject words in both.
 */
import { porterStem } from '../porter.js';
import { valueLabel } from './evidence.js';
import type { Token } from './tokens.js';

const CHANGE = new Set(['move', 'switch', 'change', 'migrate', 'upgrade', 'downgrade', 'push', 'postpone', 'reschedule', 'bump', 'replace', 'update', 'shift', 'delay', 'raise', 'lower', 'increase', 'reduce', 'rename'].map(porterStem));
/** Shared content words needed beyond the values: the statements must be about the same thing. */
const MIN_SHARED = 2;

interface Change {
  readonly to: Token;
  readonly from: Token | null;
}

function changeIn(ts: readonly Token[]): Change | null {
  const verb = ts.findIndex((t) => t.kind === 'word' && CHANGE.has(t.norm));
  if (verb < 0) return null;
  const valueAfter = (word: string): Token | null => {
    for (let i = verb + 1; i < ts.length - 1; i++) {
      if ((ts[i] as Token).norm !== word) continue;
      const v = ts.slice(i + 1, i + 4).find((t) => t.kind !== 'word');
      if (v) return v;
    }
    return null;
  };
  const to = valueAfter('to');
  return to ? { to, from: valueAfter('from') } : null;
}

function sharedWords(x: readonly Token[], y: readonly Token[]): number {
  const words = (ts: readonly Token[]): Set<string> => new Set(ts.filter((t) => !t.stop && t.kind === 'word' && !CHANGE.has(t.norm)).map((t) => t.norm));
  const wy = words(y);
  return [...words(x)].filter((w) => wy.has(w)).length;
}

/** One side states a change to a value the other contradicts: the evidence (older value first), or null. */
export function changedValue(older: readonly Token[], newer: readonly Token[]): string | null {
  for (const [changed, other, changedIsNewer] of [[newer, older, true], [older, newer, false]] as const) {
    const c = changeIn(changed);
    if (!c || changeIn(other) || sharedWords(changed, other) < MIN_SHARED) continue;
    const values = other.filter((t) => t.kind === c.to.kind);
    if (values.length !== 1 || values.some((v) => v.norm === c.to.norm)) continue;
    const v = values[0] as Token;
    if (c.from && c.from.norm !== v.norm) continue;
    const before = other[other.indexOf(v) - 1] ?? null;
    const [o, n] = changedIsNewer ? [v, c.to] : [c.to, v];
    return `${valueLabel(o, n, before)}${o.raw} vs ${n.raw} (the ${changedIsNewer ? 'newer' : 'older'} fact says it changed)`;
  }
  return null;
}
