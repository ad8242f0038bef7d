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

/** Characters a single-character atom can match: 128 ASCII flags plus one flag for everything else. */
type CharSet = boolean[];

type Node =
  | { readonly t: 'char'; readonly set: CharSet }
  | { readonly t: 'group'; readonly alts: Node[][] }
  | { readonly t: 'repeat'; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: 'empty' };

const OTHER = 128;

function emptySet(): CharSet {
  return new Array<boolean>(129).fill(false);
}
function fullSet(): CharSet {
  return new Array<boolean>(129).fill(true);
}
function addRange(set: CharSet, from: number, to: number): void {
  for (let c = from; c <= to; c++) {
    if (c >= 128) set[OTHER] = true;
    else set[c] = true;
  }
  if (to >= 128) set[OTHER] = true;
}
function addCaseless(set: CharSet, code: number): void {
  if (code >= 128) { set[OTHER] = true; return; }
  set[code] = true;
  const ch = String.fromCharCode(code);
  set[ch.toLowerCase().charCodeAt(0)] = true;
  set[ch.toUpperCase().charCodeAt(0)] = true;
}
function classSet(letter: string): CharSet {
  const s = emptySet();
  const lower = letter.toLowerCase();
  if (lower === 'd') addRange(s, 48, 57);
  else if (lower === 'w') { addRange(s, 48, 57); addRange(s, 65, 90); addRange(s, 97, 122); s[95] = true; }
  else { for (const c of [9, 10, 11, 12, 13, 32]) s[c] = true; s[OTHER] = true; }
  return letter === lower ? s : invert(s);
}
/** Complement over ASCII; non-ASCII stays possible (a negated ASCII class matches most of Unicode). */
function invert(set: CharSet): CharSet {
  const out = set.map((v) => !v);
  out[OTHER] = true;
  return out;
}
function overlaps(a: CharSet, b: CharSet): boolean {
  for (let i = 0; i <= OTHER; i++) if (a[i] && b[i]) return true;
  return false;
}
function union(a: CharSet, b: CharSet): CharSet {
  return a.map((v, i) => v || Boolean(b[i]));
}

/** Parses a (syntactically valid) non-unicode regex source into the small tree the checks need. */
class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    return this.alternation();
  }

  private alternation(): Node {
    const alts: Node[][] = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return { t: 'group', alts };
  }

  private sequence(): Node[] {
    const seq: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.atom();
      seq.push(this.quantified(atom));
    }
    return seq;
  }

  private quantified(atom: Node): Node {
    const c = this.src[this.i];
    let min = -1;
    let max = -1;
    if (c === '*') { min = 0; max = Infinity; this.i++; }
    else if (c === '+') { min = 1; max = Infinity; this.i++; }
    else if (c === '?') { min = 0; max = 1; this.i++; }
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (m) {
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' || m[3] === undefined ? Infinity : Number(m[3]);
        this.i += m[0].length;
      }
    }
    if (min < 0) return atom;
    if (this.src[this.i] === '?') this.i++; // lazy: same backtracking risk
    return { t: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
    const c = this.src[this.i++] ?? '';
    if (c === '(') {
      if (this.src[this.i] === '?') {
        const m = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(this.src.slice(this.i));
        if (m) this.i += m[0].length;
        const lookaround = m !== null && /^\?(?:=|!|<=|<!)$/.test(m[0]);
        const inner = this.alternation();
        this.i++; // ')'
        // A lookaround is zero-width for its neighbours, but its own body is still checked.
        return lookaround ? { t: 'repeat', node: inner, min: 0, max: 0 } : inner;
      }
      const inner = this.alternation();
      this.i++;
      return inner;
    }
    if (c === '^' || c === '$') return { t: 'empty' };
    if (c === '.') { const s = fullSet(); s[10] = false; s[13] = false; return { t: 'char', set: s }; }
    if (c === '[') return { t: 'char', set: this.charClass() };
    if (c === '\\') return this.escape(false) ?? { t: 'empty' };
    const s = emptySet();
    addCaseless(s, c.charCodeAt(0));
    return { t: 'char', set: s };
  }

  /** Reads an escape after the backslash; returns null for zero-width ones (\b, \B, backreferences). */
  private escape(inClass: boolean): { t: 'char'; set: CharSet } | null {
    const c = this.src[this.i++] ?? '';
    if (/[dDwWsS]/.test(c)) return { t: 'char', set: classSet(c) };
    if (!inClass && (c === 'b' || c === 'B')) return null;
    if (!inClass && /[1-9]/.test(c)) { while (/\d/.test(this.src[this.i] ?? '')) this.i++; return { t: 'char', set: fullSet() }; }
    if (!inClass && c === 'k' && this.src[this.i] === '<') { this.i = this.src.indexOf('>', this.i) + 1; return { t: 'char', set: fullSet() }; }
    const s = emptySet();
    const hex = c === 'x' ? /^[0-9a-f]{2}/i.exec(this.src.slice(this.i)) : c === 'u' ? /^[0-9a-f]{4}/i.exec(this.src.slice(this.i)) : null;
    if (hex) { this.i += hex[0].length; addCaseless(s, parseInt(hex[0], 16)); return { t: 'char', set: s }; }
    if (c === 'c' && /[A-Za-z]/.test(this.src[this.i] ?? '')) { this.i++; return { t: 'char', set: fullSet() }; }
    const controls: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, '0': 0 };
    addCaseless(s, controls[c] ?? c.charCodeAt(0));
    return { t: 'char', set: s };
  }

  private charClass(): CharSet {
    let set = emptySet();
    let negate = false;
    if (this.src[this.i] === '^') { negate = true; this.i++; }
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      let lo: number;
      if (this.src[this.i] === '\\') {
        this.i++;
        const isClass = /[dDwWsS]/.test(this.src[this.i] ?? '');
        const e = this.escape(true);
        if (!e) continue;
        if (isClass) { set = union(set, e.set); continue; }
        lo = e.set.findIndex(Boolean);
      } else {
        lo = this.src.charCodeAt(this.i++);
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let hi: number;
        if (this.src[this.i] === '\\') { this.i++; const e = this.escape(true); hi = e ? e.set.findIndex(Boolean) : lo; }
        else hi = this.src.charCodeAt(this.i++);
        const range = emptySet();
        addRange(range, lo, Math.max(lo, hi));
        for (let k = 0; k < 128; k++) if (range[k]) addCaseless(range, k);
        set = union(set, range);
      } else {
        addCaseless(set, lo);
      }
    }
    this.i++; // ']'
    return negate ? invert(set) : set;
  }
}

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
