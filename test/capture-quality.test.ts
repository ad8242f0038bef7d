/**
 * Auto-capture on every labeled conversation of eval/capture/sets, stored for real (not a dry run) by the
 * service as a gateway runs it: the real semantic layer for the sentence classifier, each conversation's
 * earlier memory in its own agent's scope. No secret of any conversation may be anywhere in the database
 * file afterwards (facts, versions, event log, recall history), and capture must keep the quality it
 * reached (in-sample: the shipped classifier was fit on these sets; eval:capture:train gives the held-out
 * figures).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyScore, loadConversations, precision, recall, scoreConversation, type Conversation } from '../eval/capture/score.js';
import type { Category } from '../src/core/types.js';
import { openMemory } from '../src/main.js';
import type { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

describe('auto-capture on the labeled conversations (stored for real)', { timeout: 600_000 }, () => {
  let home: TestHome;
  let svc: MemoryService;
  const conversations: Conversation[] = loadConversations(['dev', 'test']);
  const score = emptyScore();

  beforeAll(async () => {
    home = tempHome();
    svc = await openMemory({ config: home.config, env: home.env, semantic: true });
    for (const c of conversations) {
      const caller = { role: 'specialist' as const, agentId: `eval-${c.id}`, sessionId: null };
      for (const e of c.existing ?? []) svc.memoryStore({ text: e.text, entity: e.entity ?? null, category: (e.category ?? 'fact') as Category }, caller);
      const r = await svc.capture(c.turns, caller);
      expect(r.by).toBe('classifier');
      scoreConversation(score, c, r.decisions.filter((d) => d.action === 'stored' || d.action === 'superseded').map((d) => d.found));
    }
    await svc.close();
  }, 600_000);

  afterAll(() => home?.cleanup());

  it('covers every conversation: at least 480, with secrets in at least 90', () => {
    expect(conversations.length).toBeGreaterThanOrEqual(480);
    expect(conversations.filter((c) => (c.secrets ?? []).length > 0).length).toBeGreaterThanOrEqual(90);
  });

  it('no secret of any conversation is anywhere in the data dir: not in its files, not in any row of the database', () => {
    // A secret that another conversation says in the open ("4471" is a code in one and a phone extension
    // in another) cannot be told apart; every other one must be absent.
    const said = conversations.map((c) => c.turns.map((t) => t.content).join('\n'));
    const secrets = conversations.flatMap((c, i) => (c.secrets ?? []).filter((s) => s.length >= 4 && !said.some((text, j) => j !== i && text.includes(s))));
    expect(secrets.length).toBeGreaterThanOrEqual(120);
    // Every row of every table, vectors aside (floats, and a vault's ciphertext, can hold any 4 bytes by chance).
    const db = new Database(join(home.dir, 'memory.db'), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('fact_vectors', 'vault')").pluck().all() as string[];
    const rows = tables.flatMap((t) => db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][]).flat();
    db.close();
    const text = rows.map((v) => (typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('latin1') : '')).join('\n');
    // The scan sees what was stored: a fact captured from the sets is there.
    expect(text).toContain('prod deploys go out tuesdays and thursdays only');
    // As a word of its own: "9914" inside an id or a time stamp ("fact_01KD...9914...", 1764175520123) is not it.
    const standalone = (s: string) => new RegExp(`(?<![A-Za-z0-9])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`);
    expect(secrets.filter((s) => standalone(s).test(text))).toEqual([]);
    // In the files' bytes too, for secrets long enough not to turn up in binary data by chance.
    const files = readdirSync(home.dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
    const bytes = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
    expect(secrets.filter((s) => s.length >= 8 && bytes.includes(s))).toEqual([]);
    expect(score.secretsStored).toBe(0);
  });

  it('keeps its measured quality: precision >= 0.86, recall >= 0.78 (measured 0.916 / 0.791 in a dry run, rounds 1-72)', () => {
    expect(precision(score)).toBeGreaterThanOrEqual(0.86);
    expect(recall(score)).toBeGreaterThanOrEqual(0.78);
  });
});
