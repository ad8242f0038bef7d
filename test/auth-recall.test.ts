/** The auth-failure hook end to end: real SQLite, real recall worker, the real detection rules. */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/resolve.js';
import { MemoryService } from '../src/memory/service.js';
import { AuthRecallHook } from '../src/recall/hook.js';
import { tempHome, type TestHome } from './helpers.js';

const CANARY = 'Canary-Pw-93f1c7e2b8a4d6f0';
const SSH_FAIL = 'ops@10.0.4.7: Permission denied (publickey,password).';
let home: TestHome;
let svc: MemoryService;
let hook: AuthRecallHook;
let logs: string[];

function setup(userConfig: unknown = {}): void {
  home = tempHome(userConfig);
  home.env.HYBRID_MEM_VAULT_KEY = 'ab'.repeat(32);
  svc = MemoryService.open({ config: home.config, env: home.env });
  logs = [];
  hook = new AuthRecallHook(svc, home.config, { log: (l) => logs.push(l), detectTimeoutMs: 5000 });
}

afterEach(async () => {
  await hook?.close();
  await svc?.close();
  home?.cleanup();
});

const turn = (over: Record<string, unknown> = {}) => ({
  prompt: 'deploy the release',
  messages: [{ role: 'tool', content: `$ ssh ops@10.0.4.7\n${SSH_FAIL}` }],
  sessionId: 's1',
  agentId: 'coder',
  role: 'specialist' as const,
  ...over,
});

describe('auth-failure hook', () => {
  it('prepends a hint listing credential facts about the failing target, and records the recall', async () => {
    setup();
    const f = svc.memoryStore({ text: `SSH to 10.0.4.7 uses the ops key; password ${CANARY}`, category: 'technical', entity: 'staging-db', tags: ['ssh'] }).fact;
    svc.memoryStore({ text: 'Lunch is at noon on 10.0.4.7 day', category: 'preference' });
    const r = await hook.evaluate(turn());
    expect(r).toMatchObject({ detected: true, target: '10.0.4.7', factIds: [f.id] });
    expect(r.hint).toContain('10.0.4.7');
    expect(r.hint?.split('\n')[1]).toMatch(/^1\. /);
    expect(r.hint).not.toContain(CANARY);
    expect(logs.join('\n')).not.toContain(CANARY);
    const rec = svc.recallHistory().find((e) => e.kind === 'auth_failure');
    expect(rec).toMatchObject({ target: '10.0.4.7', scores: [expect.objectContaining({ factId: f.id })] });
    // The turn excerpt that triggered it, for the graph app's why panel.
    expect(rec?.excerpt).toContain(SSH_FAIL);
    expect(svc.recallEvent(rec?.id ?? '')?.excerpt).toContain('$ ssh ops@10.0.4.7');
  });

  it('keeps the excerpt of the failing turn short and without secrets', async () => {
    setup();
    svc.memoryStore({ text: 'Git on git.example.com: deploy token in the vault', category: 'technical' });
    const noise = Array.from({ length: 80 }, (_, i) => `remote: line ${i} of the build output`).join('\n');
    const content = `${noise}\nfatal: Authentication failed for 'https://bot:${CANARY}@git.example.com/org/repo.git/'\n${noise}`;
    const r = await hook.evaluate(turn({ messages: [{ role: 'tool', content }] }));
    expect(r.detected).toBe(true);
    const rec = svc.recallHistory().find((e) => e.kind === 'auth_failure');
    expect(rec?.excerpt).toContain('Authentication failed');
    expect(rec?.excerpt).not.toContain(CANARY);
    expect((rec?.excerpt ?? '').length).toBeLessThanOrEqual(400);
    // A recall that was not an auth hint has no excerpt.
    svc.memoryStore({ text: 'The build server is ci1' });
    await svc.memoryRecall({ query: 'build server' });
    expect(svc.recallHistory().find((e) => e.kind === 'memory_recall')?.excerpt).toBeNull();
  });

  it('is quiet when nothing failed, and when no credential fact matches (with a log line naming the target)', async () => {
    setup();
    expect(await hook.onTurn(turn({ messages: ['build ok, 12 tests passed'] }))).toBeNull();
    expect(await hook.onTurn(turn())).toBeNull();
    expect(logs).toContain('auth-recall: no credential facts found for 10.0.4.7');
  });

  it('counts recalls per target per session: the default limit is 1, 0 is unlimited', async () => {
    setup();
    svc.memoryStore({ text: 'ops key for 10.0.4.7 is in the team vault', category: 'technical' });
    expect(await hook.onTurn(turn())).not.toBeNull();
    expect(await hook.onTurn(turn())).toBeNull();
    expect(await hook.onTurn(turn({ sessionId: 's2' }))).not.toBeNull();
    await hook.close();
    await svc.close();
    home.cleanup();
    setup({ autoRecall: { authFailure: { maxRecallsPerTarget: 0 } } });
    svc.memoryStore({ text: 'ops key for 10.0.4.7 is in the team vault', category: 'technical' });
    for (let i = 0; i < 3; i++) expect(await hook.onTurn(turn())).not.toBeNull();
  });

  it('applies scope: specialists see global and their own, orchestrators all agents; session-scoped never', async () => {
    setup();
    svc.memoryStore({ text: 'coder agent key for 10.0.4.7', category: 'technical', scope: 'agent', scopeAgentId: 'coder' });
    svc.memoryStore({ text: 'reviewer agent key for 10.0.4.7', category: 'technical', scope: 'agent', scopeAgentId: 'reviewer' });
    svc.memoryStore({ text: 'session note: 10.0.4.7 password is temp', category: 'technical', scope: 'session', scopeSessionId: 's1' });
    const spec = await hook.evaluate(turn());
    expect(spec.hint).toContain('coder agent key');
    expect(spec.hint).not.toContain('reviewer agent key');
    expect(spec.hint).not.toContain('session note');
    const orch = await hook.evaluate(turn({ role: 'orchestrator', agentId: 'boss', sessionId: 's9' }));
    expect(orch.hint).toContain('coder agent key');
    expect(orch.hint).toContain('reviewer agent key');
    expect(orch.hint).not.toContain('session note');
  });

  it('points at vault entries without decrypting them; includeVaultHints false leaves them out', async () => {
    setup();
    svc.vaultPut({ service: '10.0.4.7', type: 'password', secret: CANARY });
    const r = await hook.evaluate(turn());
    expect(r.hint).toContain('Credential for `10.0.4.7` (`password`), stored in secure vault, use `credential_get(service=10.0.4.7)` to retrieve.');
    expect(r.hint).not.toContain(CANARY);
    await hook.close();
    await svc.close();
    home.cleanup();
    setup({ autoRecall: { authFailure: { includeVaultHints: false } } });
    svc.vaultPut({ service: '10.0.4.7', type: 'password', secret: CANARY });
    expect(await hook.onTurn(turn())).toBeNull();
  });

  it('respects the switches and replaces the built-in set with configured patterns', async () => {
    setup({ autoRecall: { enabled: false } });
    svc.memoryStore({ text: 'ops key for 10.0.4.7', category: 'technical' });
    expect(await hook.onTurn(turn())).toBeNull();
    await hook.close();
    await svc.close();
    home.cleanup();
    setup({ autoRecall: { authFailure: { enabled: false } } });
    svc.memoryStore({ text: 'ops key for 10.0.4.7', category: 'technical' });
    expect(await hook.onTurn(turn())).toBeNull();
    await hook.close();
    await svc.close();
    home.cleanup();
    setup({ autoRecall: { authFailure: { patterns: ['login refused by gatekeeper'] } } });
    svc.memoryStore({ text: 'ops key for 10.0.4.7', category: 'technical' });
    expect(await hook.onTurn(turn())).toBeNull();
    expect(await hook.onTurn(turn({ messages: ['LOGIN REFUSED BY GATEKEEPER at 10.0.4.7'] }))).toContain('10.0.4.7');
  });

  it('never throws into the gateway', async () => {
    setup();
    await svc.close();
    expect(await hook.onTurn(turn())).toBeNull();
    expect(await hook.onTurn({ prompt: 42 } as never)).toBeNull();
    expect(logs.some((l) => l.includes('internal failure') || l.includes('no hint'))).toBe(true);
  });

  it('uses the same config shape as the file', () => {
    expect(resolveConfig({ autoRecall: { authFailure: { maxRecallsPerTarget: 2 } } }).autoRecall.authFailure.maxRecallsPerTarget).toBe(2);
  });
});

describe('real tool output (test/fixtures/auth, captured by scripts/capture-auth-fixtures.sh)', async () => {
  const { readFileSync } = await import('node:fs');
  const dir = new URL('./fixtures/auth/', import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as { file: string; positive: boolean; target: string | null }[];
  it('hints for every captured failure with a credential fact about its target, and stays quiet for the rest', async () => {
    setup({ autoRecall: { authFailure: { maxRecallsPerTarget: 0 } } });
    svc.memoryStore({ text: 'Local services on 127.0.0.1 use the hmfixture account; ask ops for the password', category: 'technical' });
    svc.memoryStore({ text: 'db.internal.test login: appuser, password in the team vault', category: 'technical' });
    for (const entry of manifest) {
      const output = readFileSync(new URL(entry.file, dir), 'utf8');
      const r = await hook.evaluate(turn({ messages: [{ role: 'tool', content: output }] }));
      if (entry.positive) {
        expect(r.target, entry.file).toBe(entry.target);
        expect(r.hint, entry.file).toContain(`\`${entry.target}\``);
      } else {
        expect(r.hint, entry.file).toBeNull();
      }
    }
  });
});

describe('per-turn budget', () => {
  it('a slow custom pattern that passes the static check cannot hold a turn past the detection deadline', async () => {
    home = tempHome({ autoRecall: { authFailure: { patterns: ['a.*b.*c.*d.*e.*f'] } } });
    svc = MemoryService.open({ config: home.config, env: home.env });
    logs = [];
    hook = new AuthRecallHook(svc, home.config, { log: (l) => logs.push(l), detectTimeoutMs: 300 });
    await hook.warm();
    const started = Date.now();
    const hint = await hook.onTurn(turn({ messages: ['a'.repeat(60_000)] }));
    expect(hint).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(logs.join('\n')).toMatch(/MEM_ERR_ACTOR_TIMEOUT/);
    // The worker was replaced; once the new one is up (warm waits for it) it serves the next turn.
    await hook.warm();
    svc.memoryStore({ text: 'key for 10.0.4.7 is in the vault', category: 'technical' });
    const next = await hook.evaluate(turn({ messages: ['a b c d e f at 10.0.4.7'] }));
    expect(next.hint, JSON.stringify(next) + logs.join('|')).toContain('10.0.4.7');
  });
});
