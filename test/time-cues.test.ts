/** Time in recall queries and in fact texts (src/core/time-cues.ts). */
import { describe, expect, it } from 'vitest';
import { asksNumber, asksWhen, dateInText, saysNumber, saysWhen, timeCues, timeWeights } from '../src/core/time-cues.js';

const NOW = Date.UTC(2026, 4, 20); // 20 May 2026
const day = (y: number, m: number, d = 1) => Date.UTC(y, m - 1, d);

describe('time cues in a query', () => {
  it.each([
    ['who was on call back in March 2025', [day(2025, 3), day(2025, 4)]],
    ['what GitLab version was running in summer 2025', [day(2025, 6), day(2025, 9)]],
    ['which PHP version did vps-1 run in autumn 2025', [day(2025, 9), day(2025, 12)]],
    ['which machine ran Immich before January 2026', [0, day(2026, 1)]],
    ['what changed after March 2025', [day(2025, 4), Number.MAX_SAFE_INTEGER]],
    ['anything from 2024?', [day(2024, 1), day(2025, 1)]],
    ['what did we decide in March', [day(2026, 3), day(2026, 4)]],
    ['what did we decide in June', [day(2025, 6), day(2025, 7)]],
  ])('%s', (query, range) => {
    expect(timeCues(query, NOW).range).toEqual(range);
  });

  it('reads "last week" and "last month" relative to now', () => {
    expect(timeCues('what broke last week', NOW).range).toEqual([NOW - 14 * 86_400_000, NOW]);
    expect(timeCues('the incident last month', NOW).range?.[1]).toBe(NOW);
  });

  it('asks for the newest or the first state', () => {
    expect(timeCues('what is the current retry policy', NOW).prefer).toBe('recent');
    expect(timeCues('the most recent incident with the gateways', NOW).prefer).toBe('recent');
    expect(timeCues('The last time Maya talked about pottery', NOW).prefer).toBe('recent');
    expect(timeCues('which database did we first pick', NOW).prefer).toBe('early');
    expect(timeCues('which port does the billing api listen on', NOW)).toEqual({ range: null, prefer: null });
  });

  it('"may" alone is a verb, not a month', () => {
    expect(timeCues('what may break the build', NOW).range).toBeNull();
    expect(timeCues('what happened in May 2025', NOW).range).toEqual([day(2025, 5), day(2025, 6)]);
  });
});

describe('dates a fact opens with', () => {
  it.each([
    ['[2025-03-14] Maya: we got the keys today', day(2025, 3, 14)],
    ['14 March 2025, Leo: race day', day(2025, 3, 14)],
    ['On March 14, 2025 the pilot went live', day(2025, 3, 14)],
    ['March 2025: moved to Bristol', day(2025, 3, 15)],
  ])('%s', (text, t) => {
    expect(dateInText(text)).toBe(t);
  });

  it('ignores dates deep in the text (what it talks about, not when it happened) and texts without one', () => {
    expect(dateInText('The TLS certificate for the mail relay has to be renewed before 2027-01-31')).toBeNull();
    expect(dateInText('Postgres runs on port 5432')).toBeNull();
  });
});

describe('time weights', () => {
  it('outside the span a fact keeps half its weight; asked for the newest, the newest gains most', () => {
    const times = [day(2025, 3, 10), day(2025, 6, 1), day(2025, 9, 1)];
    expect(timeWeights({ range: [day(2025, 3), day(2025, 4)], prefer: null }, times)).toEqual([1, 0.5, 0.5]);
    const recent = timeWeights({ range: null, prefer: 'recent' }, times);
    expect(recent[2]).toBe(1);
    expect(recent[0]).toBeCloseTo(1 / 1.5);
    expect(recent[1]).toBeGreaterThan(recent[0] as number);
    const early = timeWeights({ range: null, prefer: 'early' }, times);
    expect(early[0]).toBe(1);
  });
});

describe('asked when, said when', () => {
  it.each([
    ['When did Anand break his wrist?', true],
    ['what day did the van get delivered', true],
    ['In which year did Josie start at Kettle Point?', true],
    ['How long ago did they move?', true],
    ['Where did Biscuit hide after the move?', false],
    ['Who said when the ferry leaves?', false],
  ])('%j asks when: %s', (query, asks) => {
    expect(asksWhen(query)).toBe(asks);
  });

  it.each([
    ['Slipped on black ice outside my building last Tuesday.', true],
    ['Two weeks ago Monday. I have three people under me now.', true],
    ['Paid $26,400 at a dealer in Bedford on Thursday.', true],
    ['We ended up doing the move three weeks ago today.', true],
    ['The regatta is on the 2nd of August.', true],
    ['Moved in back in 2019.', true],
    ['Three legs, zero shame.', false],
    ['Priya and Dylan carried my couch up three flights.', false],
    // A dialogue turn's time stamp is when it was said, not what it says.
    ['[2023-05-08 13:56] Maya: Priya carried my couch up.', false],
  ])('%j says when: %s', (text, says) => {
    expect(saysWhen(text)).toBe(says);
  });
});

describe('asked how much, said a number', () => {
  it.each([
    ['How much did Tara weigh when she was born?', true],
    ['how many hens does Ruth keep', true],
    ['What time did the winner finish in?', true],
    ['What did Kylie do after the interview?', false],
    ['Who has 3 dogs?', false],
  ])('%j asks how much: %s', (query, asks) => {
    expect(asksNumber(query)).toBe(asks);
  });

  it.each([
    ['Nik: Tuesday, 4:12 in the morning. A little girl, 3.4 kilos.', true],
    ['Odette: Talked for four hours.', true],
    ['Nik: She is perfect and very loud.', false],
    // The speaker's name is not read: "Seven" is who speaks.
    ['Seven: no idea, ask her', false],
    ['[2023-05-08 13:56] Nik: She is perfect and very loud.', false],
  ])('%j says a number: %s', (text, says) => {
    expect(saysNumber(text)).toBe(says);
  });
});
