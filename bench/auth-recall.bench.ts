/**
 * Auth-failure auto-recall hook (src/recall/hook.ts) latency, each case against a plain literal
 * implementation of the spec's indicator list measured in the same run (the baseline: ONE
 * case-insensitive regex alternation of the spec's literals, run with `texts.some(re.test)` over the same
 * message texts):
 *
 *  1. A turn with no failure (realistic tool output: build logs, test output, JSON, with 401/403 in
 *     innocuous places such as "401 bytes"), 8 KB and 100 KB: what the hook does on the calling thread —
 *     `await hook.evaluate(turn)` (schema parse + turnTexts + prefilter; returns early without the worker
 *     when the prefilter finds no anchor) and the bare prefilter over turnTexts. Goals: p99 < 0.1 ms
 *     (8 KB), < 1 ms (100 KB). The built-in prefilter anchors on 401/403 too, so a turn with "401 bytes"
 *     goes to the recall worker (full detection, which finds nothing): measured both with those numbers
 *     and with every code-like number rewritten. Also the false-positive rates of the literal baseline
 *     (reports a failure) and of the prefilter (sends the turn to the worker) on such turns.
 *  2. A failing turn end to end at 100k facts (bench/hybrid-data.ts's cached data dir + ~50 credential
 *     facts about a few hosts, stored through memoryStore so they get real embeddings), openMemory with
 *     the semantic layer, maxRecallsPerTarget 0 so every call runs the full path (worker detection,
 *     credential search, recall event written):
 *     (a) warm query embedding: the same target repeated. Goal p50 < 5 ms, p99 < 15 ms.
 *     (b) cold query embedding: a new target every call, whose credential fact was inserted raw after the
 *         service started (so no event, and no background prewarm of its search embedding: the model
 *         runs in front of the turn). Run with several `vectorDeadlineMs` values (hook default 30 ms):
 *         goal p99 < 15 ms answered from full text. Counts answers whose vector leg answered in time vs
 *         full text only (the leg dropped at the deadline).
 *
 * Calls are timed one by one (performance.now() around each awaited call), in rounds rotating the cases.
 * Run: node --import tsx bench/auth-recall.bench.ts   (AUTH_BENCH_ROUNDS, HYBRID_BENCH_FACTS to change)
 */
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { EmbedClient } from '../src/actors/embed/client.js';
import { resolveConfig } from '../src/config/resolve.js';
import { prefilter } from '../src/core/auth/patterns.js';
import { embedderSpec, openMemory } from '../src/main.js';
import { MaintenanceClient } from '../src/actors/maintenance/client.js';
import type { CredentialRecall } from '../src/memory/credentials.js';
import type { MemoryService } from '../src/memory/service.js';
import { AuthRecallHook } from '../src/recall/hook.js';
import { turnTexts, type Turn } from '../src/recall/turn.js';
import { ensureDataDir, runCopy } from './hybrid-data.js';
import { quantile, type LatencyStats } from './stats.js';
import { mulberry32 } from '../test/support/prng.js';

const FACTS = Number(process.env.HYBRID_BENCH_FACTS ?? 100_000);
const ROUNDS = Number(process.env.AUTH_BENCH_ROUNDS ?? 10);
const NO_FAIL_TURNS = 200;
const CALLS_PER_ROUND_FAST = 2000;
const WARM_PER_ROUND = 40;
const COLD_PER_ROUND = 15;
const COLD_DEADLINES = [1000, 30, 10, 5] as const;

/** The spec's literal indicators, as the plain implementation would write them. */
const SPEC_LITERALS = ['Permission denied', 'Authentication failed', 'publickey,password', 'Host key verification failed', '401', '403', 'Unauthorized', 'Forbidden', 'Invalid API key', 'token expired', 'token invalid', 'invalid_auth', 'authentication required'];
const LITERAL = new RegExp(SPEC_LITERALS.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
const literalBaseline = (texts: readonly string[]): boolean => texts.some((t) => LITERAL.test(t));

// ---------------------------------------------------------------------------------------------------
// Realistic no-failure tool output (deterministic)

/** Deterministic PRNG (mulberry32, shared: test/support/prng.ts). */
const rng = mulberry32;

const MODULES = ['src/store/db.ts', 'src/memory/recall.ts', 'src/core/text.ts', 'src/actors/embed/worker.ts', 'src/cli/main.ts', 'src/dashboard/server.ts', 'lib/index.js', 'src/util/lru.ts'];
const TESTS = ['stores a fact', 'recalls by phrase', 'merges duplicate tags', 'keeps the oldest version', 'parses the config', 'rotates the log', 'renders the table', 'handles an empty query', 'caches the embedding', 'links two facts'];

function buildLog(r: () => number, n: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = r();
    const size = [401, 403, 1401, 2403, 40_312, 8_192][Math.floor(r() * 6)] as number;
    if (k < 0.3) lines.push(`asset ${pick(['main', 'vendor', 'runtime', 'chunk-' + i])}.js ${size} bytes [emitted] [minimized] (name: main)`);
    else if (k < 0.5) lines.push(`  ✓ ${pick(TESTS)} (${Math.floor(r() * 403)} ms)`);
    else if (k < 0.65) lines.push(`[${String(i).padStart(4, '0')}] compiling ${pick(MODULES)} ... done in ${(r() * 4.03).toFixed(3)}s, line 401 col ${Math.floor(r() * 80)}`);
    else if (k < 0.8) lines.push(JSON.stringify({ id: `req-${i}-${Math.floor(r() * 1e6)}`, status: 200, bytes: size, durationMs: Math.floor(r() * 403), path: `/api/v1/items/${Math.floor(r() * 9999)}`, retries: 0 }));
    else if (k < 0.9) lines.push(`npm http fetch GET 200 https://registry.npmjs.org/${pick(['zod', 'tinybench', 'tsx', 'better-sqlite3'])} ${Math.floor(r() * 403)}ms (cache revalidated)`);
    else lines.push(`PASS test/${pick(['core', 'search', 'vault', 'config'])}.test.ts (${Math.floor(r() * 40)} tests, 4,403 assertions) port 4030 pid ${4010 + i}`);
  }
  return lines.join('\n');
}

/** Status-code-like numbers the built-in prefilter also anchors on (401, 403, 407; SMTP 530, 535). */
const CODE_LIKE = /40[137]|53[05]/g;
const scrub = (text: string): string => {
  let t = text;
  while (CODE_LIKE.test(t)) t = t.replace(CODE_LIKE, '402');
  return t;
};

/**
 * A no-failure turn of ~`bytes` characters, spread over `messages` tool results. `codes`: keep the
 * innocuous 401/403 ("401 bytes", "4,403 assertions"); otherwise every code-like number is rewritten.
 */
function noFailTurn(seed: number, bytes: number, messages: number, codes: boolean): Turn {
  const r = rng(seed);
  // OpenClaw's shape: each tool result follows the assistant's tool call (the reader links them).
  const msgs: unknown[] = [];
  for (let m = 0; m < messages; m++) {
    let text = '';
    while (text.length < bytes / messages) text += (text ? '\n' : '') + buildLog(r, 20);
    const content = text.slice(0, Math.floor(bytes / messages));
    msgs.push({ role: 'assistant', content: [{ type: 'toolCall', id: `c${m}`, name: 'exec', arguments: { command: 'npm run build && npm test' } }] });
    msgs.push({ role: 'toolResult', toolCallId: `c${m}`, toolName: 'exec', content: [{ type: 'text', text: codes ? content : scrub(content) }] });
  }
  return { prompt: 'build the project and run the tests', messages: msgs, sessionId: `s-${seed}`, agentId: 'coder' };
}

// The host is named only by the tool call; the output ends in ssh's refusal (the reader joins them).
const failTurn = (host: string, session: string): Turn => ({
  prompt: 'deploy the release',
  messages: [
    { role: 'assistant', content: [{ type: 'toolCall', id: 'd1', name: 'exec', arguments: { command: `ssh -o BatchMode=yes deploy@${host} 'systemctl restart app'` } }] },
    { role: 'toolResult', toolCallId: 'd1', toolName: 'exec', content: [{ type: 'text', text: `${buildLog(rng(host.length), 30)}\nPermission denied (publickey,password).` }] },
  ],
  sessionId: session,
  agentId: 'coder',
});

// ---------------------------------------------------------------------------------------------------
// Stats

type Stats = LatencyStats;

function stats(ms: readonly number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), max: s[s.length - 1] ?? NaN };
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' / ');
const fmt = (ms: number): string => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(3)} ms`);

interface Row {
  readonly case: string;
  readonly s: Stats;
  readonly base: Stats;
  readonly goal?: string;
}

function table(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((r) => ({
      case: r.case,
      n: r.s.n,
      p50: fmt(r.s.p50),
      p99: fmt(r.s.p99),
      mean: fmt(r.s.mean),
      max: fmt(r.s.max),
      'p50 / literal': (r.s.p50 / r.base.p50).toFixed(2),
      'p99 / literal': (r.s.p99 / r.base.p99).toFixed(2),
      goal: r.goal ?? '',
    })),
  );
}

// ---------------------------------------------------------------------------------------------------
// 1. No-failure turns, calling thread

async function noFailureCase(): Promise<void> {
  const config = resolveConfig({}, { env: {} });
  // svc is never touched: no turn here reaches the credential search. A turn the prefilter passes goes to
  // the recall worker (full detection), which finds no failure; the worker is started ahead, as a gateway would.
  const hook = new AuthRecallHook(null as unknown as MemoryService, config);
  await hook.warm();
  const rows: Row[] = [];
  const fp: Record<string, string>[] = [];
  for (const [label, bytes, messages, goal, codes] of [
    ['8 KB with 401/403', 8 * 1024, 2, 0.1, true],
    ['8 KB no code-like numbers', 8 * 1024, 2, 0.1, false],
    ['100 KB with 401/403', 100 * 1024, 5, 1, true],
    ['100 KB no code-like numbers', 100 * 1024, 5, 1, false],
  ] as const) {
    const turns = Array.from({ length: NO_FAIL_TURNS }, (_, i) => noFailTurn(1000 + i + bytes, bytes, messages, codes));
    const raw = turns.map((t) => (t.messages ?? []).map((m) => (m as { content: string }).content).concat(t.prompt ?? ''));
    // Correctness and false positives.
    let literalHits = 0;
    let prefilterHits = 0;
    let detected = 0;
    for (let i = 0; i < turns.length; i++) {
      if (literalBaseline(raw[i] as string[])) literalHits++;
      if (turnTexts({ prompt: turns[i]?.prompt ?? '', messages: turns[i]?.messages ?? [] }).some((t) => prefilter(t))) prefilterHits++;
      const out = await hook.evaluate(turns[i] as Turn);
      if (out.detected || out.hint !== null) throw new Error(`no-failure turn ${i}: ${out.reason}`);
      if (out.detected) detected++;
    }
    const pct = (k: number): string => `${k}/${turns.length} (${((100 * k) / turns.length).toFixed(0)}%)`;
    fp.push({ turn: label, 'literal baseline FP (reported)': pct(literalHits), 'prefilter pass (sent to worker)': pct(prefilterHits), 'hook detected (FP)': pct(detected) });

    const samples = { literal: [] as number[], prefilter: [] as number[], evaluate: [] as number[] };
    let sink = 0;
    const cases: Record<keyof typeof samples, (i: number) => Promise<void> | void> = {
      literal: (i) => {
        const texts = raw[i % raw.length] as string[];
        const t = performance.now();
        const r = literalBaseline(texts);
        samples.literal.push(performance.now() - t);
        sink += r ? 1 : 0;
      },
      prefilter: (i) => {
        const turn = turns[i % turns.length] as Turn;
        const t = performance.now();
        const r = turnTexts({ prompt: turn.prompt ?? '', messages: turn.messages ?? [] }).some((x) => prefilter(x));
        samples.prefilter.push(performance.now() - t);
        sink += r ? 1 : 0;
      },
      evaluate: async (i) => {
        const turn = turns[i % turns.length] as Turn;
        const t = performance.now();
        const r = await hook.evaluate(turn);
        samples.evaluate.push(performance.now() - t);
        sink += r.detected ? 1 : 0;
      },
    };
    const order = Object.keys(cases) as (keyof typeof samples)[];
    // Warm-up (JIT, regex compilation), not recorded.
    for (const k of order) for (let i = 0; i < 500; i++) await cases[k](i);
    for (const k of order) samples[k].length = 0;
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < order.length; k++) {
        const name = order[(r + k) % order.length] as keyof typeof samples;
        for (let i = 0; i < CALLS_PER_ROUND_FAST / 4; i++) await cases[name](i + r * 7);
      }
    }
    if (sink < 0) console.log(sink);
    const base = stats(samples.literal);
    const ev = stats(samples.evaluate);
    rows.push(
      { case: `${label}: literal spec regex (baseline)`, s: base, base },
      { case: `${label}: prefilter over turnTexts`, s: stats(samples.prefilter), base },
      { case: `${label}: await hook.evaluate(turn)`, s: ev, base, goal: `p99 < ${goal} ms: ${ev.p99 < goal ? 'met' : 'MISSED'}` },
    );
  }
  table(`1. turn with no failure, calling thread (${ROUNDS} rounds rotating the cases, ${NO_FAIL_TURNS} distinct turns per size)`, rows);
  console.log('false positives on the same no-failure turns (literal: the baseline would report a failure; prefilter: evaluate goes to the recall worker):');
  console.table(fp);
  await hook.close();
}

// ---------------------------------------------------------------------------------------------------
// 2. Failing turn end to end at 100k facts

const HOSTS = ['10.20.30.40', '10.20.30.41', '192.168.7.12', 'db.prod.example.com', 'build-01.ci.example.org'];

function credentialFacts(): { text: string; category: 'technical'; tags: string[]; entity: string | null }[] {
  const out: { text: string; category: 'technical'; tags: string[]; entity: string | null }[] = [];
  const forms = [
    (h: string) => `SSH for ${h} uses the deploy key (vault: prod-ssh)`,
    (h: string) => `The ops user on ${h} logs in with the ed25519 key in ~/.ssh/ops_ed25519`,
    (h: string) => `${h} rejects password auth; use the bastion key from the team vault`,
    (h: string) => `API token for ${h} is rotated monthly (vault: ${h}-api)`,
    (h: string) => `Host key of ${h} changed after the rebuild on 2026-03-02; refresh known_hosts`,
    (h: string) => `Database password for ${h} is in the vault entry db-${h.split('.')[0]}`,
    (h: string) => `Service account for deploys to ${h} is svc-deploy, key in vault`,
    (h: string) => `${h}: root login disabled, sudo through the ops account`,
    (h: string) => `Jenkins on ${h} authenticates to git with the ci-bot token`,
    (h: string) => `Monitoring agent on ${h} uses the metrics key`,
  ];
  for (const h of HOSTS) for (const f of forms) out.push({ text: f(h), category: 'technical', tags: ['ssh'], entity: null });
  return out;
}

async function failingCase(): Promise<void> {
  const log = (line: string): void => console.log(line);
  const probe = new EmbedClient(embedderSpec(resolveConfig({}, { env: {} })));
  const info = await probe.info().finally(() => probe.close());
  const data = await ensureDataDir(FACTS, info, log);
  console.log(`\ndata dir ${data.builtInS === null ? '(cached)' : `built in ${data.builtInS.toFixed(0)} s`}: ${data.facts} facts, ${data.vectors} vectors (${info.modelId}, ${info.dim}-d)`);
  const run = runCopy(data);
  const env = { HYBRID_MEM_HOME: run.dir };
  const notes: string[] = [];
  let svc: MemoryService | null = null;
  const hooks: AuthRecallHook[] = [];
  let checkpointer: MaintenanceClient | null = null;
  let checkpointTimer: NodeJS.Timeout | undefined;
  try {
    const config = resolveConfig({ autoRecall: { authFailure: { maxRecallsPerTarget: 0 } } }, { env });
    svc = await openMemory({ config, env, semantic: true, log: (l) => notes.push(l) });
    // As `hybrid-mem serve` runs it: WAL checkpoints in the maintenance worker, never inside a commit.
    svc.db.pragma('wal_autocheckpoint = 0');
    checkpointer = new MaintenanceClient(config);
    const cp = checkpointer;
    checkpointTimer = setInterval(() => void cp.checkpoint().catch(() => undefined), 2000);
    const semantic = svc.semanticLayer;
    if (!semantic) throw new Error(`the semantic layer did not start: ${notes.join('; ')}`);
    const creds = credentialFacts();
    svc.memoryStoreMany(creds);
    await semantic.idle();
    const total = svc.db.prepare('SELECT count(*) FROM facts WHERE valid_until IS NULL').pluck().get() as number;
    console.log(`service up: index ${semantic.indexState.source}, ${semantic.indexState.count} vectors; +${creds.length} credential facts about ${HOSTS.length} hosts (embedded); ${total} live facts`);

    // Bench instrumentation: keep what each credential search answered (vector leg in time or not).
    const answers: CredentialRecall[] = [];
    const real = svc.credentialRecall.bind(svc);
    svc.credentialRecall = async (...args: Parameters<MemoryService['credentialRecall']>) => {
      const r = await real(...args);
      answers.push(r);
      return r;
    };

    // Cold targets: one credential fact each, inserted raw (no event, so no background prewarm).
    const insert = svc.db.prepare(`INSERT INTO facts (id, text, category, entity, tags, tags_text, importance, confidence, decay_class, scope_kind,
      lineage_id, version, created_at, updated_at, valid_from, source, dedupe_key) VALUES (?, ?, 'technical', NULL, '["ssh"]', 'ssh', 0.5, 0.8, 'stable', 'global', ?, 1, ?, ?, ?, 'cli', ?)`);
    const coldNeeded = ROUNDS * COLD_PER_ROUND * COLD_DEADLINES.length + 20;
    const coldHosts: string[] = [];
    const now = Date.now();
    svc.db.transaction(() => {
      for (let i = 0; i < coldNeeded; i++) {
        const host = `10.${90 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
        coldHosts.push(host);
        insert.run(`fact_coldbench${i}`, `SSH for ${host} uses the deploy key (vault: cold-ssh)`, `fact_coldbench${i}`, now, now, now, `coldbench${i}`);
      }
    })();

    const warmHook = new AuthRecallHook(svc, svc.config, { log: (l) => notes.push(l) });
    hooks.push(warmHook);
    const coldHooks = COLD_DEADLINES.map((d) => {
      const h = new AuthRecallHook(svc as MemoryService, (svc as MemoryService).config, { vectorDeadlineMs: d });
      hooks.push(h);
      return h;
    });
    await Promise.all(hooks.map((h) => h.warm()));

    const warmTurn = failTurn(HOSTS[0] as string, 'bench-warm');
    const warmTexts = turnTexts({ prompt: warmTurn.prompt ?? '', messages: warmTurn.messages ?? [] });
    // Warm up: the query embedding, statements, worker JIT; one cold call per hook.
    let coldNext = 0;
    for (let i = 0; i < 30; i++) {
      const out = await warmHook.evaluate(warmTurn);
      if (!out.hint) throw new Error(`warm turn gave no hint: ${out.reason}`);
    }
    for (const h of coldHooks) await h.evaluate(failTurn(coldHosts[coldNext++] as string, 'bench-cold'));
    answers.length = 0;

    const literal: number[] = [];
    const warm: { ms: number; a: CredentialRecall }[] = [];
    const cold = COLD_DEADLINES.map(() => [] as { ms: number; a: CredentialRecall }[]);
    const one = async (hook: AuthRecallHook, turn: Turn, into: { ms: number; a: CredentialRecall }[], target: string): Promise<void> => {
      const t = performance.now();
      const out = await hook.evaluate(turn);
      const ms = performance.now() - t;
      if (!out.hint || out.target !== target) throw new Error(`failing turn for ${target}: no hint (${out.reason}, target ${out.target})`);
      const a = answers.pop();
      if (!a) throw new Error('no credential search recorded');
      into.push({ ms, a });
    };
    const cases: (() => Promise<void>)[] = [
      async () => {
        for (let i = 0; i < WARM_PER_ROUND * 10; i++) {
          const t = performance.now();
          const r = literalBaseline(warmTexts);
          literal.push(performance.now() - t);
          if (!r) throw new Error('literal baseline missed the failing turn');
        }
      },
      async () => {
        for (let i = 0; i < WARM_PER_ROUND; i++) await one(warmHook, warmTurn, warm, HOSTS[0] as string);
      },
      ...coldHooks.map((h, k) => async () => {
        for (let i = 0; i < COLD_PER_ROUND; i++) {
          const host = coldHosts[coldNext++] as string;
          await one(h, failTurn(host, 'bench-cold'), cold[k] as { ms: number; a: CredentialRecall }[], host);
        }
      }),
    ];
    const t0 = performance.now();
    for (let r = 0; r < ROUNDS; r++) for (let k = 0; k < cases.length; k++) await (cases[(r + k) % cases.length] as () => Promise<void>)();
    const measuredS = (performance.now() - t0) / 1000;

    const base = stats(literal);
    const legs = (xs: readonly { a: CredentialRecall }[]): string => {
      const vec = xs.filter((x) => !x.a.degraded).length;
      const vecHits = xs.filter((x) => x.a.hits.some((h) => h.why.vectorRank !== null)).length;
      return `${vec} vector leg in time (${vecHits} with vector hits) / ${xs.length - vec} full text only`;
    };
    const w = stats(warm.map((x) => x.ms));
    const rows: (Row & { legs?: string })[] = [
      { case: 'literal spec regex on the failing turn (baseline)', s: base, base },
      { case: '(a) warm embedding, same target, deadline 30 ms', s: w, base, goal: `p50 < 5, p99 < 15: ${w.p50 < 5 && w.p99 < 15 ? 'met' : 'MISSED'}`, legs: legs(warm) },
      ...COLD_DEADLINES.map((d, k) => {
        const xs = cold[k] as { ms: number; a: CredentialRecall }[];
        const s = stats(xs.map((x) => x.ms));
        return { case: `(b) cold embedding, new target, vectorDeadlineMs ${d}${d === 30 ? ' (default)' : ''}`, s, base, goal: `p99 < 15: ${s.p99 < 15 ? 'met' : 'MISSED'}`, legs: legs(xs) };
      }),
    ];
    table(
      `2. failing turn end to end (hook.evaluate: prefilter, worker detection + target, credential search, recall event) at ${total} facts; ` +
        `${ROUNDS} rounds rotating the cases, ${measuredS.toFixed(1)} s`,
      rows,
    );
    console.log('answers by leg:');
    console.table(rows.filter((r) => r.legs).map((r) => ({ case: r.case, legs: r.legs })));
    if (notes.length) console.log(`log: ${[...new Set(notes)].slice(0, 8).join('; ')}`);
  } finally {
    clearInterval(checkpointTimer);
    await checkpointer?.close();
    for (const h of hooks) await h.close();
    await svc?.close();
    run.cleanup();
  }
}

export async function main(): Promise<void> {
  const wall = performance.now();
  console.log(`\nauth-recall hook bench: ${cpus().length} CPUs, load average (1/5/15 min) at start ${load()}`);
  console.log(`literal baseline: /${LITERAL.source}/i`);
  await noFailureCase();
  await failingCase();
  console.log(`\nload average at end ${load()}; bench wall time ${((performance.now() - wall) / 1000).toFixed(0)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
