/**
 * Full-text search (src/store/search.ts): the Porter stemmer against FTS5's own, matching by word, prefix,
 * phrase, entity and tag, scope and currency filters inside the SQL, the credential filter, hostile query
 * text, cache freshness (entity lists, row scans), and a labelled-sample comparison of bounded search with unbounded bm25.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCorpus, factInserter, measureQuality, type RawFact } from '../bench/corpus.js';
import { porterStem } from '../src/core/porter.js';
import { visibility } from '../src/core/scope.js';
import { fold, parseQuery } from '../src/core/text.js';
import { OPERATOR, type Caller } from '../src/core/types.js';
import { openDatabase } from '../src/store/db.js';
import { FirstChars, ScanCache } from '../src/store/fts-score.js';
import { FACT_COLUMNS, factRow } from '../src/store/rows.js';
import { FtsSearch, type FtsOptions } from '../src/store/search.js';

const dirs: string[] = [];
function freshDb(): Database {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-search-'));
  dirs.push(dir);
  return openDatabase(join(dir, 'memory.db'));
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const REAL_WORDS = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping
  tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer
  conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness
  hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical
  hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
  adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate rate
  cease controll roll generalizations generalization oscillators oscillator running runs ran runner servers serving
  served service services deployment deployments deploying deployed configuration configurations configure
  configured authentication authenticate authenticated authorization authorize authorized passwords password
  credentials credential databases database indexing indexes indexed queries querying queried caching cached caches
  connection connections connecting connected pooling pooled migrations migrating migrated replication replicated
  replicating availability scalability reliability flexibility compatibility responsibility abilities ability
  nationalization nationalize national nationally nationality rationalization organizational organization organize
  organized organizing relativity relative relatively sensational sensationalism conditionally traditional
  traditionally international internationalization operational operationally computational computationally
  happiness happily happier happiest easily easier busy business busily studies studying studied study flies flying
  cried crying tries trying agreement agreeing disagree generously generosity generous curiosity curious various
  variously hopelessness uselessness carelessness helpfulness playfulness meaningful meaningfulness electricity
  electrify electrification specific specification specify specifically academic academically historical
  historically logical logically biology biological archaeology anthropology technology technologies technological
  ies sses eed ss s is as us yes bus gas plus this was has does goes`.split(/\s+/);

const BASES = ['connect', 'deploy', 'relate', 'hope', 'organ', 'nation', 'form', 'sense', 'rate', 'agree', 'fly', 'try', 'run', 'hop', 'fizz', 'happy', 'general', 'operate', 'able', 'use'];
const SUFFIXES = ['', 's', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'ness', 'ment', 'ments', 'ation', 'ational', 'ization', 'izer', 'ible', 'able', 'ability', 'ful', 'fulness', 'ousness', 'iveness', 'ive', 'ism', 'ist', 'ity', 'ies', 'ied', 'al', 'ally', 'ence', 'ance', 'ent', 'ant'];
const EDGE_WORDS = ['ab', 'abs', 'xy', 'ba'.repeat(30) + 'ing', 'ba'.repeat(30) + 'bing', 'ba'.repeat(30) + 'bbing', 'Café', 'naïve', 'résumés', 'ÉCOLES', 'жaing', 'aжs', 'yyy', 'yying', 'eyeing', 'skies', 'dying'];

describe('porterStem agrees with FTS5 porter tokenizer', () => {
  it('stems several hundred varied words exactly as FTS5 indexes them', () => {
    const db = freshDb();
    db.exec(`CREATE VIRTUAL TABLE porter_check USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE porter_check_vocab USING fts5vocab(porter_check, 'instance');`);
    const words = [...new Set([...REAL_WORDS.filter(Boolean), ...BASES.flatMap((b) => SUFFIXES.map((s) => b + s)), ...EDGE_WORDS])];
    const insert = db.prepare('INSERT INTO porter_check (rowid, w) VALUES (?, ?)');
    db.transaction(() => words.forEach((w, i) => insert.run(i + 1, w)))();
    const indexed = db.prepare('SELECT doc, term FROM porter_check_vocab').all() as { doc: number; term: string }[];
    expect(indexed).toHaveLength(words.length); // one token each
    expect(words.length).toBeGreaterThan(700);
    const mismatches = indexed
      .map(({ doc, term }) => ({ word: words[doc - 1] as string, fts5: term, ours: porterStem(fold(words[doc - 1] as string)) }))
      .filter((m) => m.fts5 !== m.ours);
    expect(mismatches).toEqual([]);
    db.close();
  });

  it('leaves tokens shorter than 3 or longer than 64 bytes alone and keeps the first character', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('x'.repeat(62) + 'es')).toBe('x'.repeat(62) + 'e');
    expect(porterStem('x'.repeat(63) + 'es')).toBe('x'.repeat(63) + 'es');
    for (const w of ['relational', 'generalizations', 'happy', 'skies']) expect(porterStem(w)[0]).toBe(w[0]);
  });
});

const A1_S1: Caller = { role: 'specialist', agentId: 'a1', sessionId: 's1' };
const ORCH_S1: Caller = { role: 'orchestrator', agentId: 'orch', sessionId: 's1' };

describe('FtsSearch', () => {
  let db: Database;
  let put: (f: RawFact) => number;
  let search: FtsSearch;
  let n = 0;
  const add = (f: Omit<RawFact, 'id'>): string => {
    const id = `fact_t${(n++).toString().padStart(4, '0')}`;
    put({ ...f, id, at: Date.UTC(2026, 0, 1) + n * 1000 });
    return id;
  };
  const ids = (q: string, caller: Caller = OPERATOR, options: FtsOptions = {}): string[] =>
    search.search(parseQuery(q), visibility(caller), { limit: 50, ...options }).map((h) => h.fact.id);
  const both = (q: string, caller: Caller = OPERATOR, options: FtsOptions = {}): string[][] => [ids(q, caller, options), ids(q, caller, { ...options, unbounded: true })];

  beforeAll(() => {
    db = freshDb();
    put = factInserter(db);
    search = new FtsSearch(db);
    for (let i = 0; i < 300; i++) add({ text: `filler note ${i} about lunch and weather`, tags: ['misc'] });
  });
  afterAll(() => db.close());

  it('finds by word with stemming, by prefix, by phrase, by entity and by tag', () => {
    const deployed = add({ text: 'We deployed the billing service on Kubernetes yesterday' });
    const servers = add({ text: 'Two servers run the staging services' });
    const pool = add({ text: 'The connection pool size is 20' });
    const poolOf = add({ text: 'A pool of connection objects leaks' });
    const entity = add({ text: 'Runs in eu-west', entity: 'Zephyrion Gateway' });
    const tagged = add({ text: 'Rotate weekly', tags: ['quuxcredential'] });
    for (const [q, want] of [
      ['deploying kubernetes', [deployed]],
      ['serv*', [servers, deployed]],
      ['"connection pool"', [pool]],
      ['zephyrion', [entity]],
      ['quuxcredential', [tagged]],
    ] as const) {
      for (const got of both(q)) expect(new Set(got)).toEqual(new Set(want));
    }
    expect(ids('pool connection')).toEqual(expect.arrayContaining([pool, poolOf]));
  });

  it('scores like FTS5 bm25: same relevance for words, >= 0, best first', () => {
    const strong = add({ text: 'grommet grommet', entity: 'Grommet', tags: ['grommet'] });
    const weak = add({ text: 'a long note that mentions a grommet once among many other words of little interest' });
    add({ text: 'Ünïcödé GROMMETS naïvely grommétted: café-grommet, 2grommet', tags: ['Grommet-ïng'] });
    const [b, u] = [false, true].map((unbounded) => search.search(parseQuery('grommet lunch'), visibility(OPERATOR), { limit: 400, unbounded }));
    expect(b?.[0]?.fact.id).toBe(strong);
    expect(b?.map((h) => h.fact.id)).toContain(weak);
    const ref = new Map(u?.map((h) => [h.fact.id, h.relevance]));
    for (const h of b ?? []) {
      expect(h.relevance).toBeGreaterThanOrEqual(0);
      expect(h.relevance).toBeCloseTo(ref.get(h.fact.id) ?? NaN, 9);
    }
    expect(b?.map((h) => h.relevance)).toEqual([...(b?.map((h) => h.relevance) ?? [])].sort((x, y) => y - x));
  });

  it('filters scope inside the query, even when invisible matches outnumber the candidate cap', () => {
    const g = add({ text: 'scopetest global' });
    const a1 = add({ text: 'scopetest agent one', scope: 'agent', agent: 'a1' });
    const a2 = add({ text: 'scopetest agent two', scope: 'agent', agent: 'a2' });
    const s1 = add({ text: 'scopetest session one', scope: 'session', agent: 'a1', session: 's1' });
    const s2 = add({ text: 'scopetest session two', scope: 'session', agent: 'a2', session: 's2' });
    for (let i = 0; i < 80; i++) add({ text: `scopetest noise ${i}`, scope: 'agent', agent: 'a9' });
    const small: FtsOptions = { candidateCap: 20, limit: 10 };
    for (const got of both('scopetest', A1_S1, small)) expect(new Set(got)).toEqual(new Set([g, a1, s1]));
    for (const got of both('scopetest', ORCH_S1, { limit: 200 })) {
      expect(got).toEqual(expect.arrayContaining([g, a1, a2, s1]));
      expect(got).not.toContain(s2);
    }
    for (const got of both('scopetest', OPERATOR, { limit: 200 })) expect(got).toEqual(expect.arrayContaining([g, a1, a2, s1, s2]));
  });

  it('excludes superseded facts unless asked, and deleted facts always', () => {
    const now = Date.UTC(2026, 1, 1);
    const current = add({ text: 'versioned widget v2' });
    const superseded = add({ text: 'versioned widget v1', validUntil: now, endedReason: 'superseded' });
    const deletedLater = add({ text: 'versioned widget draft' });
    db.prepare("UPDATE facts SET deleted_at = ?, valid_until = ?, ended_reason = 'deleted' WHERE id = ?").run(now, now, deletedLater);
    add({ text: 'versioned widget gone', validUntil: now, deletedAt: now, endedReason: 'deleted' });
    for (const got of both('versioned widget')) expect(got).toEqual([current]);
    for (const got of both('versioned widget', OPERATOR, { includeSuperseded: true })) expect(new Set(got)).toEqual(new Set([current, superseded]));
  });

  it('keeps only credential facts with credentialsOnly', () => {
    const tech = add({ text: 'vaultish login for ci', category: 'technical' });
    const ent = add({ text: 'vaultish root login', entity: 'credentials' });
    const tag = add({ text: 'vaultish deploy key', tags: ['SSH'] });
    add({ text: 'vaultish lunch order', tags: ['food'] });
    for (const got of both('vaultish', OPERATOR, { credentialsOnly: true })) expect(new Set(got)).toEqual(new Set([tech, ent, tag]));
  });

  it('never lets query text reach FTS5 syntax', () => {
    const hostile = ['AND OR NEAR( col: "unbalanced', '"', '*', '**', '-foo', '{text}: x', '^start', 'a + b', 'NOT', 'NEAR(a b, 2)', 'text:lunch', '(', ')', '"" ""', '🙂 *', 'a* b* "c d" OR'];
    for (const q of hostile) {
      for (const unbounded of [false, true]) expect(() => search.search(parseQuery(q), visibility(OPERATOR), { unbounded })).not.toThrow();
    }
    expect(ids('(lunch)').length).toBeGreaterThan(0); // punctuation is a separator, not syntax
  });

  it('reads hot rows as arrays that map to the same FactRow as a keyed read', () => {
    const id = add({ text: 'rawrow check', entity: 'Rawrow', tags: ['a', 'b'], scope: 'session', agent: 'a1', session: 's1' });
    const keyed = db.prepare('SELECT * FROM facts WHERE id = ?').get(id) as Record<string, unknown>;
    const raw = factRow(db.prepare(`SELECT ${FACT_COLUMNS} FROM facts f WHERE f.id = ?`).raw().get(id) as unknown[]);
    expect(Object.keys(raw).length).toBe(FACT_COLUMNS.split(',').length);
    expect(raw).toEqual(Object.fromEntries(Object.keys(raw).map((k) => [k, keyed[k]])));
    expect(ids('rawrow')).toEqual([id]);
  });

  it("reuses a row's scan only while it holds the query's words and the row is unchanged", () => {
    const row = add({ text: 'scanreuse gadget gadget and a widget', entity: 'Scanreuse', tags: ['zebra'] });
    const relevance = (q: string): number[] =>
      [false, true].map((unbounded) => search.search(parseQuery(q), visibility(OPERATOR), { limit: 50, unbounded }).find((h) => h.fact.id === row)?.relevance ?? NaN);
    // The first query scans the row for words starting with "s" or "g"; the next ones need "w" and "z".
    for (const q of ['scanreuse gadget', 'widget', 'zebra gadget', 'scanreuse gadget']) {
      const [bounded, unbounded] = relevance(q);
      expect(bounded).toBeGreaterThan(0);
      expect(bounded).toBeCloseTo(unbounded ?? NaN, 9);
    }
    // The same row, rewritten in place (an import or a repair does that): scanned again, scored as FTS5 scores it.
    db.prepare('UPDATE facts SET text = ? WHERE id = ?').run('scanreuse gadget once, then many other words in a longer note', row);
    const [bounded, unbounded] = relevance('scanreuse gadget');
    expect(bounded).toBeCloseTo(unbounded ?? NaN, 9);
  });

  it('keeps at most its capacity of row scans, the oldest going first', () => {
    const scans = new ScanCache(2);
    const first = FirstChars.of([{ kind: 'term', stems: ['gadget'], idf: 1 }]);
    const rows: [string, string, string][] = [['gadget one', '', ''], ['gadget two', '', ''], ['gadget three', '', '']];
    rows.forEach((r, seq) => scans.tokens(seq, r, first));
    expect(scans.size).toBe(2);
    expect(scans.tokens(2, rows[2] as [string, string, string], first)).toEqual([['gadget', null], [], []]);
    expect(scans.size).toBe(2);
  });

  it('sees facts added after a query was cached (word, prefix, entity)', () => {
    for (const q of ['freshword', 'freshpre*', 'lunch']) ids(q);
    const w = add({ text: 'a freshword appears' });
    const p = add({ text: 'freshprefixed token' });
    const e = add({ text: 'short', entity: 'Lunch' });
    expect(ids('freshword')).toEqual([w]);
    expect(ids('freshpre*')).toEqual([p]);
    expect(ids('lunch', OPERATOR, { limit: 5 })[0]).toBe(e);
  });
});

describe('bounded search quality against unbounded bm25 (labelled sample)', () => {
  const EPS = 0.05;
  let db: Database;
  let queries: ReturnType<typeof buildCorpus>;
  beforeAll(() => {
    db = freshDb();
    queries = buildCorpus(db, { facts: 4000, seed: 7, queriesPerKind: 4, relevantPerQuery: 8 });
  });
  afterAll(() => db.close());

  for (const cap of [undefined, 60]) {
    it(`recall@10 and nDCG@10 are within ${EPS} of unbounded (candidate budget ${cap ?? 'default'})`, () => {
      const rows = measureQuality(new FtsSearch(db), queries, cap);
      const all = rows.find((r) => r.kind === 'all');
      expect(all).toBeDefined();
      expect(all?.boundedRecall).toBeGreaterThanOrEqual((all?.unboundedRecall ?? 1) - EPS);
      expect(all?.boundedNdcg).toBeGreaterThanOrEqual((all?.unboundedNdcg ?? 1) - EPS);
      const rare = rows.find((r) => r.kind === 'rare');
      expect(rare?.overlap).toBeGreaterThanOrEqual(0.9);
      expect(rare?.boundedRecall).toBeGreaterThanOrEqual(0.8);
    });
  }
});
