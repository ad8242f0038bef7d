/**
 * Shared setup for the dashboard API tests (test/dashboard-api-*.test.ts): the clock's start, the GraphQL
 * selections and result shapes of facts and links, and a small seeded store.
 */
import { expect } from 'vitest';
import type { Caller, Fact } from '../../src/core/types.js';
import type { MemoryService } from '../../src/memory/service.js';

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 5, 1, 12);
const SESSION_CALLER: Caller = { role: 'specialist', agentId: 'a1', sessionId: 's1' };

export const FACT_FIELDS = `id label text category entity tags importance confidence strength cluster decayClass
  decay { class halfLifeDays recency frozen } expiresAt pinned superseded supersededBy supersedes lineageId version
  scope { kind agentId sessionId } createdAt updatedAt lastRecalledAt recallCount`;
export const EDGE_FIELDS = 'id source target linkType strength createdAt updatedAt lastStrengthenedAt reinforcements weak';

export interface GFact {
  id: string;
  label: string;
  text: string;
  category: string;
  entity: string | null;
  tags: string[];
  importance: number;
  confidence: number;
  strength: number;
  cluster: number | null;
  decayClass: string;
  decay: { class: string; halfLifeDays: number | null; recency: number; frozen: boolean };
  expiresAt: number | null;
  pinned: boolean;
  superseded: boolean;
  supersededBy: string | null;
  supersedes: string | null;
  lineageId: string;
  version: number;
  scope: { kind: string; agentId: string | null; sessionId: string | null };
  createdAt: number;
  updatedAt: number;
  lastRecalledAt: number | null;
  recallCount: number;
}
export interface GEdge {
  id: string;
  source: string;
  target: string;
  linkType: string;
  strength: number;
  createdAt: number;
  updatedAt: number;
  lastStrengthenedAt: number | null;
  reinforcements: number;
  weak: boolean;
}
export interface GGraph {
  nodes: GFact[];
  edges: GEdge[];
  truncated: boolean;
}

export const ids = (xs: readonly { id: string }[]): string[] => xs.map((x) => x.id).sort();
export const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/** The seeded store: its facts and links by key, and its one open conflict. */
export interface SeededStore {
  /** Facts by key: pg, cache, deploy, pref, perm, exp, gw1 (edited into gw2), gw2, st1 and st2 (in conflict), note (a session's). */
  readonly f: Record<string, Fact>;
  /** Link ids by key: dep (pg to cache), rel (cache to deploy), contra (st2 contradicts st1). */
  readonly l: Record<string, string>;
  /** The open conflict between st1 and st2. */
  readonly conflictId: string;
}

/** Seeds a service on a clock at T0 with a small store: facts of every kind, links, a conflict, two recalls. */
export async function seedStore(svc: MemoryService): Promise<SeededStore> {
  const f: Record<string, Fact> = {};
  const l: Record<string, string> = {};
  let conflictId = '';
  f.pg = svc.memoryStore({ text: 'Postgres runs on db01 port 5432', category: 'technical', entity: 'db01', importance: 0.9, confidence: 1, tags: ['DB', 'prod'] }).fact;
  f.cache = svc.memoryStore({ text: 'Redis cache runs on cache01', category: 'technical', entity: 'cache01' }).fact;
  f.deploy = svc.memoryStore({ text: 'Deploys happen on Fridays', category: 'decision' }).fact;
  f.pref = svc.memoryStore({ text: 'The user prefers dark mode', category: 'preference', pinned: true }).fact;
  f.perm = svc.memoryStore({ text: 'The company was founded in 2001', decayClass: 'permanent', importance: 0.3, confidence: 1 }).fact;
  f.exp = svc.memoryStore({ text: 'The maintenance window is open', decayClass: 'volatile', expiresAt: T0 + DAY }).fact;
  f.gw1 = svc.memoryStore({ text: 'The API gateway listens on 8080', category: 'technical', entity: 'gateway' }).fact;
  f.gw2 = svc.editFact({ id: f.gw1.id, text: 'The API gateway listens on 8443' });
  f.st1 = svc.memoryStore({ text: 'the staging db port is 5432', category: 'technical', entity: 'staging-db' }).fact;
  const st2 = svc.memoryStore({ text: 'the staging db port is not 5432', category: 'technical', entity: 'staging-db' });
  f.st2 = st2.fact;
  conflictId = st2.conflicts[0]?.id ?? '';
  f.note = svc.memoryStore({ text: 'Session note about the zebra migration' }, SESSION_CALLER).fact;
  l.dep = svc.memoryLink({ sourceId: f.pg.id, targetId: f.cache.id, linkType: 'DEPENDS_ON', strength: 0.8 }).link.id;
  l.rel = svc.memoryLink({ sourceId: f.cache.id, targetId: f.deploy.id }).link.id;
  l.contra = svc.listLinks(undefined, { factId: f.st1.id })[0]?.id ?? '';
  await svc.memoryRecall({ query: 'Postgres' });
  await svc.memoryRecall({ query: 'zebra' }, SESSION_CALLER);
  expect(conflictId).toMatch(/^cf_/);
  expect(l.contra).toMatch(/^link_/);
  return { f, l, conflictId };
}
