/**
 * How recall ranks dialogue turns (issue 18, src/core/turn-rank.ts). A turn spoken by someone the query
 * names counts for more. A reply carries its question's full-text match: the rule on its own, then
 * memory_recall on a real SQLite store (full text, no embedding model): the turn that answers a matching
 * question is recalled and says which turn it replies to; nothing is carried across scopes, out of the
 * exchange's time window, from a note, into a superseded version, outside the category asked for, or for a
 * keyword lookup.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { turnSpeaker } from '../src/core/embed-text.js';
import { tokenize } from '../src/core/text.js';
import { SAYS_NUMBER_WEIGHT, SAYS_WHEN_WEIGHT } from '../src/core/time-cues.js';
import { carryToReplies, isQuestion, QUESTION_SHARE, REPLY_CARRY, SPEAKER_NAMED_WEIGHT, speakerNamed } from '../src/core/turn-rank.js';
import type { Caller } from '../src/core/types.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

describe('a turn spoken by someone the query names', () => {
  it.each([
    ['What did Hana say about the bees?', 'Hana: they swarmed', true],
    ['what did hana say', '[2025-05-08 13:56] Hana: they swarmed', true],
    ["What did Maya O'Brien bake?", 'Maya O’Brien: sourdough', true],
    ['What did the user ask for?', 'user: a refund', true],
    ['What did Hana say about the bees?', 'Callum: Hana hates bees', false],
    ['What did Hana say?', 'DNS: pihole-1', false],
    ['What did Hana say?', 'Hana said hello', false],
  ])('%j names the speaker of %j: %s', (query, text, named) => {
    expect(speakerNamed(new Set(tokenize(query)), turnSpeaker(text))).toBe(named);
  });
});

describe('carryToReplies', () => {
  const turn = (s: string) => s.includes(':');
  const replies: Record<string, string[]> = { 'A: how was the trip?': ['B: wet', 'B: we saw puffins'], 'note about trips': ['B: unrelated'] };
  const carry = (hits: [string, number][]) =>
    carryToReplies(
      hits.map(([item, relevance]) => ({ item, relevance })),
      (x) => x,
      (x) => replies[x] ?? [],
      turn,
      (x) => x,
    );

  it('lends the next turn and the one after a share of a turn\'s bm25; a question keeps a share of its own', () => {
    const out = carry([['A: how was the trip?', 10]]);
    expect(out.map((h) => [h.item, h.relevance, h.from])).toEqual([
      ['B: wet', 10 * REPLY_CARRY[0], 'A: how was the trip?'],
      ['B: we saw puffins', 10 * REPLY_CARRY[1], 'A: how was the trip?'],
      ['A: how was the trip?', 10 * QUESTION_SHARE, null],
    ]);
  });

  it('keeps a reply\'s own match when it is better, and lends nothing from a note', () => {
    const out = carry([
      ['A: how was the trip?', 10],
      ['B: we saw puffins', 9.5],
      ['note about trips', 8],
    ]);
    expect(out.find((h) => h.item === 'B: we saw puffins')).toEqual({ item: 'B: we saw puffins', relevance: 9.5, from: null });
    expect(out.find((h) => h.item === 'note about trips')).toEqual({ item: 'note about trips', relevance: 8, from: null });
    expect(out.some((h) => h.item === 'B: unrelated')).toBe(false);
  });

  it.each([
    ['How was the trip?', true],
    ['Wait, what?!', true],
    ['Did she say "yes?"', true],
    ['We went to Skye.', false],
    ['Is it? No, it was fine.', false],
  ])('%j asks: %s', (text, asks) => {
    expect(isQuestion(text)).toBe(asks);
  });
});

describe('memory_recall carries a reply its question\'s match', () => {
  let home: TestHome;
  let svc: MemoryService;
  let clock: { now: number; advance(ms: number): void };
  const minute = 60_000;
  const agent = (agentId: string): Caller => ({ role: 'specialist', agentId, sessionId: null });
  const say = (text: string, extra: Record<string, unknown> = {}) => {
    clock.advance(minute);
    return svc.memoryStore({ text, ...extra }).fact;
  };

  beforeEach(() => {
    home = tempHome();
    ({ svc, clock } = openService(home));
  });
  afterEach(async () => {
    await svc.close();
    home.cleanup();
  });

  it('recalls the turns that answer a matching question, each saying which turn it replies to', async () => {
    const question = say('Callum: How was Ada\'s birthday party?');
    const reply = say('Hana: Chaos, wonderful chaos.');
    const answer = say('Hana: She loves your present. The microscope has not left her hands.');
    say('Prettier config: single quotes and trailing commas');
    const r = await svc.memoryRecall({ query: 'What present did Callum give Ada for her birthday?' });
    const ids = r.results.map((h) => h.fact.id);
    expect(ids).toContain(reply.id);
    const carried = r.results.find((h) => h.fact.id === reply.id);
    expect(carried?.why.replyTo).toBe(question.id);
    expect(carried?.why.bm25).toBeNull();
    // The answer, two turns on, is in the top five with the question: its own "present" or the question's match.
    expect(ids.slice(0, 5)).toContain(answer.id);
    expect(r.results.find((h) => h.fact.id === question.id)?.why.replyTo).toBeUndefined();
  });

  it('ranks the named speaker\'s turn above an equal match by someone else', async () => {
    const other = say('Callum: The curling club meets on Tuesdays.');
    clock.advance(60 * minute);
    const own = say('Hana: The curling club meets on Tuesdays.');
    const r = await svc.memoryRecall({ query: 'When does Hana say the curling club meets?' });
    expect(r.results.map((h) => h.fact.id).slice(0, 2)).toEqual([own.id, other.id]);
    const [a, b] = r.results;
    // Beyond what the words give (the fused score), the named speaker's turn gets the weight.
    expect(a!.score / a!.why.fused / (b!.score / b!.why.fused)).toBeCloseTo(SPEAKER_NAMED_WEIGHT, 2);
  });

  it('asked when, a turn that says when counts for more; not asked, it does not', async () => {
    say('Josie: Why am I finding out from Instagram that you broke your wrist??');
    const ice = say('Anand: Slipped on black ice outside my building, put my hand out, crack.');
    clock.advance(60 * minute);
    say('Josie: How is the cast on your wrist?');
    const when = say('Anand: Slipped on the stairs last Tuesday, it is the other wrist now.');
    const r = await svc.memoryRecall({ query: 'When did Anand break his wrist?' });
    const ids = r.results.map((h) => h.fact.id);
    expect(ids.indexOf(when.id)).toBeLessThan(ids.indexOf(ice.id));
    const [a, b] = [r.results.find((h) => h.fact.id === when.id), r.results.find((h) => h.fact.id === ice.id)];
    // Beyond what the words give (the fused score), the turn that says when gets the weight (1.5).
    expect(SAYS_WHEN_WEIGHT).toBeGreaterThan(1);
    expect(a!.score / a!.why.fused / (b!.score / b!.why.fused)).toBeCloseTo(SAYS_WHEN_WEIGHT, 1);
    // Not asked when: the same two turns keep the order their words give them.
    const plain = await svc.memoryRecall({ query: 'How did Anand break his wrist?' });
    const [c, d] = [plain.results.find((h) => h.fact.id === when.id), plain.results.find((h) => h.fact.id === ice.id)];
    expect(c!.score / c!.why.fused / (d!.score / d!.why.fused)).toBeCloseTo(1, 1);
  });

  it('asked how much, a turn that gives a number counts for more', async () => {
    const plain = say('Nik: Tara is perfect and very loud, she weighs on my mind all day.');
    clock.advance(60 * minute);
    const weight = say('Nik: Tara was born at 4:12 in the morning, a little girl, 3.4 kilos.');
    clock.advance(60 * minute);
    // The weakest match (fusion scales full text between the best and the weakest), and notes that match nothing.
    say('Sam: I was born in Leeds.');
    for (const note of ['Prettier config: single quotes', 'The boat club opens at nine', 'Backups run nightly', 'The van needs new tyres']) say(note);
    const r = await svc.memoryRecall({ query: 'How much did Tara weigh when she was born?' });
    const [a, b] = [r.results.find((h) => h.fact.id === weight.id), r.results.find((h) => h.fact.id === plain.id)];
    // Beyond what the words give (the fused score), the turn with a number gets the weight (1.5).
    expect(SAYS_NUMBER_WEIGHT).toBeGreaterThan(1);
    expect(a!.score / a!.why.fused / (b!.score / b!.why.fused)).toBeCloseTo(SAYS_NUMBER_WEIGHT, 1);
  });

  it('never carries across scopes, past the exchange\'s window, from a note or for a lookup', async () => {
    const question = say('Oskar: Which ferry did you get to Arran?', { scope: 'agent', scopeAgentId: 'a1' });
    const other = say('Rafa: The 7:05 from Ardrossan.', { scope: 'agent', scopeAgentId: 'a2' });
    const reply = say('Nadia: The early one, it was freezing.', { scope: 'agent', scopeAgentId: 'a1' });
    clock.advance(3 * 60 * minute);
    const late = say('Nadia: Anyway, the chillies are flowering.', { scope: 'agent', scopeAgentId: 'a1' });
    const a1 = await svc.memoryRecall({ query: 'which ferry to Arran' }, agent('a1'));
    const ids = a1.results.map((h) => h.fact.id);
    expect(ids).toContain(question.id);
    expect(a1.results.find((h) => h.fact.id === reply.id)?.why.replyTo).toBe(question.id);
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(late.id);

    say('ferry booking note: arran crossing is booked for june');
    const after = say('Nadia: Sounds good.');
    const fromNote = await svc.memoryRecall({ query: 'when is the arran crossing booked' });
    expect(fromNote.results.map((h) => h.fact.id)).not.toContain(after.id);

    const host = say('Oskar: Is port 8096 the one for jellyfin?');
    const answerToHost = say('Nadia: Yes, and 8920 for https.');
    const lookup = await svc.memoryRecall({ query: 'port 8096' });
    expect(lookup.results.map((h) => h.fact.id)).toContain(host.id);
    expect(lookup.results.map((h) => h.fact.id)).not.toContain(answerToHost.id);
  });

  it('carries into current versions only (unless superseded ones are asked for) and keeps the category asked for', async () => {
    const question = say('Oskar: What colour did you paint the escape room?', { category: 'fact' });
    const reply = say('Nadia: Teal, two coats.', { category: 'fact' });
    const aside = say('Nadia: And the hallway is grey.', { category: 'preference' });
    clock.advance(minute);
    svc.memoryStore({ text: 'Nadia: Teal, three coats in the end.', category: 'fact', supersedes: reply.id });
    const current = await svc.memoryRecall({ query: 'what colour was the escape room painted', category: 'fact' });
    const ids = current.results.map((h) => h.fact.id);
    expect(ids).toContain(question.id);
    expect(ids).not.toContain(reply.id);
    expect(ids).not.toContain(aside.id);
    const all = await svc.memoryRecall({ query: 'what colour was the escape room painted', includeSuperseded: true });
    expect(all.results.find((h) => h.fact.id === reply.id)?.why.replyTo).toBe(question.id);
    expect(all.results.find((h) => h.fact.id === aside.id)?.why.replyTo).toBe(question.id);
  });
});
