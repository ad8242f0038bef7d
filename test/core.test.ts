/** Pure core rules: strength and decay, link/stale rules, conflict detection, query parsing, ids, scope. */
import { describe, expect, it } from 'vitest';
import { isFactId, isLinkId, newFactId, newLinkId } from '../src/core/ids.js';
import { contradiction, isStale, isWeakLink, reinforce, LINK_RULES } from '../src/core/rules.js';
import { isVisible, scopeFor } from '../src/core/scope.js';
import { HALF_LIFE_MS, isForgotten, recallBoost, recency, strength, STRENGTH } from '../src/core/strength.js';
import { isLookupQuery, parseQuery, tokenize } from '../src/core/text.js';

const DAY = 86_400_000;
const base = { importance: 0.8, confidence: 0.9, decayClass: 'episodic' as const, pinned: false, recallCount: 0, updatedAt: 0, lastRecalledAt: null };

describe('strength', () => {
  it('is importance x recency x confidence, halving per half-life', () => {
    expect(strength(base, 0)).toBeCloseTo(0.72);
    expect(recency(base, HALF_LIFE_MS.episodic)).toBeCloseTo(0.5);
    expect(strength(base, HALF_LIFE_MS.episodic)).toBeCloseTo(0.36);
  });
  it('never decays permanent or pinned facts; pinned get a boost', () => {
    expect(recency({ ...base, decayClass: 'permanent' }, 10_000 * DAY)).toBe(1);
    expect(recency({ ...base, pinned: true }, 10_000 * DAY)).toBe(1);
    expect(strength({ ...base, pinned: true }, 0)).toBeCloseTo(Math.min(1, 0.72 + STRENGTH.pinnedBoost));
  });
  it('decays by class: volatile fastest, stable slowest', () => {
    const at = 10 * DAY;
    const s = (decayClass: 'stable' | 'episodic' | 'volatile') => strength({ ...base, decayClass }, at);
    expect(s('volatile')).toBeLessThan(s('episodic'));
    expect(s('episodic')).toBeLessThan(s('stable'));
  });
  it('recall frequency boosts with a cap, and a recall restarts the clock', () => {
    expect(recallBoost(0)).toBe(0);
    expect(recallBoost(1)).toBeCloseTo(STRENGTH.recallBoostPerDoubling);
    expect(recallBoost(1e9)).toBe(STRENGTH.recallBoostCap);
    expect(recency({ ...base, lastRecalledAt: 30 * DAY }, 30 * DAY)).toBe(1);
  });
  it('forgets only weak episodic/volatile facts', () => {
    expect(isForgotten({ ...base, decayClass: 'volatile' }, 60 * DAY)).toBe(true);
    expect(isForgotten({ ...base, decayClass: 'stable' }, 10_000 * DAY)).toBe(false);
    expect(isForgotten({ ...base, decayClass: 'volatile', pinned: true }, 60 * DAY)).toBe(false);
    expect(isForgotten({ ...base, decayClass: 'volatile' }, 1 * DAY)).toBe(false);
  });
});

describe('rules', () => {
  it('reinforce moves strength towards 1', () => {
    expect(reinforce(0.5, 0.2)).toBeCloseTo(0.6);
    expect(reinforce(1, 0.5)).toBe(1);
  });
  it('weak links are weak and old', () => {
    expect(isWeakLink({ strength: 0.1, createdAt: 0, lastStrengthenedAt: null }, LINK_RULES.weakAfterMs)).toBe(true);
    expect(isWeakLink({ strength: 0.1, createdAt: 0, lastStrengthenedAt: LINK_RULES.weakAfterMs - 1 }, LINK_RULES.weakAfterMs)).toBe(false);
    expect(isWeakLink({ strength: 0.5, createdAt: 0, lastStrengthenedAt: null }, 100 * DAY)).toBe(false);
  });
  it('stale facts are idle past their class window or too weak; pinned/permanent never', () => {
    const f = { pinned: false, decayClass: 'volatile' as const, updatedAt: 0, lastRecalledAt: null };
    expect(isStale(f, 0.5, 4 * DAY)).toBe(true);
    expect(isStale(f, 0.5, 1 * DAY)).toBe(false);
    expect(isStale(f, 0.05, 1 * DAY)).toBe(true);
    expect(isStale({ ...f, decayClass: 'permanent' }, 0.01, 1e6 * DAY)).toBe(false);
  });
  it('detects contradictions on one entity: different values and negations, not duplicates or unrelated facts', () => {
    const f = (text: string, entity: string | null = 'db') => ({ text, entity, category: 'technical' });
    expect(contradiction(f('The db port is 5432'), f('The db port is 6543'))?.reason).toBe('different port: 6543 vs 5432');
    expect(contradiction(f('Backups run nightly on the db'), f("Backups don't run nightly on the db"))?.reason).toBe('negation: the older fact says "don\'t"');
    expect(contradiction(f('The db port is 5432'), f('the DB port is 5432!'))).toBeNull();
    expect(contradiction(f('The db port is 5432'), f('The team owning the db is payments'))).toBeNull();
    expect(contradiction(f('The db port is 5432'), f('The db port is 6543', 'cache'))).toBeNull();
    expect(contradiction(f('The db port is 5432', null), f('The db port is 6543', null))).toBeNull();
  });
});

describe('scope rule', () => {
  const g = { kind: 'global' as const, agentId: null, sessionId: null };
  const a1 = { kind: 'agent' as const, agentId: 'a1', sessionId: null };
  const s1 = { kind: 'session' as const, agentId: 'a1', sessionId: 's1' };
  const op = { role: 'operator' as const, agentId: null, sessionId: null };
  const orch = { role: 'orchestrator' as const, agentId: 'o', sessionId: 's9' };
  const spec1 = { role: 'specialist' as const, agentId: 'a1', sessionId: 's1' };
  const spec2 = { role: 'specialist' as const, agentId: 'a2', sessionId: 's2' };
  it('follows the documented table', () => {
    expect([g, a1, s1].map((s) => isVisible(s, op))).toEqual([true, true, true]);
    expect([g, a1, s1].map((s) => isVisible(s, orch))).toEqual([true, true, false]);
    expect([g, a1, s1].map((s) => isVisible(s, spec1))).toEqual([true, true, true]);
    expect([g, a1, s1].map((s) => isVisible(s, spec2))).toEqual([true, false, false]);
  });
  it('never shows session-scoped facts in hints', () => {
    expect(isVisible(s1, spec1, { forHint: true })).toBe(false);
    expect(isVisible(s1, op, { forHint: true })).toBe(false);
    expect(isVisible(a1, spec1, { forHint: true })).toBe(true);
  });
  it('binds new scopes to the caller', () => {
    expect(scopeFor('agent', spec1)).toEqual(a1);
    expect(scopeFor('agent', spec1, { agentId: 'a2' })).toMatch(/only .* for itself/);
    expect(scopeFor('session', op)).toMatch(/needs a session id/);
    expect(scopeFor('agent', op, { agentId: 'x' })).toEqual({ kind: 'agent', agentId: 'x', sessionId: null });
  });
});

describe('query parsing', () => {
  it('parses words, prefixes and phrases, folding case and diacritics', () => {
    expect(parseQuery('Café  serv* "prod database"')).toEqual([
      { kind: 'term', term: 'cafe' },
      { kind: 'prefix', term: 'serv' },
      { kind: 'phrase', terms: ['prod', 'database'] },
    ]);
    expect(parseQuery('admin@db01.example')).toEqual([{ kind: 'phrase', terms: ['admin', 'db01', 'example'] }]);
  });
  it('turns FTS operators and junk into plain words, never syntax', () => {
    expect(parseQuery('x AND b OR NEAR( col: "unbalanced')).toEqual([
      { kind: 'term', term: 'x' },
      { kind: 'term', term: 'b' },
      { kind: 'term', term: 'near' },
      { kind: 'term', term: 'col' },
      { kind: 'term', term: 'unbalanced' },
    ]);
    expect(parseQuery('*** "" ()')).toEqual([]);
    expect(parseQuery('x'.repeat(3) + ' ' + Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });
  it('tells a lookup of an exact thing from a question', () => {
    for (const q of ['hx-ch-1', 'port 8096', 'Redpoint', 'Crumb & Co Kirkgate interview', 'PRECONDITION_FAILED inequivalent arg x-queue-type', '10.20.1.14']) expect(isLookupQuery(q), q).toBe(true);
    const questions = ['what listens on port 8081', 'Redpoint?', 'how can I sign into our DB machine', 'kubernetes pods keep restarting after the upgrade to 1.29 every night', '***'];
    for (const q of questions) expect(isLookupQuery(q), q).toBe(false);
  });
  it('tokenizes like unicode61', () => {
    expect(tokenize("Naïve O'Brien—v2.1")).toEqual(['naive', 'o', 'brien', 'v2', '1']);
  });
});

describe('ids', () => {
  it('are prefixed, time-sortable and kind-checked', () => {
    const a = newFactId(1000);
    const b = newFactId(2000);
    expect(isFactId(a)).toBe(true);
    expect(isLinkId(a)).toBe(false);
    expect(isLinkId(newLinkId())).toBe(true);
    expect(a < b).toBe(true);
    expect(isFactId('fact_../../etc')).toBe(false);
  });
});

describe('rank fusion', async () => {
  const { rrf, RRF_K } = await import('../src/core/fusion.js');
  it('rewards items both legs rank, and keeps single-leg items', () => {
    const fused = rrf([['a', 'b', 'c'], ['c', 'd', 'a']], (x) => x);
    expect(fused.map((f) => f.key)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]?.ranks).toEqual([1, 3]);
    expect(fused[0]?.fused).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 3));
    expect(fused.find((f) => f.key === 'd')?.ranks).toEqual([null, 2]);
  });
  it('handles empty legs', () => {
    expect(rrf([[], ['x']], (x) => x).map((f) => f.key)).toEqual(['x']);
    expect(rrf<string>([[], []], (x) => x)).toEqual([]);
  });
});

describe('stopwords', () => {
  it('drops function words from a query that has other words, keeps them otherwise and in phrases', () => {
    expect(parseQuery('how can I sign into our DB machine').map((p) => (p.kind === 'phrase' ? p.terms.join(' ') : p.term))).toEqual(['sign', 'db', 'machine']);
    expect(parseQuery('the')).toEqual([{ kind: 'term', term: 'the' }]);
    expect(parseQuery('"the who" tour')).toEqual([
      { kind: 'phrase', terms: ['the', 'who'] },
      { kind: 'term', term: 'tour' },
    ]);
  });
});
