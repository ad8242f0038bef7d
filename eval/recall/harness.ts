/**
 * The retrieval-quality harness: load a labeled set (eval/recall/sets) into a real store, one fact per
 * memory, stored at the memory's time, embedded by the default offline model; then answer every query with
 * full text only, the vector leg only, and memory_recall's hybrid ranking, and score the rankings against
 * the graded evidence: R@5/10/20 (share of the grade-2 memories in the top k), MRR (first grade-2 hit) and
 * latency, per query type and split.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config/resolve.js';
import type { Category } from '../../src/core/types.js';
import { startSemantic } from '../../src/main.js';
import { MemoryService } from '../../src/memory/service.js';
import { STOPWORDS, tokenize } from '../../src/core/text.js';
import Database from 'better-sqlite3';

export const SETS_DIR = new URL('./sets/', import.meta.url).pathname;
export const KS = [5, 10, 20] as const;
export const RETRIEVERS = ['bm25', 'fulltext', 'vector', 'hybrid'] as const;
export type Retriever = (typeof RETRIEVERS)[number];
export const QUERY_TYPES = ['paraphrase', 'temporal', 'multi-hop', 'keyword', 'single-hop'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];
export type Split = 'dev' | 'test';

export interface Memory {
  readonly id: string;
  readonly text: string;
  readonly at: string;
  readonly speaker?: string;
  readonly session?: string;
  readonly entity?: string;
  readonly tags?: readonly string[];
  readonly category?: string;
}

export interface Query {
  readonly id: string;
  readonly query: string;
  readonly type: QueryType;
  readonly split: Split;
  readonly evidence: Readonly<Record<string, 1 | 2>>;
}

export interface LabeledSet {
  readonly name: string;
  readonly kind: 'chat' | 'agent' | 'tech';
  readonly memories: readonly Memory[];
  readonly queries: readonly Query[];
}

/** Per query and retriever: the ranks (1-based) of its grade-2 memories in the top 20, and the time taken. */
export interface QueryOutcome {
  readonly set: string;
  readonly kind: LabeledSet['kind'];
  readonly query: Query;
  readonly retriever: Retriever;
  readonly ranked: readonly string[];
  readonly ms: number;
  /** The legs as they came (ids with bm25 or similarity), for tuning fusion offline (hybrid rows only). */
  readonly legs?: { readonly fts: readonly [string, number][]; readonly vec: readonly [string, number][]; readonly mult: Readonly<Record<string, number>> };
}

export function loadSets(dir = SETS_DIR): LabeledSet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as LabeledSet);
}

const AGENT_CATEGORY: Readonly<Record<string, Category>> = { preference: 'preference', decision: 'decision', person: 'entity', project: 'fact', event: 'fact', other: 'other' };

/** How a memory is stored: as an agent would keep it (a chat turn with its speaker; notes with entity and tags). */
export function storeInput(set: LabeledSet, m: Memory) {
  if (set.kind === 'chat') return { text: `${m.speaker ?? 'someone'}: ${m.text}` };
  return {
    text: m.text,
    category: set.kind === 'tech' ? ('technical' as const) : (AGENT_CATEGORY[m.category ?? 'other'] ?? 'other'),
    entity: m.entity ?? null,
    tags: [...(m.tags ?? [])],
  };
}

/** A set loaded into a fresh store: one service with the semantic layer, one on full text, fact ids to memory ids. */
export interface LoadedSet {
  readonly dir: string;
  readonly config: ReturnType<typeof resolveConfig>;
  readonly hybrid: MemoryService;
  readonly plain: MemoryService;
  readonly byFact: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/**
 * When memories are stored: each at its own time (`memory`, as an agent keeps them turn by turn), or all at
 * once the day after the last (`import`, as a benchmark or a bulk import loads them: no time to go by).
 */
export type StoredAt = 'memory' | 'import';

/** Store every memory of `set` (one fact each, at its time or all at once), embed them all, and set the clock to the day after the last. */
export async function loadSet(set: LabeledSet, userConfig: Record<string, unknown> = {}, storedAt: StoredAt = 'memory'): Promise<LoadedSet> {
  const dir = mkdtempSync(join(tmpdir(), 'hm-eval-'));
  let clock = Date.parse(set.memories[0]?.at ?? '2026-01-01T00:00:00Z');
  const config = resolveConfig({ dataDir: dir, ...userConfig }, { env: {} });
  const hybrid = MemoryService.open({ config, env: {}, now: () => clock });
  const plain = MemoryService.open({ config, env: {}, now: () => clock });
  const close = async (): Promise<void> => {
    await hybrid.close();
    await plain.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const byFact = new Map<string, string>();
    const after = Date.parse(set.memories.at(-1)?.at ?? '2026-01-01T00:00:00Z') + 86_400_000;
    for (const m of set.memories) {
      clock = storedAt === 'import' ? after : Date.parse(m.at);
      byFact.set(hybrid.memoryStore(storeInput(set, m)).fact.id, m.id);
    }
    // Questions are asked the day after the last memory ("now" in the sets is the state at the end).
    clock = after;
    const semantic = await startSemantic(hybrid, config, () => undefined);
    await semantic.embedMissing();
    return { dir, config, hybrid, plain, byFact, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The baseline the issue compares with: plain SQLite FTS5 bm25 (porter stemming, unicode61), the query's
 * words without stopwords OR-ed, over the same text, entity and tags the store indexes.
 */
export function plainBm25(set: LabeledSet): { search(query: string, limit: number): string[]; close(): void } {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE m USING fts5(id UNINDEXED, body, tokenize = 'porter unicode61 remove_diacritics 2')");
  const insert = db.prepare('INSERT INTO m (id, body) VALUES (?, ?)');
  for (const m of set.memories) {
    const i = storeInput(set, m);
    insert.run(m.id, [i.text, 'entity' in i ? i.entity : null, ...('tags' in i ? (i.tags ?? []) : [])].filter(Boolean).join(' '));
  }
  const select = db.prepare<[string, number], { id: string }>('SELECT id FROM m WHERE m MATCH ? ORDER BY bm25(m) LIMIT ?');
  return {
    search(query, limit) {
      const words = tokenize(query);
      const content = words.filter((w) => !STOPWORDS.has(w));
      const terms = [...new Set(content.length > 0 ? content : words)];
      return terms.length === 0 ? [] : select.all(terms.map((t) => `"${t}"`).join(' OR '), limit).map((r) => r.id);
    },
    close: () => db.close(),
  };
}

/** Run every query of `set` (of `splits`) through the retrievers. */
export async function runSet(set: LabeledSet, splits: readonly Split[] = ['dev', 'test'], limit = 20, withLegs = false, userConfig: Record<string, unknown> = {}, storedAt: StoredAt = 'memory'): Promise<QueryOutcome[]> {
  const { hybrid, plain, byFact, close } = await loadSet(set, userConfig, storedAt);
  const bm25 = plainBm25(set);
  try {
    const out: QueryOutcome[] = [];
    const ids = (facts: readonly { id: string }[]) => facts.map((f) => byFact.get(f.id) ?? f.id);
    const timed = async (query: Query, retriever: Retriever, run: () => Promise<readonly { id: string }[]>) => {
      const t = performance.now();
      const facts = await run();
      out.push({ set: set.name, kind: set.kind, query, retriever, ranked: ids(facts), ms: performance.now() - t });
    };
    const depth = Math.min(50, limit * 3);
    for (const q of set.queries.filter((x) => splits.includes(x.split))) {
      // Hybrid first: its query embedding is not cached yet, as for an agent's new question.
      await timed(q, 'hybrid', async () => (await hybrid.search({ query: q.query, limit })).results.map((h) => h.fact));
      await timed(q, 'fulltext', async () => (await plain.search({ query: q.query, limit })).results.map((h) => h.fact));
      await timed(q, 'vector', async () => (await hybrid.vectorSearch(q.query, undefined, limit)).map((h) => h.fact));
      const t = performance.now();
      const ranked = bm25.search(q.query, limit);
      out.push({ set: set.name, kind: set.kind, query: q, retriever: 'bm25', ranked, ms: performance.now() - t });
      if (withLegs) {
        const fts = (await plain.search({ query: q.query, limit: depth })).results.map((h): [string, number] => [byFact.get(h.fact.id) ?? h.fact.id, h.why.bm25 ?? 0]);
        const vec = (await hybrid.vectorSearch(q.query, undefined, depth)).map((h): [string, number] => [byFact.get(h.fact.id) ?? h.fact.id, h.similarity]);
        // What multiplies each candidate's fused score (time in the query, strength), to replay fusion offline.
        const deep = (await hybrid.search({ query: q.query, limit: 50 })).results;
        const mult = Object.fromEntries(deep.filter((h) => h.why.fused > 0).map((h) => [byFact.get(h.fact.id) ?? h.fact.id, h.score / h.why.fused]));
        const row = out.findLast((o) => o.retriever === 'hybrid');
        if (row) out[out.indexOf(row)] = { ...row, legs: { fts, vec, mult } };
      }
    }
    return out;
  } finally {
    bm25.close();
    await close();
  }
}

export interface Scores {
  readonly n: number;
  readonly recall: Readonly<Record<(typeof KS)[number], number>>;
  readonly mrr: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}

/** Mean R@k and MRR over outcomes (of one retriever). */
export function score(outcomes: readonly QueryOutcome[]): Scores {
  const recall = { 5: 0, 10: 0, 20: 0 };
  let mrr = 0;
  for (const o of outcomes) {
    const gold = Object.entries(o.query.evidence)
      .filter(([, g]) => g === 2)
      .map(([id]) => id);
    for (const k of KS) recall[k] += gold.filter((id) => o.ranked.slice(0, k).includes(id)).length / gold.length;
    const first = o.ranked.findIndex((id) => gold.includes(id));
    mrr += first < 0 ? 0 : 1 / (first + 1);
  }
  const n = outcomes.length || 1;
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return { n: outcomes.length, recall: { 5: recall[5] / n, 10: recall[10] / n, 20: recall[20] / n }, mrr: mrr / n, p50Ms: quantile(ms, 0.5), p99Ms: quantile(ms, 0.99) };
}

/** Rows of a table: for each group (all, each kind, each type), each retriever's scores. */
export function table(outcomes: readonly QueryOutcome[]): { group: string; retriever: Retriever; scores: Scores }[] {
  const groups: [string, (o: QueryOutcome) => boolean][] = [
    ['all', () => true],
    ...(['chat', 'agent', 'tech'] as const).map((k): [string, (o: QueryOutcome) => boolean] => [`kind ${k}`, (o) => o.kind === k]),
    ...QUERY_TYPES.map((t): [string, (o: QueryOutcome) => boolean] => [`type ${t}`, (o) => o.query.type === t]),
  ];
  return groups.flatMap(([group, keep]) => RETRIEVERS.map((retriever) => ({ group, retriever, scores: score(outcomes.filter((o) => keep(o) && o.retriever === retriever)) })));
}

export function formatTable(rows: ReturnType<typeof table>): string {
  const f = (x: number) => x.toFixed(3);
  const lines = ['| group | retriever | n | R@5 | R@10 | R@20 | MRR | p50 ms | p99 ms |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const s = r.scores;
    lines.push(`| ${r.group} | ${r.retriever} | ${s.n} | ${f(s.recall[5])} | ${f(s.recall[10])} | ${f(s.recall[20])} | ${f(s.mrr)} | ${s.p50Ms.toFixed(1)} | ${s.p99Ms.toFixed(1)} |`);
  }
  return lines.join('\n');
}
