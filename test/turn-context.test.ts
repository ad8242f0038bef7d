/**
 * Dialogue turns embedded with the turn they answer (issue 18): the speaker-label rule, the blend, and the
 * real semantic layer (shipped model in its worker pools, usearch, a real SQLite file): a turn's stored
 * vector is its own plus a share of the previous turn's; a note is not blended; deleting the previous turn
 * re-embeds the turn without it.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blendVectors, continuesTurn, embedText, isDialogueTurn, TURN_CONTEXT_WEIGHT, TURN_CONTEXT_WINDOW_MS } from '../src/core/embed-text.js';
import { fuseScores } from '../src/core/fusion.js';
import { openMemory } from '../src/main.js';
import type { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

describe('what reads as a dialogue turn', () => {
  it.each([
    ['Maya: I got the job!', true],
    ['user: can you check the logs', true],
    ['Assistant: Done.', true],
    ['Dr. Lee: take two a day', true],
    ["Maya O'Brien: yes", true],
    ['Prettier config: single quotes', false],
    ['DNS: pihole-1 and pihole-2', false],
    ['Jonas corrected me: the repo uses pnpm', false],
    ['Update: the migration is done', false],
    ['Decided: raw readings move to ClickHouse', false],
    ['https://example.com: down', false],
    ['Maya said hello', false],
    ['Maya:no space', false],
    ['[2023-05-08 13:56] Caroline: I went to the support group', true],
    ['1:56 pm on 8 May, 2023 - Caroline: I went to the support group', true],
    ['2023-05-08T13:56Z Melanie: That is great!', true],
    ['(Mon 9:30) user: the deploy failed', true],
    ['[2023-05-08] DNS: pihole-1 and pihole-2', false],
    ['2023-05-08: the migration finished', false],
  ])('%j -> %s', (text, turn) => {
    expect(isDialogueTurn(text)).toBe(turn);
  });

  it('embeds a turn without its time stamp; a note keeps its date', () => {
    expect(embedText({ text: '1:56 pm on 8 May, 2023 - Caroline: I went to the support group', entity: null })).toBe('Caroline: I went to the support group');
    expect(embedText({ text: '[2023-05-08 13:56] user: the deploy failed', entity: null })).toBe('user: the deploy failed');
    expect(embedText({ text: '2023-05-08: the migration finished', entity: 'db' })).toBe('db: 2023-05-08: the migration finished');
  });

  it('continues a turn only within the window and only after a turn', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const turn = { text: 'Leo: Which one?', createdAt: t0 + 60_000 };
    expect(continuesTurn(turn, { text: 'Maya: I applied for the baker role', createdAt: t0 })).toBe(true);
    expect(continuesTurn(turn, { text: 'Maya: I applied', createdAt: t0 - TURN_CONTEXT_WINDOW_MS })).toBe(false);
    expect(continuesTurn(turn, { text: 'Standup is at 9:30', createdAt: t0 })).toBe(false);
    expect(continuesTurn(turn, { text: 'Maya: later', createdAt: turn.createdAt + 1 })).toBe(false);
  });

  it('blends to unit length', () => {
    const v = blendVectors(Float32Array.of(1, 0), Float32Array.of(0, 1), 0.5);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(v[0]! / v[1]!).toBeCloseTo(2, 6);
  });

  it('weighs the vector leg per item when fusing', () => {
    const hit = (item: string, score: number) => ({ item, score });
    const fused = fuseScores([hit('a', 2), hit('b', 1)], [hit('b', 0.9), hit('a', 0.1)], (x) => x, (x) => (x === 'b' ? 0.8 : 0.2));
    expect(fused.map((f) => f.key)).toEqual(['b', 'a']);
    expect(fused[0]?.fused).toBeCloseTo(0.2 * 0.5 + 0.8, 6);
    expect(fused[1]?.fused).toBeCloseTo(0.8, 6);
  });
});

describe('turn context in the semantic layer', () => {
  let home: TestHome;
  let svc: MemoryService;

  beforeAll(async () => {
    home = tempHome();
    svc = await openMemory({ config: home.config, env: home.env, semantic: true });
  }, 60_000);

  afterAll(async () => {
    await svc?.close();
    home.cleanup();
  });

  function storedVector(factId: string): Float32Array {
    const db = new Database(home.config.dbPath, { readonly: true });
    try {
      const row = db.prepare('SELECT v.vector AS vector FROM fact_vectors v JOIN facts f ON f.seq = v.fact_seq WHERE f.id = ?').get(factId) as { vector: Buffer } | undefined;
      if (!row) throw new Error(`no vector for ${factId}`);
      return new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength));
    } finally {
      db.close();
    }
  }
  const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) / (Math.hypot(...a) * Math.hypot(...b));

  it('stores a turn as its own vector plus a share of the turn it answers; a note stays itself', async () => {
    const layer = svc.semanticLayer;
    if (!layer) throw new Error('no semantic layer');
    const question = svc.memoryStore({ text: 'Leo: Did you ever hear back about the baker job at the cafe?' }).fact;
    const answer = svc.memoryStore({ text: 'Maya: Yes! I start on Monday.' }).fact;
    const note = svc.memoryStore({ text: 'Prettier config: single quotes and trailing commas' }).fact;
    await layer.idle();
    const [q, a, n] = await layer.embedTexts([question.text, answer.text, note.text]);
    expect(cosine(storedVector(question.id), q!)).toBeGreaterThan(0.9999);
    expect(cosine(storedVector(answer.id), blendVectors(a!, q!, TURN_CONTEXT_WEIGHT))).toBeGreaterThan(0.9999);
    expect(cosine(storedVector(answer.id), a!)).toBeLessThan(0.99);
    expect(cosine(storedVector(note.id), n!)).toBeGreaterThan(0.9999);

    // The reply is found by what it answers.
    const r = await svc.memoryRecall({ query: 'when does Maya start the bakery job' });
    expect(r.results.slice(0, 2).map((x) => x.fact.id)).toContain(answer.id);

    // Deleting the question leaves no trace of it in the answer's vector.
    svc.deleteFact(question.id);
    await layer.idle();
    expect(cosine(storedVector(answer.id), a!)).toBeGreaterThan(0.9999);
  });

  it('embeds the turns of a store written before turn context again, once, at start', async () => {
    const question = svc.memoryStore({ text: 'Sam: Where did you end up parking the van?' }).fact;
    const answer = svc.memoryStore({ text: 'Ruth: Round the back, by the bins.' }).fact;
    await svc.semanticLayer?.idle();
    const [q, a] = (await svc.semanticLayer?.embedTexts([question.text, answer.text])) ?? [];
    await svc.close();
    // As an older version left it: the answer's vector is its own, and no turn-context mark.
    const db = new Database(home.config.dbPath);
    db.prepare('UPDATE fact_vectors SET vector = ? WHERE fact_seq = (SELECT seq FROM facts WHERE id = ?)').run(Buffer.from(a!.buffer, a!.byteOffset, a!.byteLength), answer.id);
    db.prepare("DELETE FROM meta WHERE key = 'embedding.turnContext'").run();
    db.close();
    expect(cosine(storedVector(answer.id), a!)).toBeGreaterThan(0.9999);

    svc = await openMemory({ config: home.config, env: home.env, semantic: true });
    await svc.semanticLayer?.idle();
    expect(cosine(storedVector(answer.id), blendVectors(a!, q!, TURN_CONTEXT_WEIGHT))).toBeGreaterThan(0.9999);
    const db2 = new Database(home.config.dbPath, { readonly: true });
    expect(db2.prepare("SELECT value FROM meta WHERE key = 'embedding.turnContext'").pluck().get()).toBe('1');
    db2.close();
  });
});
