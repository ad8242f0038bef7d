/**
 * The relevant-memories hook on the turn path (autoRecall.relevant, src/recall/relevant.ts): latency of a
 * whole turn's decision (query, hybrid recall with the turn deadline, gates, session dedupe, block, the
 * recall record queued) at 10k and 100k facts, wired as in the gateway (the real USE-lite embedding actor
 * and the usearch vector actor), against a plain full-text `search` of the same prompt in the same run.
 * Goal (issue 19): p99 < 15 ms at 100k facts. Every prompt is new, so its embedding is never cached: with
 * the default autoRecall.relevant.vectorDeadlineMs (0) the turn path is full text alone; with a deadline,
 * the vector leg joins when the embedding beats it ("late" counts the turns where it did not).
 *
 * Data: bench/hybrid-data.ts (synthetic corpus with synthetic vectors, cached under os.tmpdir()); each run
 * works on a copy. Prompts are sentences around the corpus's words (QueryStream), one session per turn.
 * Run: node --import tsx bench/relevant-recall.bench.ts   (RELEVANT_BENCH_SIZES=10000,100000, RELEVANT_BENCH_TURNS,
 *      RELEVANT_BENCH_DEADLINE=ms to try another vector deadline)
 */
import { pathToFileURL } from 'node:url';
import { EmbedClient } from '../src/actors/embed/client.js';
import { resolveConfig } from '../src/config/resolve.js';
import { embedderSpec, openMemory } from '../src/main.js';
import { RelevantRecallHook } from '../src/recall/relevant.js';
import { openDatabase } from '../src/store/db.js';
import { ensureDataDir, QueryStream, runCopy, wordPools } from './hybrid-data.js';
import { quantile } from './stats.js';

const SIZES = (process.env.RELEVANT_BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const TURNS = Number(process.env.RELEVANT_BENCH_TURNS ?? 400);
const GOAL_P99_MS = 15;
/** RELEVANT_BENCH_DEADLINE overrides autoRecall.relevant.vectorDeadlineMs (the default config's otherwise). */
const DEADLINE = process.env.RELEVANT_BENCH_DEADLINE === undefined ? undefined : Number(process.env.RELEVANT_BENCH_DEADLINE);
const user = (): Record<string, unknown> => (DEADLINE === undefined ? {} : { autoRecall: { relevant: { vectorDeadlineMs: DEADLINE } } });
const TEMPLATES = ['can you check the {} setup again before we deploy?', 'what did we decide about {} last time', 'remind me how {} works with the rest', 'is there anything I should know about {}?'];

const turn = (): Promise<void> => new Promise((done) => setImmediate(done));
const f2 = (x: number): string => x.toFixed(2);

function summary(ms: number[]): { p50: number; p99: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s[s.length - 1] ?? NaN };
}

async function one(facts: number): Promise<Record<string, string | number>> {
  const probe = new EmbedClient(embedderSpec(resolveConfig({}, { env: {} })));
  const info = await probe.info().finally(() => probe.close());
  const data = await ensureDataDir(facts, info, () => undefined);
  const run = runCopy(data);
  const env = { HYBRID_MEM_HOME: run.dir };
  const config = resolveConfig(user(), { env });
  const svc = await openMemory({ config, env, semantic: true });
  try {
    const ro = openDatabase(`${run.dir}/memory.db`, { readonly: true });
    const stream = new QueryStream(wordPools(ro));
    ro.close();
    const hook = new RelevantRecallHook(svc, config);
    const prompt = (i: number): string => (TEMPLATES[i % TEMPLATES.length] as string).replace('{}', stream.next().text);
    for (let i = 0; i < 30; i++) await hook.evaluate({ prompt: prompt(i), sessionId: `warm-${i}`, role: 'orchestrator' });
    const hookMs: number[] = [];
    const searchMs: number[] = [];
    let late = 0;
    let injected = 0;
    for (let i = 0; i < TURNS; i++) {
      const text = prompt(i);
      let t = performance.now();
      const r = await hook.evaluate({ prompt: text, sessionId: `turn-${i}`, role: 'orchestrator' });
      hookMs.push(performance.now() - t);
      if (r.degraded) late++;
      injected += r.factIds.length;
      await turn();
      t = performance.now();
      await svc.search({ query: text }, undefined, { plugins: false, vectorDeadlineMs: 0 });
      searchMs.push(performance.now() - t);
      await turn();
    }
    const h = summary(hookMs);
    const s = summary(searchMs);
    return {
      facts: svc.stats().totalFacts,
      'turn p50 ms': f2(h.p50),
      'turn p99 ms': f2(h.p99),
      'turn max ms': f2(h.max),
      'search p99 ms': f2(s.p99),
      'p99 / search': f2(h.p99 / s.p99),
      'vector leg late': `${late}/${TURNS}`,
      'memories per turn': f2(injected / TURNS),
      goal: h.p99 < GOAL_P99_MS ? 'met' : 'NOT met',
    };
  } finally {
    await svc.close();
    run.cleanup();
  }
}

export async function main(): Promise<void> {
  console.log(`\nrelevant-memories hook on the turn path: ${TURNS} new prompts per size, deadline ${resolveConfig(user(), { env: {} }).autoRecall.relevant.vectorDeadlineMs} ms; goal p99 < ${GOAL_P99_MS} ms`);
  const rows = [];
  for (const n of SIZES) rows.push(await one(n));
  console.table(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
