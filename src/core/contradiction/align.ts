/**
 * Align two statements' content tokens (longest common subsequence on the comparable form) and return
 * where they differ: runs of tokens in one statement replaced by runs in the other (a run may be empty on
 * one side: an addition).
 */
import type { Token } from './tokens.js';

/** A content token and its index in the full token list (to place it before or after the verb). */
export interface Placed {
  readonly token: Token;
  readonly at: number;
}

/** One place where the statements differ, with the shared tokens right before it. */
export interface Region {
  readonly a: readonly Placed[];
  readonly b: readonly Placed[];
  /** The last shared token before this region (null at the start). */
  readonly before: Token | null;
}

/** Alignment of two statements. */
export interface Alignment {
  readonly regions: readonly Region[];
  /** How many content tokens both share. */
  readonly shared: number;
}

/**
 * Longest-common-subsequence alignment: O(n*m) for n and m content tokens, so callers bound the length
 * (facts are short; MAX_TOKENS in the rule).
 */
export function align(a: readonly Placed[], b: readonly Placed[]): Alignment {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as number[];
    const next = table[i + 1] as number[];
    for (let j = m - 1; j >= 0; j--) {
      row[j] = (a[i] as Placed).token.norm === (b[j] as Placed).token.norm ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const regions: Region[] = [];
  let ra: Placed[] = [];
  let rb: Placed[] = [];
  let before: Token | null = null;
  let shared = 0;
  const flush = (): void => {
    if (ra.length || rb.length) regions.push({ a: ra, b: rb, before });
    ra = [];
    rb = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && (a[i] as Placed).token.norm === (b[j] as Placed).token.norm) {
      flush();
      before = (a[i] as Placed).token;
      shared++;
      i++;
      j++;
    } else if (j >= m || (i < n && ((table[i + 1] as number[])[j] as number) >= ((table[i] as number[])[j + 1] as number))) {
      ra.push(a[i++] as Placed);
    } else {
      rb.push(b[j++] as Placed);
    }
  }
  flush();
  return { regions, shared };
}
