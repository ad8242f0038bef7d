/**
 * Where failure words do not mean a failure (precision): the line of a match is source code, grep output,
 * a test runner's listing or a documentation table, or the response is a rate limit served as 403.
 * Built-in patterns only; a configured pattern set is the user's own rule and is not second-guessed.
 */

/** Source code that mentions a status: `res.status(401)`, `it('returns 401')`, `expect(r.status).toBe(403)`. */
const CODE = new RegExp([
  String.raw`\b(?:res|resp|response|reply|ctx|w|c|r|rw|self|this|HttpResponse)\s?\.\s?(?:status|sendStatus|code|writeHead|WriteHeader|abort|status_code)\s?\(`,
  String.raw`\b(?:it|test|describe|context|specify|scenario|should|t\.Run|def test_\w*)\s?\(\s?['"\x60]`,
  String.raw`\bdef test_\w`,
  String.raw`\b(?:expect|assert\w*|assertEquals|should\.equal)\s?\(`,
  String.raw`\.(?:toBe|toEqual|toHaveStatus|toHaveBeenCalledWith|to\.equal)\s?\(`,
  String.raw`(?:===?|!==?|<=|>=|\w\s?[<>])\s?40[137]\b|\b40[137]\s?(?:===?|!==?)`,
  String.raw`\bcase\s+(?:40[137]|['"](?:unauthori[sz]ed|forbidden)['"])\s?:`,
  String.raw`\b(?:HttpStatus|HTTPStatus|StatusCodes?|http\.Status)\.?\w{0,20}(?:UNAUTHORIZED|FORBIDDEN|Unauthorized|Forbidden)`,
  String.raw`\b(?:throw new|raise|return|abort|HTTPException|createError)\s?\(?\s?\w{0,30}(?:Error|Exception)?\s?\(\s?40[137]`,
  String.raw`\b(?:const|let|var|val|final)\s+\w+\s?=`,
  String.raw`\bHTTP_40[137]_[A-Z_]+|\bstatus_code\s?=`,
  // A config/HCL assignment holding a string, as terraform plan prints it: Sid = "DenyDelete"  # AccessDenied ...
  String.raw`^\s*[+~-]?\s*[\w.-]{1,60} += +(?:"[^"\n]{0,200}"|\d{1,6}\s*$)`,
  // A keyword argument holding a message: detail="Authentication required",
  String.raw`^\s*\w{1,40}\s?=\s?["'][^"'\n]{0,200}["'],\s*$`,
].join('|'), 'i');
/** grep/ripgrep output: `src/auth.ts:12:` or `src/auth.ts-12-` at the start of the line. */
const GREP = /^\s{0,4}(?:\.{0,2}\/)?[\w.@-]{1,80}(?:\/[\w.@-]{1,80}){0,12}\.[a-z]{1,6}[:-]\d{1,6}[:-]/i;
/** A test runner's result line: `✓ returns 401 Unauthorized (3 ms)`, `PASS`, `ok 3 - ...`. */
const TEST_LINE = /^\s{0,12}(?:[✓✔√✗✘×○↓]|PASS\b|FAIL\b|ok \d+ |not ok \d+ |\[(?:PASS|FAIL|OK)\]|-\s\[[ x]\])|\(\d+(?:\.\d+)? ?m?s\)\s*$| › /;
/** A command line the text shows (`$ mosquitto_pub -m 'HTTP 401 ...'`): the command's words, not its output. */
const PROMPT_LINE = /^\s{0,4}(?:[$❯]|[\w.-]{1,32}@[\w.-]{1,64}:[^\s$#]{0,120}[$#]) /;
/** A documentation table row: `| 401 | invalid token |`. */
const TABLE = /^\s{0,4}\|.{1,400}\|\s*$|^\s{0,4}(?:[-*•+]|\d{1,2}\.)\s{1,3}[`*]{0,2}40[137]\b|^\s{0,3}#{1,6}\s/;
/** A markdown heading. */
const MD_HEADING = /(?:^|\n)#{1,6} \S/;
/** The start of a diff or one of its hunks. */
const DIFF_HEADER = /(?:^|\n)(?:diff --git |@@ -\d|--- a\/|\+\+\+ b\/)/;
/** A rate limit, whatever status carries it. */
const RATE_LIMIT = /rate[ _-]?limit(?:ed|ing)?\b|\bToo Many Requests\b|\bx-ratelimit-remaining:\s?0\b|\bRateLimitExceeded\b|\bSlowDown\b|\bquota exceeded\b/i;

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  const end = nl < 0 ? text.length : nl;
  return text.slice(Math.max(start, index - 400), Math.min(end, index + 400));
}

/** True when the match is quoted as inline code (`` `401 Unauthorized` `` in a changelog or a README). */
function inBackticks(text: string, index: number, length: number): boolean {
  const before = text.slice(Math.max(0, index - 40), index);
  const open = before.lastIndexOf('`');
  if (open < 0 || before.slice(open).includes('\n')) return false;
  const close = text.indexOf('`', index + length);
  return close >= 0 && close - (index + length) <= 40 && !text.slice(index + length, close).includes('\n');
}

/** True when the match at `index` sits in code, grep output, a test listing, a docs table or inline code quotes. */
export function inCodeOrListing(text: string, index: number, length = 0): boolean {
  if (inBackticks(text, index, length)) return true;
  const line = lineAt(text, index);
  // A list item of a markdown document (a changelog, a README) quotes messages, it does not print them.
  if (/^\s{0,4}[-*+] /.test(line) && MD_HEADING.test(text.slice(Math.max(0, index - 4000), index))) return true;
  // A line a diff adds or removes is source being changed (`git diff`, a patch).
  if (/^[+-](?![+-])/.test(line) && DIFF_HEADER.test(text.slice(Math.max(0, index - 4000), index))) return true;
  return GREP.test(line) || PROMPT_LINE.test(line) || TABLE.test(line) || TEST_LINE.test(line) || CODE.test(line);
}

/** True when a 403/Forbidden answer is a rate limit (GitHub's "API rate limit exceeded", "secondary rate limit"). */
export function isRateLimit(text: string, index: number, match: string): boolean {
  if (!/403|forbidden/i.test(match)) return false;
  return RATE_LIMIT.test(text.slice(Math.max(0, index - 600), index + 600));
}
