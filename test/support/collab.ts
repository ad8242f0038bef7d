/**
 * Collaboration test support: a fresh "world" on a real SQLite file (an org with one member of each
 * role, an outsider, a private, an org-wide and a public space each holding a fact, a pending
 * suggestion and comments), a checksum of every table, and typed-error helpers.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { expect } from 'vitest';
import { CollabService } from '../../src/collab/service.js';
import type { FactComment, FactSuggestion, MemorySpace, Organization, SpaceVisibility } from '../../src/core/collab.js';
import { MemoryError } from '../../src/core/errors.js';
import type { Fact } from '../../src/core/types.js';
import type { MemoryService } from '../../src/memory/service.js';
import { openService, tempHome, type TestHome } from '../helpers.js';

export const OWNER = 'olivia';
export const ADMIN = 'adam';
export const EDITOR = 'erin';
export const VIEWER = 'victor';
export const OUTSIDER = 'oscar';

/** Well-formed ids that name nothing. */
export const GHOST = {
  org: 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  space: 'space_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  suggestion: 'sug_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  comment: 'cmt_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  fact: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV',
} as const;

export interface World {
  readonly home: TestHome;
  readonly svc: MemoryService;
  readonly clock: { now: number; advance(ms: number): void };
  readonly collab: CollabService;
  readonly org: Organization;
  readonly spaces: Readonly<Record<SpaceVisibility, MemorySpace>>;
  /** One fact placed in each space. */
  readonly facts: Readonly<Record<SpaceVisibility, Fact>>;
  /** A fact in memory that is in no space. */
  readonly loose: Fact;
  /** The viewer's pending edit_text suggestion on the org space's fact. */
  readonly suggestion: FactSuggestion;
  /** The owner's pending suggestion in the private space. */
  readonly privateSuggestion: FactSuggestion;
  /** The editor's comment on the org space's fact. */
  readonly comment: FactComment;
  /** The owner's comment in the private space. */
  readonly privateComment: FactComment;
  close(): void;
}

export function makeWorld(): World {
  const home = tempHome();
  const { svc, clock } = openService(home);
  const collab = new CollabService(svc);
  const org = collab.createOrganization(OWNER, { name: 'Acme', plan: 'team' });
  collab.addMember(OWNER, { orgId: org.id, userId: ADMIN, role: 'admin' });
  collab.addMember(OWNER, { orgId: org.id, userId: EDITOR, role: 'editor' });
  collab.addMember(OWNER, { orgId: org.id, userId: VIEWER, role: 'viewer' });
  const spaces = {
    private: collab.createSpace(OWNER, { orgId: org.id, name: 'Secrets', visibility: 'private' }),
    org: collab.createSpace(OWNER, { orgId: org.id, name: 'Team', visibility: 'org' }),
    public: collab.createSpace(OWNER, { orgId: org.id, name: 'Handbook', visibility: 'public' }),
  };
  const texts: Record<SpaceVisibility, string> = {
    private: 'the payroll export runs on the 25th',
    org: 'deploys happen on Tuesdays',
    public: 'office opens at 9',
  };
  const facts = {} as Record<SpaceVisibility, Fact>;
  for (const v of ['private', 'org', 'public'] as const) {
    facts[v] = svc.memoryStore({ text: texts[v], entity: 'Acme' }).fact;
    collab.addFactToSpace(OWNER, { spaceId: spaces[v].id, factId: facts[v].id });
  }
  const loose = svc.memoryStore({ text: 'the coffee machine is on floor 2' }).fact;
  const suggestion = collab.createSuggestion(VIEWER, { spaceId: spaces.org.id, factId: facts.org.id, newText: 'deploys happen on Wednesdays', reason: 'moved last month' });
  const privateSuggestion = collab.createSuggestion(OWNER, { spaceId: spaces.private.id, factId: facts.private.id, newText: 'the payroll export runs on the 26th' });
  const comment = collab.addComment(EDITOR, { spaceId: spaces.org.id, factId: facts.org.id, text: 'is this still true?' });
  const privateComment = collab.addComment(OWNER, { spaceId: spaces.private.id, factId: facts.private.id, text: 'check with finance' });
  clock.advance(1000);
  return {
    home, svc, clock, collab, org, spaces, facts, loose, suggestion, privateSuggestion, comment, privateComment,
    close: () => {
      void svc.close();
      home.cleanup();
    },
  };
}

/** Every table of the database (FTS shadow tables included) but `except`, hashed: any write changes it. */
export function checksum(db: Database, except: readonly string[] = []): string {
  const h = createHash('sha256');
  const tables = (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).pluck().all() as string[]).filter((t) => !except.includes(t));
  for (const t of tables) {
    const rows = db.prepare(`SELECT * FROM "${t}"`).raw().all().map((r) => JSON.stringify(r)).sort();
    h.update(`${t}:${rows.length}:${rows.join('\n')}\n`);
  }
  return h.digest('hex');
}

/** The code of the MemoryError `fn` throws (fails the test when it throws nothing or something else). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof MemoryError) return err.code;
    throw err;
  }
  throw new Error('expected a MemoryError, nothing was thrown');
}

/** `fn` fails with `code` and leaves every table as it was. */
export function expectRefused(db: Database, fn: () => unknown, code: string): MemoryError {
  const before = checksum(db);
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected a MemoryError').toBeInstanceOf(MemoryError);
  const err = caught as MemoryError;
  expect(err.code, err.message).toBe(code);
  expect(checksum(db)).toBe(before);
  return err;
}

export function activityCount(db: Database): number {
  return db.prepare('SELECT count(*) FROM collab_activities').pluck().get() as number;
}
