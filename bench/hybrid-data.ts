/**
 * Data for the hybrid recall bench (bench/hybrid.bench.ts): a data dir (memory.db + vectors.usearch +
 * its manifest) holding the synthetic fact corpus (bench/corpus.ts, raw inserts) with one structured
 * synthetic vector per fact (bench/vectors-synthetic.ts) stored under the real embedder's model id, so
 * the vector actor accepts them as its own; and the query texts, drawn from the corpus vocabulary.
 *
 * Embedding 100k facts with the real model would take ~30 min, and the vector worker's rebuild at
 * 100k x 512 takes minutes, so the whole dir is built once and kept under os.tmpdir(), keyed by its
 * parameters; each run works on a copy (recall writes to the database: recall events, recall counts,
 * co-recall links), with the index file hard-linked (the worker never writes over it in place).
 */
import type { Database } from 'better-sqlite3';
import { constants, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorClient } from '../src/actors/vector/client.js';
import { manifestPath } from '../src/actors/vector/index-file.js';
import type { EmbedderInfo } from '../src/actors/embed/contract.js';
import { STOPWORDS, tokenize } from '../src/core/text.js';
import { openDatabase } from '../src/store/db.js';
import { VectorRepo } from '../src/store/vectors.js';
import { buildCorpus, prng } from './corpus.js';
import { clusteredVectors } from './vectors-synthetic.js';

/** Bump when what ensureDataDir writes changes (including bench/corpus.ts or vectors-synthetic.ts output). */
const DATA_VERSION = 1;
const SEED = 42;
const INSERT_BATCH = 5000;

export interface DataDir {
  readonly dir: string;
  readonly facts: number;
  readonly vectors: number;
  /** Seconds the build took, when this call built it. */
  readonly builtInS: number | null;
}

const secs = (t: number): string => ((performance.now() - t) / 1000).toFixed(1);

/** The cached data dir for `facts` background facts and this embedder, built if missing. */
export async function ensureDataDir(facts: number, info: EmbedderInfo, log: (line: string) => void): Promise<DataDir> {
  const slug = info.modelId.replace(/[^A-Za-z0-9.-]+/g, '_');
  const dir = join(tmpdir(), `hybrid-mem-hybrid-bench-v${DATA_VERSION}-${facts}-${slug}x${info.dim}-seed${SEED}`);
  const done = join(dir, 'complete.json');
  if (existsSync(done)) return { dir, ...(JSON.parse(readFileSync(done, 'utf8')) as { facts: number; vectors: number }), builtInS: null };

  const started = performance.now();
  const building = `${dir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const dbPath = join(building, 'memory.db');
  const db = openDatabase(dbPath);
  let t = performance.now();
  buildCorpus(db, { facts, queriesPerKind: 10, relevantPerQuery: 8 });
  const seqs = db.prepare('SELECT seq FROM facts ORDER BY seq').pluck().all() as number[];
  log(`  corpus: ${seqs.length} facts in ${secs(t)} s`);

  t = performance.now();
  const set = clusteredVectors({ count: seqs.length, dim: info.dim, seed: SEED });
  const put = db.prepare('INSERT INTO fact_vectors (fact_seq, model_id, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)');
  const at = Date.UTC(2026, 0, 1);
  const bytes = info.dim * 4;
  for (let start = 0; start < seqs.length; start += INSERT_BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(seqs.length, start + INSERT_BATCH); i++) {
        put.run(seqs[i], info.modelId, info.dim, Buffer.from(set.vectors.buffer, set.vectors.byteOffset + i * bytes, bytes), at);
      }
    })();
  }
  // What the semantic layer records when it starts on a database (so it sees no model change).
  const meta = new VectorRepo(db);
  meta.setMeta('embedding.modelId', info.modelId);
  meta.setMeta('embedding.dim', String(info.dim));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  log(`  vectors: ${seqs.length} x ${info.dim} synthetic (clustered) under model id ${info.modelId} in ${secs(t)} s`);

  // The vector worker's own init (rebuild from SQLite), then its own persist: the file and manifest it
  // will later verify and load.
  t = performance.now();
  const client = new VectorClient({
    init: { dbPath, indexPath: join(building, 'vectors.usearch'), modelId: info.modelId, dim: info.dim },
    persistEveryMs: 0,
    timeoutMs: 60_000,
    rebuildTimeoutMs: 3_600_000,
  });
  try {
    const state = await client.ready();
    await client.persist();
    log(`  index: ${state.source} (${state.reason ?? '-'}), ${state.count} vectors, in ${secs(t)} s`);
  } finally {
    await client.close();
  }
  const summary = { facts: seqs.length, vectors: seqs.length };
  writeFileSync(join(building, 'complete.json'), JSON.stringify(summary));
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { dir, ...summary, builtInS: (performance.now() - started) / 1000 };
}

/** A private copy of the data dir for one run (the database copied, the index file and manifest linked). */
export function runCopy(data: DataDir): { dir: string; mib: number; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-hybrid-run-'));
  copyFileSync(join(data.dir, 'memory.db'), join(dir, 'memory.db'), constants.COPYFILE_FICLONE);
  const index = join(data.dir, 'vectors.usearch');
  for (const [from, to] of [
    [index, join(dir, 'vectors.usearch')],
    [manifestPath(index), manifestPath(join(dir, 'vectors.usearch'))],
  ] as const) {
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
  }
  const mib = (statSync(join(dir, 'memory.db')).size + statSync(index).size) / 2 ** 20;
  return { dir, mib, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type QueryKind = 'rare' | 'common' | 'mixed';
export const KINDS: readonly QueryKind[] = ['rare', 'common', 'mixed'];

export interface Query {
  readonly kind: QueryKind;
  readonly text: string;
}

/** Corpus words by frequency (stopwords and words under 3 letters left out: queries drop the former). */
export interface WordPools {
  /** The 60 most frequent words (tech words and the head of the Zipf vocabulary). */
  readonly common: readonly string[];
  /** Frequency ranks 200-2200. */
  readonly mid: readonly string[];
  /** Words occurring 3 to 15 times in 100k facts (the tail, like the corpus's own rare queries). */
  readonly rare: readonly string[];
}

export function wordPools(db: Database): WordPools {
  const counts = new Map<string, number>();
  for (const text of db.prepare('SELECT text FROM facts WHERE valid_until IS NULL').pluck().iterate() as IterableIterator<string>) {
    for (const w of tokenize(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const ranked = [...counts].filter(([w]) => w.length >= 3 && !STOPWORDS.has(w)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    common: ranked.slice(0, 60).map(([w]) => w),
    mid: ranked.slice(200, 2200).map(([w]) => w),
    rare: ranked.filter(([, c]) => c >= 3 && c <= 15).map(([w]) => w),
  };
}

/**
 * Query texts that never repeat (so each one is new to the embedding cache), kinds in turn:
 * rare = one tail word; common = two frequent words; mixed = a frequent, a mid and a tail word (the
 * shape of the corpus's own labelled "mixed" queries). Deterministic for a seed.
 */
export class QueryStream {
  private readonly seen = new Set<string>();
  private readonly rnd: () => number;
  private n = 0;

  constructor(private readonly pools: WordPools, seed = 7) {
    this.rnd = prng(seed);
  }

  next(): Query {
    const kind = KINDS[this.n % KINDS.length] as QueryKind;
    for (let tries = 0; tries < 10_000; tries++) {
      const text = this.compose(kind);
      if (this.seen.has(text)) continue;
      this.seen.add(text);
      this.n++;
      return { kind, text };
    }
    throw new Error(`ran out of distinct ${kind} queries after ${this.n}`);
  }

  take(n: number): Query[] {
    return Array.from({ length: n }, () => this.next());
  }

  private pick(xs: readonly string[]): string {
    return xs[Math.floor(this.rnd() * xs.length)] as string;
  }

  private compose(kind: QueryKind): string {
    const p = this.pools;
    if (kind === 'rare') return this.pick(p.rare);
    if (kind === 'common') {
      const a = this.pick(p.common);
      let b = this.pick(p.common);
      while (b === a) b = this.pick(p.common);
      return `${a} ${b}`;
    }
    return `${this.pick(p.common)} ${this.pick(p.mid)} ${this.pick(p.rare)}`;
  }
}
