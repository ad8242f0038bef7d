/**
 * A small parser for (syntactically valid, non-unicode) regex sources: just enough structure for the
 * backtracking checks in regex-safety.ts: single-character atoms as ASCII sets, groups with their
 * alternatives, and repetitions with their bounds. Lookarounds become zero-width repeats {0,0} so their
 * bodies are still checked; anchors, \b and backreferences are zero-width or "any character".
 */

/** Characters a single-character atom can match: 128 ASCII flags plus one flag for everything else. */
export type CharSet = boolean[];

export type Node =
  | { readonly t: 'char'; readonly set: CharSet }
  | { readonly t: 'group'; readonly alts: Node[][] }
  | { readonly t: 'repeat'; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: 'empty' };

const OTHER = 128;

export function emptySet(): CharSet {
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
export function overlaps(a: CharSet, b: CharSet): boolean {
  for (let i = 0; i <= OTHER; i++) if (a[i] && b[i]) return true;
  return false;
}
export function union(a: CharSet, b: CharSet): CharSet {
  return a.map((v, i) => v || Boolean(b[i]));
}

/** Parses a (syntactically valid) non-unicode regex source into the small tree the checks need. */
export class Parser {
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

