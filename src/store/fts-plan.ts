/**
 * The plan of a bounded search: for each query part, the FTS5 expression its candidate queries use, its
 * (approximate) document frequency and its BM25 matcher; and the candidate budget split between legs.
 *
 * Legs, all newest first and each capped (scope and currency filters are in every leg's SQL; see
 * fts-legs.ts):
 * 1. each part alone, rarest first; the budget left is shared among the parts still to run, so a rare
 *    part contributes all of its matches and common parts share the rest of the budget;
 * 2. when every part had more matches than its cap, the AND of all parts (rows matching everything are
 *    the best BM25 candidates; while some part's leg is complete they are all candidates already);
 * 3. for parts whose leg hit its cap, their strongest entity/tags matches (the columns with the highest
 *    weights): the old-but-strong matches a newest-first window would miss. Building such a list walks
 *    the part's postings, so they run rarest first within a postings budget, and the lists are cached
 *    (see CandidateCollector.fieldLeg).
 */
import { porterStem } from '../core/porter.js';
import type { QueryPart } from '../core/text.js';
import { idf, partStems, type Matcher } from './fts-score.js';
import type { CorpusTotals, FtsStats } from './fts-stats.js';

/** Candidate rows a query may fetch in all (raised to 4 x limit for large limits; see MIN_LEG_CAP). */
export const CANDIDATE_BUDGET = 600;
/** Share of the budget for the AND leg (multi-part queries) and for the entity/tags legs. */
const AND_SHARE = 0.25;
const FIELD_SHARE = 0.2;
/** Postings the entity/tags legs may scan per query (about 25 ns each). */
export const FIELD_POSTINGS_BUDGET = 120_000;
/**
 * A prefix whose expansions hold more postings than this is searched through its most frequent expansions
 * (FTS5 merges every expansion's postings up front for a prefix query, ~60 ns each, while an OR of named
 * terms is merged lazily, newest first).
 */
export const NATIVE_PREFIX_POSTINGS = 10_000;
/** Named expansions all prefixes of one query may use together (each costs a posting iterator per leg). */
const NAMED_TERMS_BUDGET = 48;
/** The AND leg joins at most this many parts, the rarest (a superset of the rows matching all of them). */
export const MAX_AND_PARTS = 4;

export interface PlannedPart {
  readonly part: QueryPart;
  /** FTS5 expression for the candidate legs. */
  readonly expr: string;
  readonly df: number;
  /** Postings a scan of this part walks (df, or all expansions' postings for a prefix). */
  readonly cost: number;
  readonly matcher: Matcher;
}

/** Smallest cap of any leg. Worst case: the budget plus MAX_QUERY_PARTS x MIN_LEG_CAP rows. */
const MIN_LEG_CAP = 10;

export interface Budget {
  readonly minCap: number;
  readonly andCap: number;
  readonly partBudget: number;
  readonly fieldBudget: number;
}

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** The FTS5 expression of a part as typed: every token quoted, so user text is never FTS5 syntax. */
export function partExpr(p: QueryPart): string {
  switch (p.kind) {
    case 'term':
      return quote(p.term);
    case 'prefix':
      return `${quote(p.term)}*`;
    case 'phrase':
      return quote(p.terms.join(' '));
  }
}

/**
 * A prefix with a huge expansion costs a merge of every expansion's postings in FTS5 (no prefix index),
 * so its legs name its most frequent expansions instead. FTS5 stems query tokens again, so only stems
 * that are their own stem can be named exactly; the others are left to the JS scoring of other legs.
 */
function prefixExpr(p: QueryPart & { kind: 'prefix' }, stemmed: string, ctx: PlanContext): { expr: string; df: number; cost: number } {
  const info = ctx.stats.prefix(stemmed, ctx.totals.rows);
  const native = { expr: partExpr(p), df: info.df, cost: info.postings };
  if (info.postings <= NATIVE_PREFIX_POSTINGS) return native;
  const named = info.topTerms.filter((t) => porterStem(t) === t).slice(0, ctx.namedPerPrefix);
  if (named.length === 0) return native;
  return { ...native, expr: `(${named.map(quote).join(' OR ')})` };
}

interface PlanContext {
  readonly stats: FtsStats;
  readonly totals: CorpusTotals;
  /** Expansions a huge prefix may name: NAMED_TERMS_BUDGET shared by the query's prefixes. */
  readonly namedPerPrefix: number;
}

export function planParts(parts: readonly QueryPart[], stats: FtsStats, totals: CorpusTotals): PlannedPart[] {
  const prefixes = parts.filter((p) => p.kind === 'prefix').length;
  const ctx: PlanContext = { stats, totals, namedPerPrefix: Math.max(4, Math.floor(NAMED_TERMS_BUDGET / Math.max(1, prefixes))) };
  return parts.map((part) => {
    const stems = partStems(part);
    let expr = partExpr(part);
    let df: number;
    let cost: number;
    if (part.kind === 'prefix') ({ expr, df, cost } = prefixExpr(part, stems[0] as string, ctx));
    else {
      cost = Math.min(...stems.map((s) => stats.termDf(s)));
      df = part.kind === 'phrase' ? stats.phraseDf(expr, cost) : cost;
    }
    return { part, expr, df, cost, matcher: { kind: part.kind, stems, idf: idf(totals.rows, df) } };
  });
}

export function budgetFor(partCount: number, limit: number, total0 = CANDIDATE_BUDGET): Budget {
  const total = Math.max(total0, limit * 4);
  // A small floor per leg (not `limit`): 16 parts x limit rows would defeat the budget.
  const minCap = MIN_LEG_CAP;
  const andCap = partCount > 1 ? Math.floor(total * AND_SHARE) : 0;
  const fieldBudget = Math.floor(total * FIELD_SHARE);
  return { minCap, andCap, partBudget: total - andCap - fieldBudget, fieldBudget };
}

/** Cap of the next part leg: the budget left shared among the parts still to run. */
export function partCap(budget: Budget, used: number, partsLeft: number): number {
  return Math.max(budget.minCap, Math.floor((budget.partBudget - used) / Math.max(1, partsLeft)));
}

/**
 * The parts that get an entity/tags leg: those whose leg was full, rarest first, within the postings
 * budget (the first one always runs so a single common word still finds its strong matches). A part in
 * more than half the rows is skipped: its idf is ~0 (a stop word), so it is not worth its postings walk.
 */
export function fieldParts(full: readonly PlannedPart[], rows: number): PlannedPart[] {
  const chosen: PlannedPart[] = [];
  let postings = 0;
  for (const p of [...full].sort((a, b) => a.cost - b.cost)) {
    if (p.df * 2 > rows) continue;
    if (chosen.length > 0 && postings + p.cost > FIELD_POSTINGS_BUDGET) break;
    chosen.push(p);
    postings += p.cost;
  }
  return chosen;
}
