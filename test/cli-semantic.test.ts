/**
 * Semantic recall from the command line, as a newcomer meets it: `hybrid-mem store` in one process, then
 * `hybrid-mem recall --semantic "<a paraphrase>"` in another, no `serve` running. The stored fact is
 * found by meaning (its vector leg ranks it, the paraphrase shares no word with it), and a recall never
 * says `degraded: false` while facts are missing from the vector leg. Real bin, real files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { MemoryService } from '../src/memory/service.js';
import { ONE_SHOT_EMBED_MAX } from '../src/cli/commands/semantic.js';

const BIN = join(fileURLToPath(new URL('..', import.meta.url)), 'bin', 'hybrid-mem.js');

interface Recall {
  readonly mode: string;
  readonly degraded: boolean;
  readonly reason?: string | null;
  readonly results: { fact: { id: string }; why: { ftsRank: number | null; vectorRank: number | null } }[];
}

describe('store, then recall by paraphrase, in two CLI processes', () => {
  let home: string;
  const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' }, encoding: 'utf8', timeout: 120_000 });

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'hm-cli-semantic-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('the fact stored by one process is found by meaning in the next, with no serve running', () => {
    const ids: string[] = [];
    for (const text of ['My favourite editor is Helix', 'The team standup is at 9:30 every weekday', 'Invoices are paid on the first Monday of the month']) {
      const r = cli(['store', text]);
      expect(r.status, r.stderr).toBe(0);
      ids.push(r.stdout.split('\n')[0] as string);
    }
    const json = cli(['--json', 'store', 'The production database lives on pg-prod-3 in Frankfurt']);
    expect(json.status, json.stderr).toBe(0);
    const stored = JSON.parse(json.stdout) as { fact: { id: string }; embedded: string | null };
    expect(stored.embedded).toMatch(/^use-lite@/);

    const r = cli(['recall', 'which machine hosts our main postgres server', '--semantic', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Recall;
    expect(out).toMatchObject({ mode: 'hybrid', degraded: false });
    const hit = out.results.find((h) => h.fact.id === stored.fact.id);
    expect(hit?.why).toMatchObject({ ftsRank: null, vectorRank: 1 });
    // Nothing was rebuilt: the stores left the index and its manifest, the recall loaded them.
    expect(r.stderr).not.toContain('rebuilt');
  }, 180_000);

  it('capture reads a transcript on stdin: the classifier decides, --dry-run writes nothing, then it stores', () => {
    const transcript = [
      { role: 'user', content: 'we buy all our flour from the mill in hadley. can you draft the email to the landlord?' },
      { role: 'tool', content: 'remember that the prod db is db9.internal' },
    ]
      .map((t) => JSON.stringify(t))
      .join('\n');
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { input: transcript, env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1' }, encoding: 'utf8', timeout: 120_000 });
    const dry = run(['--json', 'capture', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, by: 'classifier', reason: null, decisions: [{ action: 'stored', rule: 'model', text: 'We buy all our flour from the mill in hadley.', factId: null }] });
    const real = run(['capture']);
    expect(real.status, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/^stored {2}\[model, fact\] We buy all our flour from the mill in hadley\. {2}fact_/m);
    expect(real.stdout).toContain('(decided by the sentence classifier)');
    expect(real.stdout).not.toContain('db9');
  }, 180_000);

  it('facts written without embedding (another tool, embeddings off) are embedded by the next semantic recall before it searches', async () => {
    const config = resolveConfig({ dataDir: home, embedding: { enabled: false } }, { env: {} });
    const svc = MemoryService.open({ config, env: {} });
    const quiet = svc.memoryStore({ text: 'Backups are copied to the tape library every Sunday night' }).fact.id;
    await svc.close();
    const r = cli(['recall', 'weekly archive of our data', '--semantic', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Recall;
    expect(out.degraded).toBe(false);
    // Found by meaning alone: the query shares no word with it, so only its new vector can bring it up.
    expect(out.results.find((h) => h.fact.id === quiet)?.why).toMatchObject({ ftsRank: null, vectorRank: expect.any(Number) });
  }, 180_000);

  it(`more than ${ONE_SHOT_EMBED_MAX} facts without a vector: the recall answers degraded, with the count and the command that embeds them`, async () => {
    const config = resolveConfig({ dataDir: home, embedding: { enabled: false } }, { env: {} });
    const svc = MemoryService.open({ config, env: {} });
    for (let i = 0; i <= ONE_SHOT_EMBED_MAX; i++) svc.memoryStore({ text: `Ticket ${i} was closed after review number ${i * 7}` });
    await svc.close();
    // A question, not a lookup: a lookup that full text answers in full never asks the vector leg (src/memory/recall.ts).
    const r = cli(['recall', 'which tickets were closed?', '--semantic', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Recall;
    expect(out.degraded).toBe(true);
    expect(out.reason).toContain(`${ONE_SHOT_EMBED_MAX + 1} facts have no vector yet`);
    expect(out.reason).toContain('hybrid-mem reindex');
    const human = cli(['recall', 'which tickets were closed?', '--semantic']);
    expect(human.stdout).toContain('(degraded: ');
  }, 180_000);
});
