/**
 * The contradiction rule (issue 21 item 6): conflicts need evidence that two facts disagree (a negation, or
 * a different value for the same attribute), and the reason names it. Pure rule on representative pairs,
 * then the store: templated facts about one entity open no conflicts; a changed port opens exactly one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contradiction } from '../src/core/rules.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const fact = (text: string, entity: string | null = 'e', category = 'technical') => ({ text, entity, category });
/** The reason `newer` (stored after `older`) contradicts it, or null. */
const check = (older: string, newer: string): string | null => contradiction(fact(newer), fact(older))?.reason ?? null;

describe('contradiction rule', () => {
  it.each([
    ['The production Postgres database listens on port 5432.', 'The production Postgres database listens on port 6432.', 'different port: 5432 vs 6432'],
    ['Redis cache is reachable at 10.0.4.12:6379.', 'Redis cache is reachable at 10.0.4.12:6380.', 'different port: 6379 vs 6380'],
    ['The Redis cache lives at 10.0.4.12.', 'The Redis cache lives at 10.0.7.30.', 'different IP: 10.0.4.12 vs 10.0.7.30'],
    ['The Postgres primary runs on db-1.internal.', 'The Postgres primary runs on db-3.internal.', 'different host: db-1.internal vs db-3.internal'],
    ['Server web-1 runs nginx 1.24.', 'Server web-1 runs nginx 1.26.', 'different number: 1.24 vs 1.26'],
    ['We pin React to 18.2.0.', 'We pin React to 18.3.1.', 'different version: 18.2.0 vs 18.3.1'],
    ['Build artifacts are written to /var/build/out.', 'Build artifacts are written to /srv/artifacts.', 'different path: /var/build/out vs /srv/artifacts'],
    ['The Acme contract renews on 2025-06-30.', 'The Acme contract renews on 2025-09-30.', 'different date: 2025-06-30 vs 2025-09-30'],
    ["Bob's birthday is March 14.", "Bob's birthday is May 2.", 'different date: March 14 vs May 2'],
    ['The backup job runs at 02:00 UTC.', 'The backup job runs at 04:30 UTC.', 'different time: 02:00 vs 04:30'],
    ["Alice's email is alice@acme.com.", "Alice's email is alice.m@globex.io.", 'different e-mail: alice@acme.com vs alice.m@globex.io'],
    ['Staging is deployed at https://staging.acme.dev.', 'Staging is deployed at https://stage2.acme.dev.', 'different URL'],
    ['The Pro plan costs $20 per user per month.', 'The Pro plan costs $25 per user per month.', 'different amount: $20 vs $25'],
    ['Alice works at Acme.', 'Alice works at Globex.', 'different name: Acme vs Globex'],
    ['The user prefers tabs for indentation.', 'The user prefers spaces for indentation.', 'different value: tabs vs spaces'],
    ['Pull requests need one approval.', 'Pull requests need two approvals.', 'different number: one vs two'],
    ['The user is vegetarian.', 'The user is not vegetarian.', 'negation: the newer fact says "not"'],
    ['The frontend uses server-side rendering.', "The frontend doesn't use server-side rendering.", `negation: the newer fact says "doesn't"`],
    ['Alice works at Acme.', 'Alice no longer works at Acme.', 'negation: the newer fact says "no longer"'],
    ['The user pays for Spotify Premium.', 'The user cancelled Spotify Premium.', 'negation: the newer fact says "cancelled"'],
    ['Split tunneling is enabled on the VPN.', 'Split tunneling is disabled on the VPN.', 'opposite: enabled vs disabled'],
    ['The app database is Postgres 13.', 'We switched the app database from Postgres 13 to Postgres 16.', 'different number: 13 vs 16 (the newer fact says it changed)'],
  ])('"%s" then "%s": %s', (older, newer, reason) => {
    expect(check(older, newer)).toContain(reason);
  });

  it.each([
    ['templated sibling', 'Server web-1 runs nginx 1.24.', 'Server web-2 runs nginx 1.24.'],
    ['sibling with its own value', 'Server web-1 runs nginx 1.24.', 'Server web-2 runs nginx 1.22.'],
    ['sibling named by a word', 'The payments service is owned by team Falcon.', 'The ledger service is owned by team Falcon.'],
    ['sibling host', 'api.acme.com resolves to 203.0.113.10.', 'www.acme.com resolves to 203.0.113.10.'],
    ['task ids', 'Task 12 of the demo project is assigned to Ana.', 'Task 13 of the demo project is assigned to Ben.'],
    ['restatement', 'The production Postgres database listens on port 5432.', 'Prod Postgres uses port 5432.'],
    ['restatement with punctuation', 'The db port is 5432', 'the DB port is 5432!'],
    ['addition', 'Redis is used for session caching.', 'Redis is used for session caching and rate limiting.'],
    ['different attribute', 'The API gateway timeout is 30 seconds.', 'The API gateway rate limit is 100 requests per second.'],
    ['start vs end', 'The deploy freeze starts on 2024-12-15.', 'The deploy freeze ends on 2025-01-06.'],
    ['different years', 'The 2024 marketing budget was $300k.', 'The 2025 marketing budget is $400k.'],
    ['many-valued verb', 'The user likes Python.', 'The user likes Rust.'],
    ['count of something else', 'We plan to hire 5 engineers this quarter.', 'We plan to hire 2 designers this quarter.'],
    ['negated other value', 'The search service is not built on Solr.', 'The search service is built on Elasticsearch.'],
    ['both negated', 'The cache does not use port 6379.', 'The cache does not use port 6380.'],
    ['fuller name', "The user's name is Sam.", "The user's name is Samuel Park."],
  ])('%s: no conflict', (_why, older, newer) => {
    expect(check(older, newer)).toBeNull();
  });

  it('needs the same non-empty entity and category', () => {
    const [a, b] = ['The db port is 5432', 'The db port is 6543'];
    expect(contradiction(fact(b), fact(a))).not.toBeNull();
    expect(contradiction(fact(b, 'cache'), fact(a, 'db'))).toBeNull();
    expect(contradiction(fact(b, null), fact(a, null))).toBeNull();
    expect(contradiction(fact(b, 'e', 'fact'), fact(a, 'e', 'technical'))).toBeNull();
  });
});

describe('conflicts in the store', () => {
  let home: TestHome;
  let svc: MemoryService;
  beforeEach(() => {
    home = tempHome();
    ({ svc } = openService(home));
  });
  afterEach(() => {
    svc.close();
    home.cleanup();
  });

  it('30 templated facts about one entity open no conflicts; a changed port opens exactly one, naming both values', () => {
    const store = (text: string, entity: string) => svc.memoryStore({ text, entity, category: 'technical' });
    for (let i = 1; i <= 10; i++) {
      store(`Server web-${i} runs nginx 1.24 in rack R${i % 3}.`, 'web-fleet');
      store(`Service svc-${i} listens on port ${8000 + i}.`, 'web-fleet');
      store(`Host node-${String(i).padStart(2, '0')} has IP 10.1.0.${10 + i} and ${i % 2 ? 16 : 32} GB of RAM.`, 'web-fleet');
    }
    expect(svc.stats().totalFacts).toBe(30);
    expect(svc.listConflicts()).toHaveLength(0);

    store('The orders database listens on port 5432.', 'orders-db');
    const changed = store('The orders database listens on port 6432.', 'orders-db');
    expect(changed.conflicts).toHaveLength(1);
    expect(changed.conflicts[0]?.reason).toBe('different port: 5432 vs 6432');
    expect(svc.listConflicts()).toHaveLength(1);
  });
});
