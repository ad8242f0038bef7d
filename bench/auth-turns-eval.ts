/**
 * Auth-turns evaluation: runs the labeled agent turns of test/fixtures/auth-turns through the public
 * CLI (`hybrid-mem auth-recall check`) against a temp database holding facts.json, and scores
 * detection, target and hint contents; also scores a plain literal baseline of the spec's pattern
 * list and target rule, computed here.
 *
 *   node --import tsx bench/auth-turns-eval.ts [dev|test|all|holdout|holdout2|holdout3|holdout4|holdout5|holdout6] [--semantic] [--store] [--dist] [--json FILE] [--verbose]
 *
 * --semantic  pass --semantic to auth-recall check (loads the local embedding model, vector leg)
 * --store     store the facts one `hybrid-mem store` per fact (default: one `hybrid-mem import`)
 * --dist      run the built CLI (dist/); default: the source tree (HYBRID_MEM_FROM_SOURCE=1), so the
 *             numbers are those of the code as it is now, not of the last build
 * --json FILE also write every turn's result and the totals as JSON
 * --verbose   list every miss with what was expected and what came back
 *
 * holdout: holdout.jsonl against its own corpus holdout-facts.json (written after the code was tuned on
 * dev/test, scored once; see the set's README); holdout2: holdout2.jsonl against holdout2-facts.json (a second
 * fresh split, written after the code was tuned on dev/test/holdout, scored once); holdout3: holdout3.jsonl against
 * holdout3-facts.json (a third fresh split, written blind after tuning on every earlier split, scored once); holdout4:
 * holdout4.jsonl against holdout4-facts.json (a fourth fresh split, same terms as holdout3); holdout5:
 * holdout5.jsonl against holdout5-facts.json (a fifth fresh split, same terms); holdout6:
 * holdout6.jsonl against holdout6-facts.json (a sixth fresh split, same terms); dev, test and all use facts.json.
 *
 * The set's format and label rules: test/fixtures/auth-turns/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SET = join(ROOT, 'test', 'fixtures', 'auth-turns');
const CLI = join(ROOT, 'bin', 'hybrid-mem.js');

interface Fact {
  readonly key: string;
  readonly text: string;
  readonly category: string;
  readonly entity?: string;
  readonly tags: readonly string[];
  readonly kind: 'credential' | 'distractor' | 'unrelated';
  readonly scope?: string;
}

interface Turn {
  readonly id: string;
  readonly turn: { readonly prompt: string; readonly messages: readonly unknown[] };
  readonly expected: {
    readonly detected: boolean;
    readonly target: string | null;
    readonly acceptTargets?: readonly string[];
    readonly factKeys: readonly string[];
  };
  readonly source: string;
  readonly class: string;
}

interface Result {
  readonly id: string;
  readonly detected: boolean;
  readonly target: string | null;
  readonly factIds: readonly string[];
  readonly hint?: string | null;
}

// ---------------------------------------------------------------------------------------------------
// arguments, data
// ---------------------------------------------------------------------------------------------------
const args = process.argv.slice(2);
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--json');
const split = positional[0] ?? 'dev';
if (!['dev', 'test', 'all', 'holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5', 'holdout6'].includes(split)) {
  console.error(`usage: node --import tsx bench/auth-turns-eval.ts [dev|test|all|holdout|holdout2|holdout3|holdout4|holdout5|holdout6] [--semantic] [--store] [--dist] [--json FILE] [--verbose]`);
  process.exit(1);
}
const semantic = args.includes('--semantic');
const viaStore = args.includes('--store');
const verbose = args.includes('--verbose');
const fromDist = args.includes('--dist');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;

const factsFile = split === 'holdout' ? 'holdout-facts.json' : split === 'holdout2' ? 'holdout2-facts.json' : split === 'holdout3' ? 'holdout3-facts.json' : split === 'holdout4' ? 'holdout4-facts.json' : split === 'holdout5' ? 'holdout5-facts.json' : split === 'holdout6' ? 'holdout6-facts.json' : 'facts.json';
const facts = JSON.parse(readFileSync(join(SET, factsFile), 'utf8')) as Fact[];
const readTurns = (name: string): Turn[] =>
  readFileSync(join(SET, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Turn);
const turns = split === 'all' ? [...readTurns('dev'), ...readTurns('test')] : readTurns(split);

// ---------------------------------------------------------------------------------------------------
// the CLI
// ---------------------------------------------------------------------------------------------------
function cli(argv: readonly string[], input?: string): string {
  const r = spawnSync(process.execPath, [CLI, ...argv], {
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, HYBRID_MEM_HOME: dir, ...(fromDist ? {} : { HYBRID_MEM_FROM_SOURCE: '1' }) },
  });
  if (r.error) throw r.error;
  if (r.status !== 0 && !(argv[0] === 'auth-recall' && r.status === 1)) {
    throw new Error(`hybrid-mem ${argv.slice(0, 2).join(' ')} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  }
  return r.stdout;
}

const dir = mkdtempSync(join(tmpdir(), 'hm-auth-turns-'));
const db = join(dir, 'memory.db');
const idOfKey = new Map<string, string>();
const keyOfId = new Map<string, string>();
const kindOfKey = new Map(facts.map((f) => [f.key, f.kind]));

function storeFacts(): void {
  if (viaStore) {
    for (const f of facts) {
      const argv = ['store', '-', '--db', db, '--json', '--category', f.category, '--scope', f.scope ?? 'global'];
      if (f.entity) argv.push('--entity', f.entity);
      for (const t of f.tags) argv.push('--tag', t);
      const out = JSON.parse(cli(argv, f.text)) as { fact: { id: string } };
      idOfKey.set(f.key, out.fact.id);
    }
  } else {
    const doc = {
      format: 'hybrid-mem-export',
      version: 1,
      facts: facts.map((f) => ({ text: f.text, category: f.category, ...(f.entity ? { entity: f.entity } : {}), tags: f.tags })),
    };
    const file = join(dir, 'facts-import.json');
    writeFileSync(file, JSON.stringify(doc));
    const rep = JSON.parse(cli(['import', file, '--db', db, '--json', '--strict'])) as { imported: { facts: number } };
    if (rep.imported.facts !== facts.length) throw new Error(`imported ${rep.imported.facts} of ${facts.length} facts`);
    const exported = JSON.parse(cli(['export', '--db', db])) as { facts: { id: string; text: string }[] };
    const byText = new Map(exported.facts.map((f) => [f.text, f.id]));
    for (const f of facts) {
      const id = byText.get(f.text);
      if (!id) throw new Error(`fact ${f.key} not found after import`);
      idOfKey.set(f.key, id);
    }
  }
  for (const [k, id] of idOfKey) keyOfId.set(id, k);
}

function runTurns(): Map<string, Result> {
  const input = turns
    .map((t) => JSON.stringify({ id: t.id, prompt: t.turn.prompt, messages: t.turn.messages, agentId: 'eval-agent', sessionId: `eval-${t.id}`, role: 'orchestrator' }))
    .join('\n');
  const out = cli(['auth-recall', 'check', '--db', db, ...(semantic ? ['--semantic'] : [])], input + '\n');
  const results = new Map<string, Result>();
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Result & { error?: { code: string; message: string } };
    if (r.error) throw new Error(`turn ${r.id}: ${r.error.code} ${r.error.message}`);
    results.set(r.id, { id: r.id, detected: r.detected, target: r.target ?? null, factIds: r.factIds ?? [], hint: r.hint ?? null });
  }
  for (const t of turns) if (!results.has(t.id)) throw new Error(`no result for turn ${t.id}`);
  return results;
}

// ---------------------------------------------------------------------------------------------------
// baseline: the spec's literal pattern list and target rule over the concatenated turn text
// ---------------------------------------------------------------------------------------------------
const SPEC_PATTERNS = [
  'Permission denied', 'Authentication failed', 'publickey,password', 'Host key verification failed',
  '401', '403', 'Unauthorized', 'Forbidden',
  'Invalid API key', 'token expired', 'token invalid', 'invalid_auth', 'authentication required',
].map((p) => p.toLowerCase());

const SKIP_KEYS = new Set(['id', 'type', 'role', 'toolCallId', 'tool_call_id', 'tool_use_id', 'toolName', 'name', 'isError', 'is_error']);

/** Every string of the turn in order: the prompt, then each message's text, tool arguments and results. */
function turnText(t: Turn): string {
  const parts: string[] = [t.turn.prompt];
  const walk = (v: unknown, key?: string): void => {
    if (key !== undefined && SKIP_KEYS.has(key)) return;
    if (typeof v === 'string') {
      if (key === 'arguments') {
        try {
          walk(JSON.parse(v));
          return;
        } catch {
          /* not JSON: keep the string */
        }
      }
      parts.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(t.turn.messages);
  return parts.join('\n');
}

const IP = /\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/;
const USER_AT_HOST = /\b[A-Za-z0-9._-]+@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)/;
const URL_HOST = /\b[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s'"]+@)?(\[[^\]\s]+\]|[^/:\s'"?#\\]+)/i;
const SERVICE = /\bfor ([A-Za-z0-9_.-]+) service\b/i;

function baseline(t: Turn): { detected: boolean; target: string | null } {
  const text = turnText(t);
  const lower = text.toLowerCase();
  if (!SPEC_PATTERNS.some((p) => lower.includes(p))) return { detected: false, target: null };
  const m = IP.exec(text) ?? USER_AT_HOST.exec(text) ?? URL_HOST.exec(text) ?? SERVICE.exec(text);
  if (!m) return { detected: true, target: null };
  return { detected: true, target: (m[1] ?? m[0]).toLowerCase() };
}

// ---------------------------------------------------------------------------------------------------
// scoring
// ---------------------------------------------------------------------------------------------------
const norm = (s: string | null | undefined): string | null =>
  s == null ? null : s.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

function targetOk(t: Turn, got: string | null): boolean {
  if (t.expected.target === null) return got === null;
  const g = norm(got);
  if (g === null) return false;
  return [t.expected.target, ...(t.expected.acceptTargets ?? [])].some((x) => norm(x) === g);
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  positives: number;
  targetRight: number;
  detectedRight: number;
  factsExpected: number;
  factsReturned: number;
  distractors: number;
  unrelated: number;
  factsOnNegatives: number;
}

interface PerTurn {
  id: string;
  class: string;
  expected: Turn['expected'];
  got: { detected: boolean; target: string | null; factKeys: string[]; hint?: string | null };
  detectionMiss: boolean;
  targetMiss: boolean;
  missingFacts: string[];
  distractorKeys: string[];
}

function score(rows: { t: Turn; detected: boolean; target: string | null; factKeys: string[] | null; hint?: string | null }[]): { s: Score; per: PerTurn[] } {
  const s: Score = { tp: 0, fp: 0, fn: 0, tn: 0, positives: 0, targetRight: 0, detectedRight: 0, factsExpected: 0, factsReturned: 0, distractors: 0, unrelated: 0, factsOnNegatives: 0 };
  const per: PerTurn[] = [];
  for (const { t, detected, target, factKeys, hint } of rows) {
    const exp = t.expected;
    if (exp.detected && detected) s.tp++;
    else if (exp.detected) s.fn++;
    else if (detected) s.fp++;
    else s.tn++;
    let targetMiss = false;
    if (exp.detected) {
      s.positives++;
      const ok = targetOk(t, target);
      if (ok) s.targetRight++;
      if (ok && detected) s.detectedRight++;
      targetMiss = !ok;
    }
    const got = factKeys ?? [];
    const missingFacts = exp.factKeys.filter((k) => !got.includes(k));
    s.factsExpected += exp.factKeys.length;
    s.factsReturned += exp.factKeys.length - missingFacts.length;
    const distractorKeys = got.filter((k) => kindOfKey.get(k) === 'distractor');
    s.distractors += distractorKeys.length;
    s.unrelated += got.filter((k) => kindOfKey.get(k) === 'unrelated').length;
    if (!exp.detected) s.factsOnNegatives += got.length;
    per.push({
      id: t.id,
      class: t.class,
      expected: exp,
      got: { detected, target, factKeys: got, ...(hint !== undefined ? { hint } : {}) },
      detectionMiss: exp.detected !== detected,
      targetMiss,
      missingFacts: factKeys === null ? [] : missingFacts,
      distractorKeys,
    });
  }
  return { s, per };
}

const pct = (n: number, d: number): string => (d === 0 ? '  n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

function summary(name: string, s: Score, withFacts: boolean): string[] {
  const p = s.tp / (s.tp + s.fp);
  const r = s.tp / (s.tp + s.fn);
  const f1 = (2 * p * r) / (p + r);
  const lines = [
    `${name}`,
    `  detection        precision ${f3(p)}  recall ${f3(r)}  F1 ${f3(f1)}   (tp ${s.tp}, fp ${s.fp}, fn ${s.fn}, tn ${s.tn})`,
    `  target right     ${pct(s.targetRight, s.positives)}  (${s.targetRight} of ${s.positives} failures)`,
    `  detected + right ${pct(s.detectedRight, s.positives)}  (${s.detectedRight} of ${s.positives})`,
  ];
  if (withFacts) {
    lines.push(
      `  expected facts   ${s.factsReturned} of ${s.factsExpected} returned (${pct(s.factsReturned, s.factsExpected).trim()})`,
      `  distractors      ${s.distractors} distractor fact(s) returned; ${s.unrelated} unrelated; ${s.factsOnNegatives} fact(s) returned on look-alike turns`,
    );
  }
  return lines;
}

function classTable(per: PerTurn[], withFacts: boolean): string[] {
  const classes = [...new Set(per.map((p) => p.class))].sort();
  const head = withFacts ? 'class                    n  det-miss  tgt-miss  facts-missing  distractors' : 'class                    n  det-miss  tgt-miss';
  const out = [head];
  for (const c of classes) {
    const rows = per.filter((p) => p.class === c);
    const det = rows.filter((p) => p.detectionMiss).length;
    const tgt = rows.filter((p) => p.targetMiss).length;
    const fm = rows.reduce((a, p) => a + p.missingFacts.length, 0);
    const fe = rows.reduce((a, p) => a + p.expected.factKeys.length, 0);
    const dk = rows.reduce((a, p) => a + p.distractorKeys.length, 0);
    if (det === 0 && tgt === 0 && fm === 0 && dk === 0) continue;
    const base = `${c.padEnd(22)} ${String(rows.length).padStart(3)}  ${String(det).padStart(8)}  ${String(tgt).padStart(8)}`;
    out.push(withFacts ? `${base}  ${`${fm}/${fe}`.padStart(13)}  ${String(dk).padStart(11)}` : base);
  }
  if (out.length === 1) out.push('(no misses)');
  return out;
}

// ---------------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------------
try {
  const t0 = Date.now();
  storeFacts();
  const t1 = Date.now();
  const results = runTurns();
  const t2 = Date.now();

  const cur = score(
    turns.map((t) => {
      const r = results.get(t.id)!;
      return { t, detected: r.detected, target: r.target, factKeys: r.factIds.map((id) => keyOfId.get(id) ?? `?${id}`), hint: r.hint };
    }),
  );
  const base = score(turns.map((t) => ({ t, ...baseline(t), factKeys: null })));

  const pos = turns.filter((t) => t.expected.detected).length;
  const out: string[] = [
    `auth-turns eval: split ${split}, ${turns.length} turns (${pos} failures, ${turns.length - pos} look-alikes), ${facts.length} facts` +
      ` (stored in ${((t1 - t0) / 1000).toFixed(1)} s via ${viaStore ? 'store' : 'import'}; check ${((t2 - t1) / 1000).toFixed(1)} s; CLI from ${fromDist ? 'dist/' : 'src/'}${semantic ? '; --semantic' : ''})`,
    '',
    ...summary('current (hybrid-mem auth-recall check)', cur.s, true),
    '',
    ...summary('baseline (spec pattern list + spec target rule, literal, over the whole turn text)', base.s, false),
    '',
    'misses per class, current:',
    ...classTable(cur.per, true).map((l) => `  ${l}`),
    '',
    'misses per class, baseline:',
    ...classTable(base.per, false).map((l) => `  ${l}`),
  ];
  if (verbose) {
    out.push('', 'misses, current:');
    for (const p of cur.per) {
      if (!p.detectionMiss && !p.targetMiss && p.missingFacts.length === 0 && p.distractorKeys.length === 0) continue;
      out.push(
        `  ${p.id} [${p.class}] expected ${p.expected.detected ? `target ${p.expected.target}` : 'no failure'}` +
          ` -> got ${p.got.detected ? `detected, target ${p.got.target}` : `not detected${p.got.target ? ` (target ${p.got.target})` : ''}`}` +
          (p.missingFacts.length ? `; missing facts ${p.missingFacts.join(',')}` : '') +
          (p.distractorKeys.length ? `; distractors ${p.distractorKeys.join(',')}` : ''),
      );
    }
  }
  console.log(out.join('\n'));
  if (jsonOut) {
    writeFileSync(jsonOut, JSON.stringify({ split, current: cur, baseline: base }, null, 2));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
