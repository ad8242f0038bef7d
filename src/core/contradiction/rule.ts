/**
 * The contradiction rule (issue 21 item 6): two current facts on one entity and category contradict only
 * when there is evidence they disagree, not merely shared words:
 *
 * - negation: the same statement, once affirmed and once negated ("is" / "is not", "no longer", "never",
 *   "stopped", or an antonym such as enabled / disabled);
 * - a different value for the same attribute: both statements match except for one replaced run after the
 *   verb, and that run holds a value (number, version, amount, host, IP, port, path, date, time, day,
 *   e-mail, URL, or a name).
 *
 * Not contradictions: templated siblings (the replaced run is the subject: "web-1" vs "web-2"), several
 * replaced runs (different subject and value, or a different attribute), additions (one statement says
 * more), restatements (no replaced value; the store dedupes identical text), and negated statements about
 * different values ("not on Solr" vs "on Elasticsearch"). Measured by `npm run eval:conflicts`.
 */
import { align, type Placed, type Region } from './align.js';
import { changedValue } from './change.js';
import { describe } from './evidence.js';
import { statementTokens, type Token } from './tokens.js';

/** The facts the rule compares. */
export interface Statement {
  readonly text: string;
  readonly entity: string | null;
  readonly category: string;
}

/** A contradiction: the evidence in words, and the share of content words both facts use (to rank). */
export interface Contradiction {
  readonly reason: string;
  readonly overlap: number;
}

/** Longer facts are not compared word by word (the alignment is quadratic; such facts are notes, not values). */
export const MAX_TOKENS = 80;

const NEGATORS = new Set(['not', 'no', 'never', 'none', 'cannot', 'isnt', 'arent', 'wasnt', 'werent', 'dont', 'doesnt', 'didnt', 'wont', 'cant', 'nor', 'neither']);
/** Verbs that say a thing ended: "stopped eating fish", "cancelled Spotify". */
const CEASE = new Set(['stop', 'quit', 'cancel', 'discontinu', 'anymor', 'drop', 'abandon']);
/** Words a negated restatement may add without changing the statement ("no longer ... since last year"). */
const WHEN = new Set(['longer', 'last', 'year', 'month', 'week', 'ago', 'now', 'current', 'recent', 'sinc', 'todai', 'yesterdai']);
const ANTONYMS: readonly (readonly [string, string])[] = [
  ['enabled', 'disabled'], ['enable', 'disable'], ['open', 'closed'], ['allowed', 'forbidden'], ['allowed', 'prohibited'],
  ['allowed', 'disallowed'], ['true', 'false'], ['yes', 'no'], ['available', 'unavailable'], ['active', 'inactive'], ['required', 'optional'],
  ['public', 'private'], ['supported', 'unsupported'], ['online', 'offline'], ['visible', 'hidden'], ['included', 'excluded'], ['allow', 'deny'],
];
/** Verbs after which two different objects can both hold ("likes Python" and "likes Rust"). */
const MANY = new Set(['like', 'love', 'enjoi', 'speak', 'know', 'visit', 'read', 'watch', 'plai', 'own', 'collect', 'also']);
/** Verbs and auxiliaries that end the subject: a replaced run before one of these is the subject. */
const VERBS = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'must', 'will', 'can', 'should', 'may', 'might', 'need', 'needs', 'does', 'do', 'did', 'shall', 'would', 'could']);

const isNegator = (t: Token): boolean => t.kind === 'word' && (NEGATORS.has(t.norm) || CEASE.has(t.norm));
const negated = (ts: readonly Token[]): boolean => ts.some(isNegator);

const PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it']);

/**
 * Index of the first verb-like token: the end of the subject. After a pronoun the next word is the verb;
 * otherwise an auxiliary, a negator, or a word ending in -s/-ed that is not a name and does not follow a
 * number ("2 spaces" is a unit). Without one, the subject is the first content word.
 */
function verbAt(ts: readonly Token[]): { at: number; found: boolean } {
  const first = ts.findIndex((t) => !t.stop);
  if (first > 0 && PRONOUNS.has((ts[first - 1] as Token).low)) return { at: first, found: true };
  for (let i = first + 1; i < ts.length; i++) {
    const t = ts[i] as Token;
    if (t.kind !== 'word') continue;
    if (VERBS.has(t.low) || NEGATORS.has(t.norm)) return { at: i, found: true };
    const afterNumber = (ts[i - 1] as Token).kind === 'number';
    if (!t.capital && !afterNumber && t.low.length > 3 && (/[^su]s$/.test(t.low) || /ed$/.test(t.low))) return { at: i, found: true };
  }
  return { at: first, found: false };
}

/** A run of tokens written next to each other (no function word between): one slot, not two. */
const contiguous = (run: readonly Placed[]): boolean => run.every((p, i) => i === 0 || p.at === (run[i - 1] as Placed).at + 1);

function content(ts: readonly Token[]): Placed[] {
  return ts.flatMap((token, at) => (token.stop ? [] : [{ token, at }]));
}

function antonym(x: string, y: string): boolean {
  return ANTONYMS.some(([p, q]) => (x === p && y === q) || (x === q && y === p));
}

/**
 * Same statement once affirmed, once negated. The negated one may add when it stopped ("last year"), and
 * a ceasing verb may stand in for the affirmed verb ("cancelled Spotify" vs "pays for Spotify").
 */
function negation(older: readonly Token[], newer: readonly Token[]): string | null {
  const drop = (ts: readonly Token[]): Placed[] => content(ts).filter((p) => !isNegator(p.token));
  const negatedTokens = negated(newer) ? newer : older;
  const ceased = negatedTokens.some((t) => t.kind === 'word' && CEASE.has(t.norm));
  const { regions } = align(drop(older), drop(newer));
  for (const r of regions) {
    const [extra, missing] = negatedTokens === newer ? [r.b, r.a] : [r.a, r.b];
    if (missing.length > (ceased ? 1 : 0)) return null;
    if (extra.some((p) => !WHEN.has(p.token.norm) && p.token.kind !== 'date' && p.token.kind !== 'number')) return null;
  }
  return `negation: the ${negatedTokens === newer ? 'newer' : 'older'} fact says "${negationWord(negatedTokens)}"`;
}

function negationWord(ts: readonly Token[]): string {
  const i = ts.findIndex(isNegator);
  const t = ts[i] as Token;
  const next = ts[i + 1];
  if (t.norm === 'no' && next?.norm === 'longer') return 'no longer';
  return /^(do|does|did|is|are|was|were|wo|ca)nt$/.test(t.low) ? `${t.raw.slice(0, -1)}'t` : t.raw;
}

/** One replaced run after the verb, holding a value: the evidence, or null. */
function differentValue(older: readonly Token[], newer: readonly Token[], r: Region, shared: number): string | null {
  if (r.a.length === 0 || r.b.length === 0 || r.a.length > 4 || r.b.length > 4 || shared < 2) return null;
  if (!contiguous(r.a) || !contiguous(r.b)) return null;
  const [va, vb] = [verbAt(older), verbAt(newer)];
  if ((r.a[0] as Placed).at <= va.at || (r.b[0] as Placed).at <= vb.at) return null;
  if (r.a.length === 1 && r.b.length === 1 && antonym((r.a[0] as Placed).token.low, (r.b[0] as Placed).token.low)) {
    return `opposite: ${(r.a[0] as Placed).token.raw} vs ${(r.b[0] as Placed).token.raw}`;
  }
  const verbBefore = [...older.slice(0, (r.a[0] as Placed).at)].reverse().find((t) => !t.stop && t.kind === 'word');
  return describe(
    r.a.map((p) => p.token),
    r.b.map((p) => p.token),
    r.before,
    verbBefore !== undefined && MANY.has(verbBefore.norm),
    va.found && vb.found,
  );
}

/**
 * Does `newer` contradict `older`? Both must be about the same (non-empty) entity and category. Returns
 * the evidence as a reason ("different port: 5432 vs 6432", "negation: the newer fact says "not"") and
 * the word overlap (to pick the closest matches), or null.
 */
export function contradiction(newer: Statement, older: Statement): Contradiction | null {
  if (!newer.entity || !older.entity) return null;
  if (newer.entity.trim().toLowerCase() !== older.entity.trim().toLowerCase()) return null;
  if (newer.category !== older.category) return null;
  const a = statementTokens(older.text);
  const b = statementTokens(newer.text);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return null;
  const { regions, shared } = align(content(a), content(b));
  if (regions.length === 0) return null;
  const overlap = shared / (content(a).length + content(b).length - shared);
  const negA = negated(a);
  if (negA !== negated(b)) {
    const reason = negation(a, b);
    return reason ? { reason, overlap } : null;
  }
  if (negA) return null;
  const reason = (regions.length === 1 ? differentValue(a, b, regions[0] as Region, shared) : null) ?? changedValue(a, b);
  return reason ? { reason, overlap } : null;
}
