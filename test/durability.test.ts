/**
 * "Nothing lost" under kill -9 (design/hardening.md, Durability 1). A child process writes facts, links,
 * recall events, edits and deletes, acknowledging each call on stdout after it returned (= committed);
 * the parent SIGKILLs it at a random moment, reopens the database and checks that every acknowledged write
 * is there and the file is sound. Many rounds share one database, so each round also starts from a file
 * recovered after the previous kill.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/memory/service.js';
import { tempHome, type TestHome } from './helpers.js';

const ROUNDS = Number(process.env.HYBRID_MEM_KILL_ROUNDS ?? 25);
const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Line =
  | { t: 'ready'; live: number }
  | { t: 'begin'; op: string; id?: string }
  | { t: 'ack'; op: 'store'; id: string }
  | { t: 'ack'; op: 'link'; id: string; src: string; dst: string }
  | { t: 'ack'; op: 'recall'; id: string | null }
  | { t: 'ack'; op: 'edit'; old: string; id: string }
  | { t: 'ack'; op: 'delete'; id: string }
  | { t: 'err'; op: string; code: string };

/** What the acknowledgements promise, accumulated over all rounds. */
interface Model {
  readonly facts: Set<string>;
  readonly deleted: Set<string>;
  readonly edits: Map<string, string>;
  readonly recalls: Set<string>;
  readonly links: Map<string, { src: string; dst: string }>;
  /** Lineages deleted by an acknowledged delete, or by an unacknowledged one the database shows committed. */
  readonly deletedLineages: Set<string>;
}

interface Round {
  readonly lines: Line[];
  /** The call in flight when the kill came: it may or may not have committed. */
  readonly inFlight: Extract<Line, { t: 'begin' }> | null;
}

/** Run the writer until a random moment 20-300 ms after its first acknowledgement, then SIGKILL it. */
function runRound(dataDir: string, seed: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dataDir, String(seed)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Line[] = [];
    let buffered = '';
    let stderr = '';
    let killTimer: NodeJS.Timeout | null = null;
    let killed = false;
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      buffered += s;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? ''; // a partial last line was cut by the kill: it acknowledges nothing
      for (const p of parts) {
        let line: Line;
        try {
          line = JSON.parse(p) as Line;
        } catch {
          child.kill('SIGKILL');
          reject(new Error(`writer (seed ${seed}) printed a line that is not JSON: ${p}`));
          return;
        }
        lines.push(line);
        if (line.t === 'ack' && !killTimer) {
          killTimer = setTimeout(() => {
            killed = true;
            child.kill('SIGKILL');
          }, 20 + Math.random() * 280);
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      if (killTimer) clearTimeout(killTimer);
      if (!killed || signal !== 'SIGKILL') {
        reject(new Error(`writer (seed ${seed}) ended by itself: code ${code}, signal ${signal}\n${stderr}`));
        return;
      }
      let inFlight: Round['inFlight'] = null;
      for (const l of lines) {
        if (l.t === 'begin') inFlight = l;
        else if (l.t === 'ack' || l.t === 'err') inFlight = null;
      }
      resolve({ lines, inFlight });
    });
  });
}

function applyAcks(model: Model, lines: readonly Line[]): number {
  let commits = 0;
  for (const l of lines) {
    if (l.t !== 'ack') continue;
    switch (l.op) {
      case 'store':
        model.facts.add(l.id);
        break;
      case 'link':
        model.links.set(l.id, { src: l.src, dst: l.dst });
        break;
      case 'recall':
        if (l.id === null) continue; // nothing matched: nothing was written
        model.recalls.add(l.id);
        break;
      case 'edit':
        model.facts.add(l.id);
        model.edits.set(l.old, l.id);
        break;
      case 'delete':
        model.deleted.add(l.id);
        break;
    }
    commits++;
  }
  return commits;
}

interface FactState {
  readonly lineage: string;
  readonly deleted: boolean;
  readonly supersededBy: string | null;
}

/** Check the reopened database; returns a list of problems (empty = all good). */
function verify(db: Database, model: Model, inFlight: Round['inFlight']): string[] {
  const problems: string[] = [];
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
  // The schema declares no foreign keys (links are checked by the join below); kept so one added later is covered.
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(fk)}`);
  try {
    // rank = 1: also compare the index with its external content (plain 'integrity-check' does not).
    db.exec(`INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)`);
  } catch (err) {
    problems.push(`fts integrity-check: ${(err as Error).message}`);
  }
  const notDeleted = db.prepare('SELECT count(*) FROM facts WHERE deleted_at IS NULL').pluck().get() as number;
  const ftsRows = db.prepare('SELECT count(*) FROM facts_fts').pluck().get() as number;
  // facts_fts reads its rows through the content view; the docsize shadow table counts indexed documents.
  const ftsDocs = db.prepare('SELECT count(*) FROM facts_fts_docsize').pluck().get() as number;
  if (ftsRows !== notDeleted || ftsDocs !== notDeleted) problems.push(`fts rows ${ftsRows}, fts docs ${ftsDocs}, facts not deleted ${notDeleted}`);
  const dangling = db
    .prepare(`SELECT l.id FROM links l LEFT JOIN facts s ON s.id = l.source_id LEFT JOIN facts t ON t.id = l.target_id
      WHERE s.id IS NULL OR t.id IS NULL OR s.deleted_at IS NOT NULL OR t.deleted_at IS NOT NULL`)
    .pluck()
    .all() as string[];
  if (dangling.length > 0) problems.push(`links to missing or deleted facts: ${dangling.join(', ')}`);
  const twoHeads = db.prepare('SELECT lineage_id FROM facts WHERE valid_until IS NULL GROUP BY lineage_id HAVING count(*) > 1').pluck().all() as string[];
  if (twoHeads.length > 0) problems.push(`lineages with two current versions: ${twoHeads.join(', ')}`);

  const facts = new Map<string, FactState>();
  for (const r of db.prepare('SELECT id, lineage_id, deleted_at, superseded_by FROM facts').all() as { id: string; lineage_id: string; deleted_at: number | null; superseded_by: string | null }[]) {
    facts.set(r.id, { lineage: r.lineage_id, deleted: r.deleted_at !== null, supersededBy: r.superseded_by });
  }
  // The call in flight may have committed: take the database's word for it from here on.
  const pending = inFlight?.op === 'delete' && inFlight.id ? facts.get(inFlight.id) : undefined;
  if (pending?.deleted) model.deletedLineages.add(pending.lineage);
  for (const id of model.deleted) {
    const f = facts.get(id);
    if (f) model.deletedLineages.add(f.lineage);
  }

  const storedEvents = new Set(db.prepare(`SELECT json_extract(payload, '$.fact.id') FROM events WHERE kind = 'fact.stored'`).pluck().all() as string[]);
  for (const id of model.facts) {
    if (!facts.has(id)) problems.push(`acknowledged fact ${id} is missing`);
    else if (!storedEvents.has(id)) problems.push(`acknowledged fact ${id} has no fact.stored event`);
  }
  for (const id of model.deleted) if (!facts.get(id)?.deleted) problems.push(`acknowledged delete of ${id} is not reflected`);
  for (const [old, next] of model.edits) if (facts.get(old)?.supersededBy !== next) problems.push(`acknowledged edit ${old} -> ${next} is not reflected`);

  const recallRows = new Set(db.prepare('SELECT id FROM recall_events').pluck().all() as string[]);
  const recallEvents = new Set(db.prepare(`SELECT json_extract(payload, '$.recallId') FROM events WHERE kind = 'recall'`).pluck().all() as string[]);
  for (const id of model.recalls) if (!recallRows.has(id) || !recallEvents.has(id)) problems.push(`acknowledged recall ${id} is missing`);

  const linkRows = new Map(
    (db.prepare('SELECT id, source_id, target_id FROM links').all() as { id: string; source_id: string; target_id: string }[]).map((r) => [r.id, r]),
  );
  for (const [id, { src, dst }] of model.links) {
    const srcLineage = facts.get(src)?.lineage;
    const dstLineage = facts.get(dst)?.lineage;
    if (!srcLineage || !dstLineage) {
      problems.push(`acknowledged link ${id} has an endpoint fact that is missing`);
      continue;
    }
    const row = linkRows.get(id);
    // A delete of either endpoint removes the link; an edit moves it to the successor version.
    if (!row) {
      if (!model.deletedLineages.has(srcLineage) && !model.deletedLineages.has(dstLineage)) problems.push(`acknowledged link ${id} is missing`);
      continue;
    }
    if (facts.get(row.source_id)?.lineage !== srcLineage || facts.get(row.target_id)?.lineage !== dstLineage) {
      problems.push(`link ${id} moved off its facts' lineages`);
    }
  }
  return problems;
}

describe('kill -9 while writing', () => {
  let home: TestHome | null = null;
  afterAll(() => home?.cleanup());

  it(
    `loses no acknowledged write over ${ROUNDS} random kills, and the file stays sound`,
    async () => {
      home = tempHome();
      const model: Model = { facts: new Set(), deleted: new Set(), edits: new Map(), recalls: new Set(), links: new Map(), deletedLineages: new Set() };
      let commits = 0;
      let lost = 0;
      const started = Date.now();
      for (let round = 1; round <= ROUNDS; round++) {
        const seed = (Date.now() ^ (round * 0x9e3779b1)) >>> 0;
        const r = await runRound(home.dir, seed);
        commits += applyAcks(model, r.lines);
        const svc = MemoryService.open({ config: home.config, env: home.env });
        let problems: string[];
        try {
          problems = verify(svc.db, model, r.inFlight);
          // The recovered database is usable, not just readable.
          svc.memoryStore({ text: `parent check after round ${round}` });
        } finally {
          svc.close();
        }
        lost += problems.length;
        expect(problems, `round ${round} (writer seed ${seed})`).toEqual([]);
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `kill -9: ${ROUNDS} rounds, ${commits} acknowledged commits (${model.facts.size} facts, ${model.links.size} links, ${model.recalls.size} recalls, ${model.edits.size} edits, ${model.deleted.size} deletes), lost=${lost}, ${seconds} s`,
      );
      expect(lost).toBe(0);
      expect(commits).toBeGreaterThan(ROUNDS);
    },
    120_000,
  );
});
