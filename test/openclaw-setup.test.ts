/**
 * The OpenClaw set-up in docs/integrations.md, run verbatim on a fresh OpenClaw state (openclaw 2026.9.6
 * on Node 24 from the test cache; only the install path is replaced), then 30 one-shot
 * `openclaw agent --local` turns (two lanes of 15 consecutive turns) with the plugin on its default configuration: the semantic layer on,
 * which is the path where better-sqlite3 <= 12 aborted the process on Node 24 when a statement was
 * finalized at teardown. Every exit status is checked; turns alternate between a real ssh failure (the
 * hint must reach the model) and an ordinary request (no hint). A mock OpenAI-compatible model on
 * 127.0.0.1 answers.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { AGENT_TOOL_NAMES } from '../src/memory/agent-tools.js';
import { MemoryService } from '../src/memory/service.js';
import { lastUserTexts, openclawModelConfig, startMockModel, type MockModel } from './support/mock-model.js';
import { INSTALL_TIMEOUT_MS, ROOT, ensureBuilt, nodeBinary, openclawDir, openclawEnv, supported } from './support/runtimes.js';

const TURNS = 30;
const LANES = 2;
const SSH_OUTPUT = readFileSync(join(ROOT, 'test/fixtures/auth/ssh-batchmode-denied.txt'), 'utf8');
const docs = readFileSync(join(ROOT, 'docs/integrations.md'), 'utf8');
const setupBlock = /<!-- openclaw-setup:start -->\n```sh\n([\s\S]*?)```\n<!-- openclaw-setup:end -->/.exec(docs)?.[1] ?? '';

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe.skipIf(!supported)('OpenClaw: the documented set-up, then 30 one-shot turns on the default config (Node 24)', () => {
  let dir: string;
  let env: Record<string, string>;
  let mock: MockModel;
  let runs = 0;

  /** Run a shell command line with `openclaw` on PATH; output goes to files (OpenClaw exits with process.exit). */
  const sh = (line: string, extraEnv: Record<string, string> = {}) =>
    new Promise<Run>((done) => {
      const base = join(dir, `run-${++runs}`);
      const out = openSync(`${base}.out`, 'w');
      const err = openSync(`${base}.err`, 'w');
      const child = spawn('bash', ['-c', line], { env: { ...env, ...extraEnv }, stdio: ['ignore', out, err] });
      const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
      child.on('exit', (status, signal) => {
        clearTimeout(timer);
        closeSync(out);
        closeSync(err);
        done({ status, signal, stdout: readFileSync(`${base}.out`, 'utf8'), stderr: readFileSync(`${base}.err`, 'utf8') });
      });
    });

  beforeAll(async () => {
    const node24 = nodeBinary(24);
    const openclaw = join(openclawDir(), 'openclaw.mjs');
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hm-openclaw-setup-'));
    for (const d of ['home', 'state', 'workspace', 'bin']) mkdirSync(join(dir, d));
    // `openclaw` on PATH, as a global install would put it.
    writeFileSync(join(dir, 'bin', 'openclaw'), `#!/bin/sh\nexec ${JSON.stringify(node24)} ${JSON.stringify(openclaw)} "$@"\n`);
    chmodSync(join(dir, 'bin', 'openclaw'), 0o755);
    mock = await startMockModel();
    env = openclawEnv(dir, node24);
    env.PATH = `${join(dir, 'bin')}:${env.PATH ?? ''}`;
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the documented commands work verbatim on a fresh OpenClaw', async () => {
    const lines = setupBlock.split('\n').filter((l) => l.startsWith('openclaw '));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const r = await sh(line.replaceAll('/path/to/hybrid-mem', ROOT));
      expect({ line, status: r.status, signal: r.signal }, `${r.stdout}\n${r.stderr}`.slice(-3000)).toEqual({ line, status: 0, signal: null });
      if (line.startsWith('openclaw plugins inspect')) {
        expect(r.stdout).toContain('before_prompt_build');
        for (const tool of AGENT_TOOL_NAMES) expect(r.stdout).toContain(tool);
      }
    }
    const config = JSON.parse(readFileSync(join(dir, 'openclaw.json'), 'utf8')) as { gateway: { mode: string }; plugins: { load: { paths: string[] }; entries: Record<string, { enabled: boolean; hooks: object; config: object }> } };
    expect(config.gateway.mode).toBe('local');
    expect(config.plugins.load.paths).toContain(join(ROOT, 'openclaw'));
    expect(config.plugins.entries['hybrid-mem']).toMatchObject({ enabled: true, hooks: { allowConversationAccess: true }, config: { dataDir: '~/.hybrid-mem' } });
  }, 600_000);

  it(`${TURNS} one-shot turns (${LANES} lanes of consecutive turns) exit 0 every time; failing turns get the hint, the others do not`, async () => {
    // The model, as a user would configure theirs (not part of our set-up), and memory about the failing host.
    const configPath = join(dir, 'openclaw.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    Object.assign(config, openclawModelConfig(mock.baseUrl, join(dir, 'workspace')));
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    const memory = resolveConfig({ dataDir: join(dir, 'home', '.hybrid-mem') }, { env: {} });
    const svc = MemoryService.open({ config: memory, env: {} });
    svc.memoryStore({ text: 'SSH to 127.0.0.1 as hmfixture: use the key ~/.ssh/hmfixture_ed25519', category: 'technical', entity: '127.0.0.1', tags: ['ssh', 'credential'] });
    await svc.close();
    writeFileSync(join(dir, 'failing.txt'), `ssh keeps failing:\n${SSH_OUTPUT}`);
    writeFileSync(join(dir, 'quiet.txt'), 'Summarise what we did today in two lines.');

    const outcomes: { turn: number; status: number | null; signal: string | null; hinted: boolean; failing: boolean }[] = [];
    const failures: string[] = [];
    // Two lanes of consecutive turns share the 2 cores (an OpenClaw turn takes ~25 s of its own, ~1.5 cores):
    // 30 processes that each load the plugin, open SQLite, start the workers and exit, in ~8 minutes.
    // One OpenClaw process at a time may own a state folder: each lane gets its own copy of the set-up
    // state; all share the configuration, and the memory (two processes on one hybrid-mem database).
    for (let i = 1; i < LANES; i++) cpSync(join(dir, 'state'), join(dir, `state-${i}`), { recursive: true });
    const lane = async (first: number): Promise<void> => {
      const laneEnv: Record<string, string> = first === 0 ? {} : { OPENCLAW_STATE_DIR: join(dir, `state-${first}`) };
      for (let turn = first; turn < TURNS; turn += LANES) {
        const failing = turn % 2 === 0;
        const session = `turn-${turn}`;
        const r = await sh(`openclaw agent --local --agent main --session-id ${session} --message-file ${join(dir, failing ? 'failing.txt' : 'quiet.txt')} --json`, laneEnv);
        const sent = mock.requests.find((q) => JSON.stringify(q.messages).includes(failing ? 'ssh keeps failing' : 'Summarise what we did today') && !seen.has(q));
        if (sent) seen.add(sent);
        const prompt = sent ? (lastUserTexts(sent)[0] ?? '') : '';
        outcomes.push({ turn, status: r.status, signal: r.signal, hinted: prompt.includes('💡 Memory has credentials for `127.0.0.1`'), failing });
        if (r.status !== 0 || r.signal !== null) failures.push(`turn ${turn}: ${r.status ?? r.signal}\n${r.stderr.slice(-2500)}`);
        expect(r.stderr, `turn ${turn}`).not.toMatch(/Assertion failed|RemoveEnvironmentCleanupHook|Segmentation fault/);
      }
    };
    const seen = new Set<(typeof mock.requests)[number]>();
    await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
    outcomes.sort((a, b) => a.turn - b.turn);
    expect(outcomes.filter((o) => o.status !== 0 || o.signal !== null), failures.join('\n---\n')).toEqual([]);
    expect(outcomes.map((o) => o.hinted)).toEqual(outcomes.map((o) => o.failing));
    // Default config: the semantic layer ran, and one-shot runs left the vector index on disk.
    expect(existsSync(join(memory.dataDir, 'vectors.usearch.manifest.json'))).toBe(true);
  }, 30 * 60_000);
});
