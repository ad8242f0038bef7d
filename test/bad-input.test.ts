/**
 * Bad input to every agent tool and curation call: a clear typed error, and the database unchanged
 * (every table's content hashed before and after).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

let home: TestHome;
let svc: MemoryService;
let factId: string;
let otherId: string;
let linkId: string;
const GHOST = 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const specialist = { role: 'specialist' as const, agentId: 'a1', sessionId: 's1' };

function dump(): string {
  const h = createHash('sha256');
  for (const t of ['facts', 'links', 'conflicts', 'episodes', 'recall_events', 'events', 'vault', 'facts_fts_docsize']) {
    h.update(JSON.stringify(svc.db.prepare(`SELECT * FROM ${t}`).raw().all()));
  }
  return h.digest('hex');
}

beforeAll(() => {
  home = tempHome();
  ({ svc } = openService(home));
  factId = svc.memoryStore({ text: 'The build server is ci01', entity: 'ci' }).fact.id;
  otherId = svc.memoryStore({ text: 'ci01 runs Ubuntu', scope: 'agent', scopeAgentId: 'a2' }).fact.id;
  const third = svc.memoryStore({ text: 'Artifacts go to S3' }).fact.id;
  linkId = svc.memoryLink({ sourceId: factId, targetId: third }).link.id;
  svc.vaultPut({ service: 'ci', secret: 'ci-secret' });
});
afterAll(() => {
  svc.close();
  home.cleanup();
});

type Case = readonly [name: string, code: string, call: () => unknown];
const cases = (): Case[] => [
  ['store: empty text', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: '   ' })],
  ['store: text too long', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x'.repeat(10_001) })],
  ['store: unknown category', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', category: 'gossip' as never })],
  ['store: importance out of range', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', importance: 1.5 })],
  ['store: NaN confidence', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', confidence: Number.NaN })],
  ['store: bad decay class', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', decayClass: 'forever' as never })],
  ['store: bad expiry', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', expiresAt: 'tomorrow' as never })],
  ['store: unknown field', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', colour: 'red' } as never)],
  ['store: tags not strings', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', tags: [1] as never })],
  ['store: too many tags', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', tags: Array.from({ length: 33 }, (_, i) => `t${i}`) })],
  ['store: session scope without session', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', scope: 'session' })],
  ['store: specialist writing for another agent', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x', scope: 'agent', scopeAgentId: 'a2' }, specialist)],
  ['store: supersedes unknown fact', 'MEM_ERR_FACT_NOT_FOUND', () => svc.memoryStore({ text: 'x', supersedes: GHOST })],
  ['store: bad caller', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore({ text: 'x' }, { role: 'root' } as never)],
  ['store: not an object', 'MEM_ERR_INVALID_INPUT', () => svc.memoryStore('text' as never)],
  ['link: malformed id', 'MEM_ERR_INVALID_INPUT', () => svc.memoryLink({ sourceId: 'abc', targetId: factId })],
  ['link: unknown target', 'MEM_ERR_FACT_NOT_FOUND', () => svc.memoryLink({ sourceId: factId, targetId: GHOST })],
  ['link: self', 'MEM_ERR_LINK_SELF', () => svc.memoryLink({ sourceId: factId, targetId: factId })],
  ['link: out of scope', 'MEM_ERR_FACT_NOT_FOUND', () => svc.memoryLink({ sourceId: factId, targetId: otherId }, specialist)],
  ['link: strength out of range', 'MEM_ERR_INVALID_INPUT', () => svc.memoryLink({ sourceId: factId, targetId: otherId, strength: 2 })],
  ['recall: no words', 'MEM_ERR_QUERY_EMPTY', () => svc.memoryRecall({ query: ' "" *** ' })],
  ['recall: limit too big', 'MEM_ERR_INVALID_INPUT', () => svc.memoryRecall({ query: 'ci', limit: 1000 })],
  ['recall: query too long', 'MEM_ERR_INVALID_INPUT', () => svc.memoryRecall({ query: 'x'.repeat(1001) })],
  ['credential_get: empty service', 'MEM_ERR_INVALID_INPUT', () => svc.credentialGet({ service: '' })],
  ['credential_get: unknown service', 'MEM_ERR_CREDENTIAL_NOT_FOUND', () => svc.credentialGet({ service: 'nope' })],
  ['vault put: empty secret', 'MEM_ERR_INVALID_INPUT', () => svc.vaultPut({ service: 'x', secret: '' })],
  ['vault put: bad type', 'MEM_ERR_INVALID_INPUT', () => svc.vaultPut({ service: 'x', secret: 's', type: 'pin' as never })],
  ['edit: nothing to change', 'MEM_ERR_INVALID_INPUT', () => svc.editFact({ id: factId })],
  ['edit: unknown fact', 'MEM_ERR_FACT_NOT_FOUND', () => svc.editFact({ id: GHOST, text: 'y' })],
  ['edit: out of scope', 'MEM_ERR_FACT_NOT_FOUND', () => svc.editFact({ id: otherId, text: 'y' }, specialist)],
  ['delete: malformed id', 'MEM_ERR_INVALID_INPUT', () => svc.deleteFact('../etc/passwd')],
  ['delete: unknown', 'MEM_ERR_FACT_NOT_FOUND', () => svc.deleteFact(GHOST)],
  ['pin: out of scope', 'MEM_ERR_FACT_NOT_FOUND', () => svc.pin(otherId, specialist)],
  ['change link type: bad type', 'MEM_ERR_INVALID_INPUT', () => svc.changeLinkType({ id: linkId, linkType: 'LOVES' })],
  ['change link type: unknown link', 'MEM_ERR_LINK_NOT_FOUND', () => svc.changeLinkType({ id: 'link_01ARZ3NDEKTSV4RRFFQ69G5FAV', linkType: 'PART_OF' })],
  ['cut link: malformed', 'MEM_ERR_INVALID_INPUT', () => svc.cutLink('x')],
  ['resolve: unknown conflict', 'MEM_ERR_CONFLICT_NOT_FOUND', () => svc.resolveConflict({ id: 'cf_01ARZ3NDEKTSV4RRFFQ69G5FAV', resolution: 'keep_new' })],
  ['resolve: bad resolution', 'MEM_ERR_INVALID_INPUT', () => svc.resolveConflict({ id: 'cf_01ARZ3NDEKTSV4RRFFQ69G5FAV', resolution: 'merge' })],
];

describe('bad input changes nothing', () => {
  it.each(cases().map((c) => [c[0], c] as const))('%s', async (_name, [, code, call]) => {
    const before = dump();
    let thrown: unknown;
    try {
      await call();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ name: 'MemoryError', code });
    expect((thrown as Error).message.length).toBeGreaterThan(5);
    expect(dump()).toBe(before);
  });

  it('names the field, what was expected and what arrived', () => {
    expect(() => svc.memoryStore({ text: 'x', importance: 7 })).toThrow('memory_store.importance: expected a number <= 1, received 7');
    expect(() => svc.memoryStore({ text: 'x', category: 'gossip' as never })).toThrow(/memory_store\.category: expected one of "preference", .*received "gossip"/);
  });
});

describe('secrets never appear in error messages', () => {
  it('hides a rejected secret value', () => {
    const secret = 'S'.repeat(70_000);
    expect(() => svc.vaultPut({ service: 'x', secret })).toThrow(/secret: expected at most 65536 characters, received \(hidden string\)/);
  });
});
