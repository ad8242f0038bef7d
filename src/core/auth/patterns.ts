/**
 * Authentication-failure detection: the built-in pattern set, the calling-thread prefilter, the bounded
 * scan, and compilation of configured patterns. Pure: no I/O.
 */
import { MemoryError } from '../errors.js';
import { BUILTIN_PATTERN_LIST, type AuthPattern } from './patterns-builtin.js';
import { backtrackingRisk } from './regex-safety.js';
import { inCodeOrListing, isRateLimit } from './veto.js';

export type { AuthPattern } from './patterns-builtin.js';

/** The built-in set (spec indicators plus real tools' wordings); see src/core/auth/README.md. */
export const BUILTIN_PATTERNS: readonly AuthPattern[] = BUILTIN_PATTERN_LIST;

/**
 * How much of a text one scan looks at: the LAST 64 KB (65,536 UTF-16 code units). Failures sit at the
 * end of tool output (the command's last words), and the bound keeps every scan linear in a fixed size
 * however large a pasted log is, so no turn waits on a scan.
 */
export const MAX_SCAN_CHARS = 65_536;

function escapeRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// One alternation of plain literals: V8 compiles it to a linear scan with no backtracking blowup (no
// quantifiers at all), so a 100 KB turn with no candidate passes in microseconds. Numeric anchors (401,
// 403, 407, 530, 535) are left out of it: those numbers fill ordinary output ("401 bytes", "403 ms"), and
// letting every such turn through would send it to the recall worker. Instead, when one of them occurs,
// the few patterns that carry a numeric anchor run here directly (they are precise and linear).
const NUMERIC = /^\d+$/;
const LITERAL_ANCHORS = [...new Set(BUILTIN_PATTERN_LIST.flatMap((pat) => pat.anchors.filter((a) => !NUMERIC.test(a))))];
const NUMERIC_ANCHORS = [...new Set(BUILTIN_PATTERN_LIST.flatMap((pat) => pat.anchors.filter((a) => NUMERIC.test(a))))];
const PREFILTER = new RegExp(
  LITERAL_ANCHORS.sort((a, b) => b.length - a.length)
    .map(escapeRegex)
    .join('|'),
  'i',
);
const NUMERIC_PREFILTER = new RegExp(NUMERIC_ANCHORS.map(escapeRegex).join('|'));
// The numeric-anchored patterns as ONE regex (all are case-insensitive, none uses ^ or $), one pass.
const NUMERIC_PATTERNS = new RegExp(
  BUILTIN_PATTERN_LIST.filter((pat) => pat.anchors.some((a) => NUMERIC.test(a)))
    .map((pat) => `(?:${(pat.numeric ?? pat.regex).source})`)
    .join('|'),
  'i',
);

/**
 * Cheap test on the calling thread: false means the text certainly holds no BUILT-IN failure indicator
 * (every built-in pattern requires one of the prefilter's literals, and a numeric literal is confirmed by
 * its pattern). True means "run detect". Custom pattern sets cannot be prefiltered this way; callers with
 * custom patterns run `detect` directly.
 */
export function prefilter(text: string): boolean {
  const window = scanWindow(text).text;
  if (PREFILTER.test(window)) return true;
  return NUMERIC_PREFILTER.test(window) && NUMERIC_PATTERNS.test(window);
}

/** One detected failure: which pattern, the matched text and its index in the ORIGINAL text. */
export interface Detection {
  readonly patternId: string;
  readonly family: string;
  readonly match: string;
  readonly index: number;
}

function scanWindow(text: string): { text: string; offset: number } {
  if (text.length <= MAX_SCAN_CHARS) return { text, offset: 0 };
  const offset = text.length - MAX_SCAN_CHARS;
  return { text: text.slice(offset), offset };
}

/** A built-in pattern's regex with the `g` flag, to step past matches a veto refuses. */
const GLOBAL = new WeakMap<RegExp, RegExp>();
const BUILTIN_IDS = new Set(BUILTIN_PATTERN_LIST.map((pat) => pat.id));
/** How many vetoed matches of one pattern are stepped over before it gives up on a text. */
const MAX_VETOED = 32;

function globalOf(re: RegExp): RegExp {
  let g = GLOBAL.get(re);
  if (!g) {
    g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    GLOBAL.set(re, g);
  }
  return g;
}

/** The first match of a built-in pattern that is not in code, a listing, a docs table or a rate limit. */
function firstMeant(re: RegExp, text: string): RegExpExecArray | null {
  const g = globalOf(re);
  g.lastIndex = 0;
  for (let n = 0; n < MAX_VETOED; n++) {
    const m = g.exec(text);
    if (!m) return null;
    if (m[0] === '') g.lastIndex++;
    if (!inCodeOrListing(text, m.index, m[0].length) && !isRateLimit(text, m.index, m[0])) return m;
  }
  return null;
}

/**
 * The earliest match of any pattern in the last MAX_SCAN_CHARS of `text` (ties: the pattern listed
 * first), or null. Built-in patterns skip matches in source code, grep output, test listings, docs tables
 * and rate limits (veto.ts); configured patterns are taken as written. Patterns carrying the `g` or `y`
 * flag are run from index 0 and left reset.
 */
export function detect(text: string, patterns: readonly AuthPattern[]): Detection | null {
  const { text: window, offset } = scanWindow(text);
  let best: Detection | null = null;
  for (const pat of patterns) {
    const re = pat.regex;
    let m: RegExpExecArray | null;
    if (BUILTIN_IDS.has(pat.id) && pat.family !== 'custom') {
      m = firstMeant(re, window);
    } else {
      const stateful = re.global || re.sticky;
      if (stateful) re.lastIndex = 0;
      m = re.exec(window);
      if (stateful) re.lastIndex = 0;
    }
    if (!m) continue;
    if (best === null || m.index + offset < best.index) {
      best = { patternId: pat.id, family: pat.family, match: m[0], index: m.index + offset };
      if (m.index === 0) break;
    }
  }
  return best;
}

const PATTERNS_KEY = 'plugins.entries.hybrid-mem.config.autoRecall.authFailure.patterns';

/**
 * Compiles configured patterns (case-insensitive, ids `custom-<index>`, family `custom`). Refuses, with
 * MEM_ERR_CONFIG_INVALID naming `...authFailure.patterns.<index>`, a pattern that does not parse or that
 * risks catastrophic backtracking (regex-safety.ts lists the refused shapes).
 */
export function compileCustomPatterns(sources: readonly string[]): AuthPattern[] {
  return sources.map((source, index) => {
    const path = `${PATTERNS_KEY}.${index}`;
    let regex: RegExp;
    try {
      regex = new RegExp(source, 'i');
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new MemoryError('MEM_ERR_CONFIG_INVALID',
        `${path}: expected a JavaScript regular expression, received ${JSON.stringify(source)} (${why}). Escape special characters such as ( [ * + ? with a backslash to match them literally.`,
        { details: { path, expected: 'a valid regular expression', received: source }, cause: err });
    }
    const risk = backtrackingRisk(source);
    if (risk !== null) {
      throw new MemoryError('MEM_ERR_CONFIG_INVALID',
        `${path}: refused ${JSON.stringify(source)} because ${risk} and could stall an agent turn. Rewrite it without repeating a quantified group: e.g. "(a+)+" -> "a+", "(\\w+\\s?)+" -> "[\\w\\s]+", "(a|aa)+" -> "a+", ".*.*x" -> ".*x"; a bounded gap such as ".{0,80}" between literal words is always accepted.`,
        { details: { path, expected: 'a regular expression without nested or overlapping quantifiers', received: source } });
    }
    return Object.freeze({ id: `custom-${index}`, family: 'custom', regex });
  });
}
