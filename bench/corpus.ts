/**
 * A synthetic, labelled fact corpus for search tests and benchmarks (shared by bench/recall.bench.ts and
 * test/search.test.ts). Deterministic for a seed.
 *
 * Vocabulary: function words and common tech words first, then ~20k English-like words built from
 * syllables and inflection suffixes (so the Porter stemmer has work), drawn with a Zipf-Mandelbrot law.
 * Facts have 6-30 words of text, an entity on 40% (names), 0-3 tags (Zipf), a mix of scopes, and
 * some superseded and deleted versions. For every labelled query a few relevant facts are planted at
 * random positions: they carry the query's words (or prefix expansions, or the phrase) in their text and,
 * as a careful writer would, often in their entity or tags.
 */
import type { Database } from 'better-sqlite3';
import { factInserter, QUERY_KINDS, type LabelledQuery, type QueryKind } from './corpus-support.js';
import { mulberry32 } from '../test/support/prng.js';

export { factInserter, measureQuality, quality, QUERY_KINDS, type LabelledQuery, type QueryKind, type RawFact } from './corpus-support.js';

export interface CorpusOptions {
  readonly facts: number;
  readonly seed?: number;
  readonly queriesPerKind?: number;
  readonly relevantPerQuery?: number;
}

const FUNCTION_WORDS = 'the to of and a in is for on that with it as was be by this are at from or an have not'.split(' ');
const TECH_WORDS = `server user password config database deploy token cluster service request error cache network
  key host port backup queue release build branch api storage node log metric alert account access secret policy
  region version client session schema index query timeout retry proxy domain certificate endpoint worker job
  container image volume`.split(/\s+/);
const ONSETS = 'b c d f g h j k l m n p r s t v w z br cl dr fl gr pl st tr sh ch th'.split(' ');
const NUCLEI = 'a e i o u ai ea oo ou'.split(' ');
const CODAS = ' n r l s t m nd rt st ck'.split(' ');
const SUFFIXES = ['', '', '', '', 's', 's', 'ing', 'ed', 'er', 'ation', 'ment', 'ly', 'ness', 'able', 'ize', 'al', 'ity', 'ive'];

/** Deterministic PRNG (mulberry32, shared: test/support/prng.ts). */
export const prng = mulberry32;

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)] as T;
}

function syntheticWords(rnd: () => number, count: number, taken: Set<string>): string[] {
  const out: string[] = [];
  while (out.length < count) {
    let w = '';
    const syllables = 1 + Math.floor(rnd() * 3);
    for (let s = 0; s < syllables; s++) w += pick(rnd, ONSETS) + pick(rnd, NUCLEI) + pick(rnd, CODAS);
    w += pick(rnd, SUFFIXES);
    if (w.length < 4 || taken.has(w)) continue;
    taken.add(w);
    out.push(w);
  }
  return out;
}

/** Zipf-Mandelbrot sampler over ranks [0, n): P(r) ~ 1 / (r + q)^s. */
function zipf(rnd: () => number, n: number, s = 1.0, q = 2.7): () => number {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let r = 0; r < n; r++) cdf[r] = acc += 1 / Math.pow(r + q, s);
  return () => {
    const x = rnd() * acc;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

interface FactSpec {
  text: string;
  entity: string | null;
  tags: string[];
  scope: 'global' | 'agent' | 'session';
  agent: string | null;
  session: string | null;
  ended: 'superseded' | 'deleted' | null;
}

const cap1 = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

class Generator {
  readonly rnd: () => number;
  readonly vocab: string[];
  private readonly word: () => number;
  private readonly tagRank: () => number;
  private readonly nameRank: () => number;

  constructor(seed: number) {
    this.rnd = prng(seed);
    const taken = new Set([...FUNCTION_WORDS, ...TECH_WORDS]);
    this.vocab = [...FUNCTION_WORDS, ...TECH_WORDS, ...syntheticWords(this.rnd, 20_000, taken)];
    this.word = zipf(this.rnd, this.vocab.length);
    this.tagRank = zipf(this.rnd, TECH_WORDS.length + 500, 1.0, 5);
    this.nameRank = zipf(this.rnd, 5000, 0.8, 10);
  }

  words(n: number): string[] {
    return Array.from({ length: n }, () => this.vocab[this.word()] as string);
  }

  /** A tag: tech words and the 500 most frequent other content words, Zipf. */
  content(): string {
    return this.vocab[FUNCTION_WORDS.length + this.tagRank()] as string;
  }

  /** An entity name: one or two mid-frequency words (sometimes a tech word), capitalised. */
  name(): string {
    const base = FUNCTION_WORDS.length + TECH_WORDS.length + 500;
    const one = (): string => cap1(this.rnd() < 0.1 ? pick(this.rnd, TECH_WORDS) : (this.vocab[base + this.nameRank()] as string));
    return this.rnd() < 0.5 ? one() : `${one()} ${one()}`;
  }

  fact(): FactSpec {
    const r = this.rnd;
    const scopeDraw = r();
    const agent = `agent-${1 + Math.floor(r() * 10)}`;
    const scope = scopeDraw < 0.7 ? 'global' : scopeDraw < 0.9 ? 'agent' : 'session';
    const endDraw = r();
    return {
      text: this.words(6 + Math.floor(r() * 25)).join(' '),
      entity: r() < 0.4 ? this.name() : null,
      tags: Array.from({ length: Math.floor(r() * 4) }, () => this.content()),
      scope,
      agent: scope === 'global' ? null : agent,
      session: scope === 'session' ? `session-${1 + Math.floor(r() * 50)}` : null,
      ended: endDraw < 0.05 ? 'superseded' : endDraw < 0.06 ? 'deleted' : null,
    };
  }

  /** A relevant fact for `words`: they appear in the text (in order when `phrase`), often in entity/tags. */
  relevant(words: readonly string[], phrase: boolean, fieldChance: number): FactSpec {
    const text = this.words(5 + Math.floor(this.rnd() * 12));
    const insert = (ws: readonly string[]): void => void text.splice(Math.floor(this.rnd() * (text.length + 1)), 0, ...ws);
    if (phrase) insert(words);
    else for (const w of words) insert([w]);
    const inField = this.rnd() < fieldChance;
    const inEntity = inField && this.rnd() < 0.5;
    return {
      text: text.join(' '),
      entity: inEntity ? words.map(cap1).join(' ') : null,
      tags: inField && !inEntity ? [...(phrase ? words : [pick(this.rnd, words)]), this.content()] : [this.content()],
      scope: 'global',
      agent: null,
      session: null,
      ended: null,
    };
  }
}

interface Plan {
  readonly query: LabelledQuery;
  readonly facts: FactSpec[];
}

function planQuery(g: Generator, kind: QueryKind, i: number, perQuery: number, ids: () => string): Plan {
  const r = g.rnd;
  let words: string[];
  let query: string;
  const variants: string[][] = [];
  switch (kind) {
    case 'rare':
      words = [`${g.vocab[15_000 + Math.floor(r() * 5000)]}`, `zq${i}x${Math.floor(r() * 1e6).toString(36)}`].slice(i % 2, (i % 2) + 1);
      query = words.join(' ');
      break;
    case 'common':
      words = [TECH_WORDS[i % 12] as string];
      query = words[0] as string;
      break;
    case 'prefix': {
      const base = g.vocab[FUNCTION_WORDS.length + TECH_WORDS.length + 20 + i * 7] as string;
      const stem = base.replace(/(s|ing|ed|er|ation|ment|ly|ness|able|ize|al|ity|ive)$/, '');
      words = [stem];
      query = `${stem.slice(0, Math.max(3, stem.length - 1))}*`;
      for (const s of ['', 'ing', 'ed', 'ment', 's']) variants.push([stem + s]);
      break;
    }
    case 'phrase':
      words = [TECH_WORDS[(i * 3) % TECH_WORDS.length] as string, TECH_WORDS[(i * 3 + 7) % TECH_WORDS.length] as string];
      query = `"${words.join(' ')}"`;
      break;
    case 'mixed':
      words = [TECH_WORDS[(i * 5) % TECH_WORDS.length] as string, g.vocab[200 + Math.floor(r() * 2000)] as string, g.vocab[8000 + i] as string];
      query = words.join(' ');
      break;
  }
  const facts = Array.from({ length: perQuery }, (_, k) =>
    g.relevant(variants.length > 0 ? (variants[k % variants.length] as string[]) : words, kind === 'phrase', kind === 'rare' ? 0.5 : 0.8),
  );
  return { query: { kind, query, relevant: facts.map(ids) }, facts };
}

/**
 * Insert `facts` background facts plus the planted relevant facts into the `facts` table (raw SQL; the
 * FTS triggers index them) and return the labelled queries.
 */
export function buildCorpus(db: Database, options: CorpusOptions): LabelledQuery[] {
  const g = new Generator(options.seed ?? 42);
  let nextId = 0;
  const idOf = (): string => `fact_${(nextId++).toString(36).padStart(6, '0')}`;
  const plans: Plan[] = [];
  for (const kind of QUERY_KINDS) {
    for (let i = 0; i < (options.queriesPerKind ?? 5); i++) plans.push(planQuery(g, kind, i, options.relevantPerQuery ?? 8, idOf));
  }
  const planted = new Map<number, FactSpec[]>();
  for (const f of plans.flatMap((p) => p.facts)) {
    const at = Math.floor(g.rnd() * options.facts);
    planted.set(at, [...(planted.get(at) ?? []), f]);
  }
  const insert = factInserter(db);
  let t = Date.UTC(2026, 0, 1);
  const put = (f: FactSpec, id: string): void => {
    t += 1000;
    const ended = f.ended ? t + 500 : null;
    const category = g.rnd() < 0.2 ? 'technical' : 'fact';
    insert({ id, text: f.text, category, entity: f.entity, tags: f.tags, scope: f.scope, agent: f.agent, session: f.session, at: t,
      validUntil: ended, deletedAt: f.ended === 'deleted' ? ended : null, endedReason: f.ended });
  };
  const plantedIds = new Map(plans.flatMap((p) => p.facts.map((f, k) => [f, p.query.relevant[k] as string] as const)));
  db.transaction(() => {
    for (let i = 0; i < options.facts; i++) {
      for (const f of planted.get(i) ?? []) put(f, plantedIds.get(f) as string);
      put(g.fact(), idOf());
    }
  })();
  return plans.map((p) => p.query);
}
