/**
 * A static check that refuses regular expressions at risk of catastrophic backtracking, run on custom
 * auth-failure patterns at config load. JavaScript's regex engine backtracks, and `^(a+)+$` took 17 s on
 * 29 characters in our tests: no turn budget survives that, and a running regex cannot be interrupted on
 * the calling thread. So the risky shapes are refused before they ever run.
 *
 * Refused (see src/core/auth/README.md):
 *  1. nested quantifiers: a repeated group (`+`, `*`, `{n,}`, `{n,m}` with m > 1) that contains an
 *     unbounded quantifier: `(a+)+`, `(a*)*`, `(.*a){20}`, `(\w+\s?)+`;
 *  2. a repeated group whose alternatives can start with the same character: `(a|a)*`, `(a|aa)+`,
 *     `(\w|\d)+`;
 *  3. two adjacent unbounded quantifiers over overlapping characters: `.*.*`, `\s*\s+`, `\w+\d+`
 *     (polynomial, but cubic at 64 KB is still minutes).
 * The check is conservative: a few safe shapes (`(\w+\.)+com`) are refused too; the message says how
 * to rewrite them. ASCII is modelled exactly; any non-ASCII character counts as overlapping.
 */

import { emptySet, overlaps, Parser, union, type CharSet, type Node } from './regex-parse.js';

function nullable(n: Node): boolean {
  if (n.t === 'empty') return true;
  if (n.t === 'char') return false;
  if (n.t === 'repeat') return n.min === 0 || nullable(n.node);
  return n.alts.some((seq) => seq.every(nullable));
}

function first(n: Node): CharSet {
  if (n.t === 'empty') return emptySet();
  if (n.t === 'char') return n.set;
  if (n.t === 'repeat') return n.max === 0 ? emptySet() : first(n.node);
  let out = emptySet();
  for (const seq of n.alts) {
    for (const item of seq) {
      out = union(out, first(item));
      if (!nullable(item)) break;
    }
  }
  return out;
}

function hasUnbounded(n: Node): boolean {
  if (n.t === 'repeat') return n.max === Infinity || hasUnbounded(n.node);
  if (n.t === 'group') return n.alts.some((seq) => seq.some(hasUnbounded));
  return false;
}

/** Why a pattern is refused, or null when it passes. */
export function backtrackingRisk(source: string): string | null {
  const tree = new Parser(source).parse();
  return walk(tree);
}

function walk(n: Node): string | null {
  if (n.t === 'repeat') {
    if (n.max > 1 && hasUnbounded(n.node)) {
      return 'it nests a quantifier inside a repeated group (like (a+)+ or (.*x){5}), which can backtrack exponentially';
    }
    if (n.max > 1 && n.node.t === 'group' && n.node.alts.length > 1) {
      const firsts = n.node.alts.map((seq) => first({ t: 'group', alts: [seq] }));
      for (let a = 0; a < firsts.length; a++) {
        for (let b = a + 1; b < firsts.length; b++) {
          if (overlaps(firsts[a] as CharSet, firsts[b] as CharSet)) {
            return 'it repeats a group whose alternatives can match the same text (like (a|aa)+), which can backtrack exponentially';
          }
        }
      }
    }
    return walk(n.node);
  }
  if (n.t === 'group') {
    for (const seq of n.alts) {
      for (let k = 0; k < seq.length; k++) {
        const cur = seq[k] as Node;
        const next = seq[k + 1];
        if (next && cur.t === 'repeat' && next.t === 'repeat' && cur.max === Infinity && next.max === Infinity
          && cur.node.t === 'char' && next.node.t === 'char' && overlaps(cur.node.set, next.node.set)) {
          return 'it has two adjacent unbounded quantifiers over the same characters (like .*.* or \\w+\\d+), which backtracks polynomially';
        }
        const inner = walk(cur);
        if (inner) return inner;
      }
    }
  }
  return null;
}
