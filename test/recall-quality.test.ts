/**
 * Recall quality on our labeled sets (eval/recall/sets), test split only (fusion is tuned on dev): the
 * harness loads every set into a real store, embeds it with the default offline model in real workers, and
 * asks every test query of full text, the vector leg and memory_recall's hybrid ranking. Hybrid must not be
 * worse than its better leg overall and for each kind of memory, must not be worse on the held-out chat-4 and
 * chat-6 and must beat it on the held-out chat-5 and chat-7 (each written after the ranking it was first scored
 * on), and must
 * keep the level it reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRIEVERS, formatTable, loadSets, runSet, score, table, type QueryOutcome, type Retriever } from '../eval/recall/harness.js';
import { versusBetterLeg } from '../eval/recall/paired.js';

/** One query of ~60 in a kind moves R@5 by ~0.017: the per-kind comparison allows one query's worth. */
const PER_KIND_SLACK = 0.02;

describe('recall quality on the labeled sets (test split)', { timeout: 300_000 }, () => {
  const outcomes: QueryOutcome[] = [];

  beforeAll(async () => {
    for (const set of loadSets()) outcomes.push(...(await runSet(set, ['test'])));
  }, 300_000);

  afterAll(() => {
    if (outcomes.length > 0) process.stdout.write(`\n${formatTable(table(outcomes))}\n`);
  });

  const of = (retriever: Retriever, keep: (o: QueryOutcome) => boolean = () => true) => score(outcomes.filter((o) => o.retriever === retriever && keep(o)));

  it('covers every test query of the sets with every retriever (plain bm25, full text, vector, hybrid)', () => {
    const queries = loadSets().flatMap((s) => s.queries.filter((q) => q.split === 'test'));
    expect(queries.length).toBeGreaterThanOrEqual(230);
    expect(outcomes).toHaveLength(queries.length * RETRIEVERS.length);
  });

  it('the full-text leg alone is at least as good as plain SQLite FTS5 bm25 (R@5, MRR)', () => {
    const [f, b] = [of('fulltext'), of('bm25')];
    // Measured last (eleven sets, 716 queries): full text 0.697 / 0.616, plain bm25 0.572 / 0.514.
    expect(f.recall[5]).toBeGreaterThanOrEqual(b.recall[5]);
    expect(f.mrr).toBeGreaterThanOrEqual(b.mrr);
  });

  it('overall, hybrid is at least as good as its better leg (R@5, R@10, MRR), and at its measured level', () => {
    const [h, f, v] = [of('hybrid'), of('fulltext'), of('vector')];
    for (const k of [5, 10] as const) expect(h.recall[k]).toBeGreaterThanOrEqual(Math.max(f.recall[k], v.recall[k]));
    expect(h.mrr).toBeGreaterThanOrEqual(Math.max(f.mrr, v.mrr));
    // Measured last (eleven sets, 716 queries): R@5 0.753, MRR 0.671 (full text 0.697 / 0.616, vector 0.500 / 0.405).
    // (Nine sets measured 0.765 / 0.667: the held-out chat-6 and chat-7 are harder than the sets before them.)
    expect(h.recall[5]).toBeGreaterThanOrEqual(0.73);
    expect(h.mrr).toBeGreaterThanOrEqual(0.65);
  });

  it.each(['chat', 'agent', 'tech'] as const)('for %s memory, hybrid R@5 is not below its better leg', (kind) => {
    const keep = (o: QueryOutcome) => o.kind === kind;
    const [h, f, v] = [of('hybrid', keep), of('fulltext', keep), of('vector', keep)];
    expect(h.recall[5]).toBeGreaterThanOrEqual(Math.max(f.recall[5], v.recall[5]) - PER_KIND_SLACK);
  });

  it('in no group (kind of memory, query type) is hybrid worse than its better leg beyond the noise of its queries (R@5, MRR)', () => {
    const rows = versusBetterLeg(outcomes);
    expect(rows.length).toBeGreaterThanOrEqual(2 * 9);
    // "worse": the 95% paired bootstrap interval of hybrid minus the leg lies wholly below 0.
    expect(rows.filter((r) => r.high < 0).map((r) => `${r.group} ${r.metric}`)).toEqual([]);
    // The interval is a real one: overall R@5 is better beyond noise (measured +0.057, +0.035 .. +0.078).
    expect(rows.find((r) => r.group === 'all' && r.metric === 'R@5')?.low).toBeGreaterThan(0);
  });

  it.each([
    // chat-4 was scored once on the ranking before replies carried their question's match (R@5 0.590, MRR
    // 0.502); since then full text is the better leg there, and hybrid is ahead of it within noise.
    { set: 'chat-4', beyondNoise: false, r5: 0.72, mrr: 0.61 },
    // chat-5 was written before that change and scored once after it: R@5 0.754, MRR 0.698, ahead of full text
    // (0.646 / 0.587) beyond noise (R@5 +0.108, +0.050 .. +0.167; MRR +0.110, +0.058 .. +0.165).
    { set: 'chat-5', beyondNoise: true, r5: 0.73, mrr: 0.67 },
    // chat-6 (a third writer, written after everything above) was scored once: hybrid R@5 0.667, MRR 0.576,
    // level with full text (0.621 / 0.579) and its temporal MRR worse beyond noise. Since the rule that a
    // text saying when counts for more when the query asks when (tuned on dev): 0.687 / 0.601.
    { set: 'chat-6', beyondNoise: false, r5: 0.66, mrr: 0.58 },
    // chat-7 (a fourth writer) was written after that rule and scored once: 0.679 / 0.667, ahead of full text
    // (0.596 / 0.552) beyond noise (R@5 +0.083, +0.030 .. +0.139; MRR +0.115, +0.061 .. +0.167).
    { set: 'chat-7', beyondNoise: true, r5: 0.66, mrr: 0.64 },
  ])('on the held-out long chat $set, hybrid is not below its better leg and holds its level', ({ set, beyondNoise, r5, mrr }) => {
    const keep = (o: QueryOutcome) => o.set === set;
    const h = of('hybrid', keep);
    expect(h.n).toBeGreaterThanOrEqual(100);
    const rows = versusBetterLeg(outcomes.filter(keep)).filter((r) => r.group === 'all');
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(beyondNoise ? r.low > 0 : r.mean >= 0).toBe(true);
    expect(h.recall[5]).toBeGreaterThanOrEqual(r5);
    expect(h.mrr).toBeGreaterThanOrEqual(mrr);
  });

  it('keyword lookups rank as full text does (the vector leg cost them rank-1 hits)', () => {
    const keep = (o: QueryOutcome) => o.query.type === 'keyword';
    const [h, f] = [of('hybrid', keep), of('fulltext', keep)];
    expect(h.n).toBeGreaterThanOrEqual(30);
    expect(h.recall[5]).toBeGreaterThanOrEqual(f.recall[5]);
    expect(h.mrr).toBeGreaterThanOrEqual(f.mrr);
  });
});
