/**
 * Schema v3 on an existing v2 database: a database written by the v2 schema (with facts in it) opens,
 * gains the collaboration tables in one migration, keeps every fact, and the collaboration service works
 * on those facts.
 */
import type { Database as Db } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CollabService } from '../src/collab/service.js';
import { newFactId } from '../src/core/ids.js';
import { GLOBAL_SCOPE } from '../src/core/types.js';
import { MemoryService } from '../src/memory/service.js';
import { openDatabase } from '../src/store/db.js';
import { FactRepo } from '../src/store/facts.js';
import { MIGRATIONS, schemaVersion } from '../src/store/migrations.js';
import { tempHome, type TestHome } from './helpers.js';

const COLLAB_TABLES = ['collab_activities', 'collab_comments', 'collab_members', 'collab_orgs', 'collab_space_facts', 'collab_space_permissions', 'collab_spaces', 'collab_suggestions'];

function tables(db: Db): string[] {
  return db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'collab_%' ORDER BY name`).pluck().all() as string[];
}

describe('migration v3 (collaboration)', () => {
  let home: TestHome;
  afterEach(() => home.cleanup());

  it('is migration 3 and adds exactly the collaboration tables', () => {
    home = tempHome();
    expect(MIGRATIONS.find((m) => m.version === 3)?.name).toMatch(/^collaboration/);
    const db = openDatabase(home.config.dbPath);
    try {
      expect(tables(db)).toEqual(COLLAB_TABLES);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('applies to an existing v2 database with facts, which keep working under collaboration', async () => {
    home = tempHome();
    // A database as the v2 build left it, with two facts written by the store.
    const v2 = openDatabase(home.config.dbPath, { migrations: MIGRATIONS.filter((m) => m.version <= 2) });
    const t = Date.UTC(2025, 11, 1);
    const ids = ['the VPN gateway is vpn.acme.test', 'backups run nightly'].map((text) => {
      const id = newFactId(t);
      new FactRepo(v2).insert({
        id, text, category: 'fact', entity: 'Ops', tags: [], importance: 0.5, confidence: 0.8, decayClass: 'stable', expiresAt: null, pinned: false,
        scope: GLOBAL_SCOPE, lineageId: id, version: 1, supersedes: null, createdAt: t, updatedAt: t, validFrom: t, episodeId: null, vaultService: null, source: 'tool', strength: 0.5,
      });
      return id;
    });
    expect(schemaVersion(v2)).toBe(2);
    expect(tables(v2)).toEqual([]);
    const before = v2.prepare('SELECT * FROM facts ORDER BY seq').all();
    v2.close();

    const svc = MemoryService.open({ config: home.config, env: home.env });
    try {
      const applied = svc.db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
      expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(applied.find((r) => r.version === 3)?.name).toMatch(/^collaboration/);
      expect(tables(svc.db)).toEqual(COLLAB_TABLES);
      expect(svc.db.prepare('SELECT * FROM facts ORDER BY seq').all()).toEqual(before);
      expect(svc.db.pragma('integrity_check', { simple: true })).toBe('ok');

      const collab = new CollabService(svc);
      const org = collab.createOrganization('olivia', { name: 'Acme' });
      const space = collab.createSpace('olivia', { orgId: org.id, name: 'Ops' });
      for (const id of ids) collab.addFactToSpace('olivia', { spaceId: space.id, factId: id });
      const s = collab.createSuggestion('olivia', { spaceId: space.id, factId: ids[0] as string, newText: 'the VPN gateway is vpn2.acme.test' });
      const accepted = collab.acceptSuggestion('olivia', s.id);
      expect(svc.getFact(accepted.appliedFactId as string)).toMatchObject({ text: 'the VPN gateway is vpn2.acme.test', version: 2, lineageId: ids[0] });
      expect(collab.listSpaceFacts('olivia', space.id).map((f) => f.text)).toEqual(['the VPN gateway is vpn2.acme.test', 'backups run nightly']);
    } finally {
      await svc.close();
    }

    // Reopening applies nothing more and keeps the collaboration rows.
    const again = openDatabase(home.config.dbPath);
    try {
      expect(again.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length);
      expect(again.prepare('SELECT count(*) FROM collab_space_facts').pluck().get()).toBe(2);
    } finally {
      again.close();
    }
  });
});
