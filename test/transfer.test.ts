/** Export and import (src/memory/transfer.ts) through MemoryService, on real SQLite files. */
import { sqliteDriver } from '../src/store/native.js';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import type { MemoryService } from '../src/memory/service.js';
import { EXPORT_FORMAT, type ExportDocument } from '../src/memory/transfer.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const Database = sqliteDriver();

const KEY = 'ab'.repeat(32);
const homes: TestHome[] = [];
const services: MemoryService[] = [];

function fresh(start = Date.UTC(2026, 0, 1)) {
  const home = tempHome();
  Object.assign(home.env, { HYBRID_MEM_VAULT_KEY: KEY });
  homes.push(home);
  const opened = openService(home, start);
  services.push(opened.svc);
  return { home, ...opened };
}

/** A checksum of everything a user could notice changing. */
function checksum(svc: MemoryService): string {
  const dump = ['facts', 'links', 'vault', 'events', 'conflicts'].map((t) => svc.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());
  return createHash('sha256').update(JSON.stringify(dump)).digest('hex');
}

function failure(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    return err as MemoryError;
  }
  throw new Error('expected a MemoryError');
}

/** Three facts in three scopes, a vault credential (pointer fact), and two links. */
function seed(svc: MemoryService) {
  const a = svc.memoryStore({ text: 'The staging host is stage.example.com', category: 'technical', entity: 'staging', tags: ['Infra', 'ssh'], importance: 0.9, pinned: true });
  const b = svc.memoryStore({ text: 'Ops agent prefers blue-green deploys', category: 'preference', scope: 'agent', scopeAgentId: 'ops' });
  const c = svc.memoryStore({ text: 'This session is migrating the database', scope: 'session', scopeSessionId: 's1', scopeAgentId: 'ops', expiresAt: Date.UTC(2027, 0, 1) });
  svc.vaultPut({ service: 'github', type: 'token', secret: 'ghp_SECRET_VALUE_123', note: 'CI token' });
  const l1 = svc.memoryLink({ sourceId: a.fact.id, targetId: b.fact.id, linkType: 'DEPENDS_ON', strength: 0.7 });
  const l2 = svc.memoryLink({ sourceId: c.fact.id, targetId: a.fact.id });
  return { a: a.fact, b: b.fact, c: c.fact, links: [l1.link, l2.link] };
}

const comparable = (f: { text: string; category: string; entity: string | null; tags: readonly string[]; importance: number; pinned: boolean; scope: unknown; vaultService: string | null; expiresAt: string | null }) => ({
  text: f.text,
  category: f.category,
  entity: f.entity,
  tags: f.tags,
  importance: f.importance,
  pinned: f.pinned,
  scope: f.scope,
  vaultService: f.vaultService,
  expiresAt: f.expiresAt,
});

beforeEach(() => {
  homes.length = 0;
  services.length = 0;
});

afterEach(() => {
  for (const s of services) s.close();
  for (const h of homes) h.cleanup();
});

describe('export', () => {
  it('writes the documented format: current facts with scope and vault pointer, links, vault pointers without secrets', () => {
    const { svc } = fresh();
    const { a, links } = seed(svc);
    const doc = svc.exportData();
    expect(doc).toMatchObject({ format: EXPORT_FORMAT, version: 1 });
    expect(doc.facts).toHaveLength(4);
    expect(doc.facts.find((f) => f.id === a.id)).toMatchObject({ scope: { kind: 'global' }, tags: ['infra', 'ssh'], pinned: true, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(doc.facts.find((f) => f.vaultService === 'github')?.text).toContain('stored in secure vault');
    expect(doc.links.map((l) => l.id).sort()).toEqual(links.map((l) => l.id).sort());
    expect(doc.vault).toEqual([{ service: 'github', type: 'token', scope: { kind: 'global', agentId: null, sessionId: null }, note: 'CI token' }]);
    expect(JSON.stringify(doc)).not.toContain('ghp_SECRET_VALUE_123');
  });

  it('exports current facts only unless allVersions is asked for', () => {
    const { svc, clock } = fresh();
    const v1 = svc.memoryStore({ text: 'The API limit is 100 requests' }).fact;
    clock.advance(1000);
    const v2 = svc.editFact({ id: v1.id, text: 'The API limit is 200 requests' });
    expect(svc.exportData().facts.map((f) => f.id)).toEqual([v2.id]);
    const all = svc.exportData({ allVersions: true });
    expect(all.facts.map((f) => f.id)).toEqual([v1.id, v2.id]);
    expect(all.facts[0]).toMatchObject({ supersededBy: v2.id, validUntil: '2026-01-01T00:00:01.000Z' });
    expect(all.links).toEqual([expect.objectContaining({ sourceId: v2.id, targetId: v1.id, linkType: 'SUPERSEDES' })]);
  });
});

describe('import', () => {
  it('round-trips facts (scope, tags, vault pointers) and links into a fresh database', () => {
    const src = fresh().svc;
    seed(src);
    const doc = src.exportData();
    const { svc } = fresh(Date.UTC(2026, 1, 1));
    const report = svc.importData(doc);
    expect(report).toMatchObject({ dryRun: false, imported: { facts: 4, links: 2 }, skipped: [] });
    expect(report.vaultMissing).toEqual([expect.objectContaining({ service: 'github', type: 'token' })]);
    const back = svc.exportData();
    expect(back.facts.map(comparable)).toEqual(doc.facts.map(comparable));
    expect(back.facts.map((f) => f.id)).toEqual(doc.facts.map((f) => f.id));
    expect(back.links.map(({ sourceId, targetId, linkType, strength }) => ({ sourceId, targetId, linkType, strength }))).toEqual(
      doc.links.map(({ sourceId, targetId, linkType, strength }) => ({ sourceId, targetId, linkType, strength })),
    );
    expect(svc.getFact(doc.facts[0]?.id ?? '').source).toBe('import');
    // The pointer is recall-able; storing the secret later reuses it instead of adding a second one.
    svc.vaultPut({ service: 'github', type: 'token', secret: 'again' });
    expect(svc.listFacts({ entity: 'Credentials' })).toHaveLength(1);
  });

  it('importing the same file twice adds nothing and reports every record as a duplicate', () => {
    const src = fresh().svc;
    seed(src);
    const doc = src.exportData();
    const { svc } = fresh();
    svc.importData(doc);
    const before = checksum(svc);
    const again = svc.importData(doc);
    expect(again.imported).toEqual({ facts: 0, links: 0 });
    expect(again.skipped.map((s) => s.cause)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(checksum(svc)).toBe(before);
  });

  it('skips, per record, invalid fields (with their path), duplicates by content, expired facts and unknown link ends', () => {
    const { svc } = fresh();
    const existing = svc.memoryStore({ text: 'Already here' }).fact;
    const doc = {
      format: EXPORT_FORMAT,
      version: 1,
      facts: [
        { id: 'fact_01JAAAAAAAAAAAAAAAAAAAAAAA', text: 'Kept fact' },
        { text: 'Bad importance', importance: 3 },
        { text: 'Already here' },
        { text: 'Long gone', expiresAt: '2025-01-01T00:00:00Z' },
        { text: 'Bad scope', scope: { kind: 'agent' } },
        { text: 'Unknown field', colour: 'red' },
      ],
      links: [
        { sourceId: 'fact_01JAAAAAAAAAAAAAAAAAAAAAAA', targetId: existing.id, linkType: 'PART_OF' },
        { sourceId: 'fact_01JAAAAAAAAAAAAAAAAAAAAAAA', targetId: 'fact_01JZZZZZZZZZZZZZZZZZZZZZZZ' },
        { sourceId: 'fact_01JAAAAAAAAAAAAAAAAAAAAAAA', targetId: existing.id, linkType: 'LIKES' },
      ],
      vault: [{ service: 'db', type: 'password', secret: 'nope' }],
    };
    const r = svc.importData(doc);
    expect(r.imported).toEqual({ facts: 1, links: 1 });
    const reasons = r.skipped.map((s) => `${s.kind}#${s.index} ${s.cause}: ${s.reason}`);
    expect(reasons).toEqual([
      'fact#1 invalid: facts.1.importance: expected a number <= 1, received 3',
      `fact#2 duplicate: same as current fact ${existing.id}`,
      'fact#3 expired: fact expired at 2025-01-01T00:00:00.000Z',
      'fact#4 invalid: facts.4.scope.agentId: expected an agentId for agent scope, received nothing',
      'fact#5 invalid: facts.5: expected only known fields, received unknown field(s) colour',
      'link#1 unknown_endpoint: links.1.targetId: unknown fact fact_01JZZZZZZZZZZZZZZZZZZZZZZZ (neither in the file nor in this database)',
      expect.stringMatching(/^link#2 invalid: links\.2\.linkType: expected one of "RELATED_TO"/),
      'vault#0 invalid: vault.0: expected only known fields, received unknown field(s) secret',
    ]);
    expect(svc.listLinks()).toEqual([expect.objectContaining({ sourceId: 'fact_01JAAAAAAAAAAAAAAAAAAAAAAA', targetId: existing.id, linkType: 'PART_OF' })]);
  });

  it('strict refuses the whole file when a record is invalid, writing nothing', () => {
    const { svc } = fresh();
    svc.memoryStore({ text: 'seed' });
    const before = checksum(svc);
    const err = failure(() => svc.importData({ format: EXPORT_FORMAT, version: 1, facts: [{ text: 'fine' }, { text: '' }] }, { strict: true }));
    expect(err.code).toBe('MEM_ERR_IMPORT_FORMAT');
    expect(err.message).toContain('facts.1.text');
    expect(checksum(svc)).toBe(before);
  });

  it('a dry run reports exactly what a real run does and writes nothing', () => {
    const src = fresh().svc;
    seed(src);
    const doc = src.exportData();
    const { svc } = fresh();
    const before = checksum(svc);
    const dry = svc.importData(doc, { dryRun: true });
    expect(checksum(svc)).toBe(before);
    const real = svc.importData(doc);
    expect({ ...dry, dryRun: false }).toEqual(real);
  });

  it('refuses a document that is not in the export format, naming the field', () => {
    const { svc } = fresh();
    svc.memoryStore({ text: 'seed' });
    const before = checksum(svc);
    for (const doc of [null, [], { format: 'other', version: 1 }, { format: EXPORT_FORMAT, version: 2 }, { format: EXPORT_FORMAT, version: 1, facts: {} }]) {
      expect(failure(() => svc.importData(doc)).code).toBe('MEM_ERR_IMPORT_FORMAT');
    }
    expect(failure(() => svc.importData({ format: EXPORT_FORMAT, version: 2 })).message).toContain('import.version: expected one of 1, received 2');
    expect(checksum(svc)).toBe(before);
  });

  it('is all or nothing: a failure while writing leaves no fact behind', () => {
    const src = fresh().svc;
    seed(src);
    const doc = src.exportData();
    const { svc } = fresh();
    // Fault injection in the real database file: every link insert fails, after the facts were written.
    svc.db.exec(`CREATE TRIGGER no_links BEFORE INSERT ON links BEGIN SELECT RAISE(ABORT, 'disk trouble'); END;`);
    const before = checksum(svc);
    const err = failure(() => svc.importData(doc));
    expect(err.isUserError).toBe(false);
    expect(checksum(svc)).toBe(before);
    expect(svc.listFacts()).toEqual([]);
  });

  it('restores whole version chains, and a newer version from the file supersedes the current one here', () => {
    const src = fresh();
    const v1 = src.svc.memoryStore({ text: 'The API limit is 100 requests', entity: 'api' }).fact;
    const target = fresh(Date.UTC(2026, 0, 2));
    target.svc.importData(src.svc.exportData()); // v1 only
    src.clock.advance(60_000);
    const v2 = src.svc.editFact({ id: v1.id, text: 'The API limit is 200 requests' });
    const r = target.svc.importData(src.svc.exportData({ allVersions: true }));
    expect(r.imported.facts).toBe(1);
    expect(target.svc.listFacts().map((f) => f.id)).toEqual([v2.id]);
    expect(target.svc.history(v2.id).map((f) => [f.id, f.version])).toEqual([
      [v1.id, 1],
      [v2.id, 2],
    ]);
    // Into a fresh database, the chain arrives as history plus the current version.
    const other = fresh(Date.UTC(2026, 0, 3));
    expect(other.svc.importData(src.svc.exportData({ allVersions: true })).imported).toEqual({ facts: 2, links: 1 });
    expect(other.svc.history(v1.id).map((f) => [f.id, f.supersededBy])).toEqual([
      [v1.id, v2.id],
      [v2.id, null],
    ]);
    expect(other.svc.listFacts().map((f) => f.id)).toEqual([v2.id]);
  });

  it('does not let an older copy replace a newer version made here', () => {
    const src = fresh();
    const v1 = src.svc.memoryStore({ text: 'Standup is at 9' }).fact;
    const doc: ExportDocument = src.svc.exportData();
    const target = fresh(Date.UTC(2026, 0, 2));
    target.svc.importData(doc);
    const mine = target.svc.editFact({ id: v1.id, text: 'Standup is at 10' });
    const rewritten = { ...doc, facts: doc.facts.map((f) => ({ ...f, id: 'fact_01JBBBBBBBBBBBBBBBBBBBBBBB', text: 'Standup is at 8' })) };
    const r = target.svc.importData(rewritten);
    expect(r.skipped).toEqual([{ kind: 'fact', index: 0, cause: 'stale', reason: `this database has a newer version ${mine.id}` }]);
  });

  it('exports only what the caller may see', () => {
    const { svc } = fresh();
    seed(svc);
    const asSpecialist = svc.exportData({}, { role: 'specialist', agentId: 'other', sessionId: null });
    expect(asSpecialist.facts.map((f) => f.scope.kind).sort()).toEqual(['global', 'global']);
    const db = new Database(svc.config.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(4);
    db.close();
  });
});

describe('progress', () => {
  it('export and import report how far they have got: counts rise to the total, and end at it', () => {
    const { svc } = fresh();
    for (let i = 0; i < 2100; i++) svc.memoryStore({ text: `Service ${i} listens on port ${10_000 + i}` });
    const exported: { done: number; total: number }[] = [];
    const doc = svc.exportData({ onProgress: (p) => exported.push(p) });
    expect(doc.facts).toHaveLength(2100);
    expect(exported.map((p) => p.done)).toEqual([1000, 2000, 2100]);
    expect(exported.every((p) => p.done <= p.total)).toBe(true);
    expect(exported.at(-1)).toEqual({ done: 2100, total: 2100 });

    const target = fresh().svc;
    const imported: { done: number; total: number }[] = [];
    const report = target.importData(doc, { onProgress: (p) => imported.push(p) });
    expect(report.imported.facts).toBe(2100);
    expect(imported).toHaveLength(2100);
    expect(imported.every((p, i) => p.done === i + 1 && p.total === 2100)).toBe(true);
  });
});
