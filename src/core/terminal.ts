/**
 * Terminal safety for stored text (issue 20, part 3). Two rules:
 *
 * - At the input edge, free text that is stored (fact text, entity, tags, ids, notes) may not hold NUL, C0
 *   controls other than tab and newline, DEL, or C1 controls (U+0080-U+009F): these drive a terminal
 *   (ESC sequences retitle or clear it, BEL rings, BS rewrites what was printed) and have no place in a memory.
 *   Nor the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) that make a line read
 *   differently from what it holds ("Trojan Source"). The bidi marks U+200E, U+200F and U+061C, which
 *   right-to-left text uses legitimately, are accepted (and escaped on output).
 * - At the output edge, every human-readable line the CLI prints passes through `escapeTerminal`, which
 *   shows those characters, and the bidi overrides, isolates and marks that reorder what a reader sees
 *   (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), as visible `\u001b`-style escapes. That also
 *   covers text an older database already holds. Tab and newline pass unchanged.
 *
 * The escape form is the one JSON uses (`\u` and four lower-case hex digits), so a value looks the same in
 * human and --json output. A backslash already in the text is not doubled: the output is for reading, and
 * --json stays the exact form.
 */

/** Characters refused in stored free text: C0 except tab (09) and newline (0a), DEL, C1, bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REFUSED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** Characters escaped in human output: the refused ones, plus bidi controls that reorder a line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The first refused control character in `s` and its index, or null when `s` is clean. */
export function findControl(s: string): { readonly index: number; readonly char: string } | null {
  const m = REFUSED.exec(s);
  return m ? { index: m.index, char: m[0] } : null;
}

/** `U+001B`: how a refused character is named in an error message. */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `s` with every control and bidi character shown as `\uXXXX`; tab and newline kept. */
export function escapeTerminal(s: string): string {
  return s.replace(ESCAPED, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
