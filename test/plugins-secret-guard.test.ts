/**
 * The secret guard shipped in plugins/secret-guard, as a user runs it: installed with the CLI, guarding
 * `hybrid-mem store` and `edit`; refusing facts with keys, tokens, private keys and passwords (naming what
 * it found, never the value, and pointing to the vault), letting ordinary text through, redacting in
 * redact mode so the value never reaches the database, and refusing stores when it cannot run
 * (fail-closed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { OPERATOR } from '../src/core/types.js';
import { SECRET_GUARD, pluggedService, type PluggedService } from './support/plugins.js';

class Sink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

async function cli(home: string, argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await run(argv, { stdout, stderr, env: { ...process.env, HYBRID_MEM_HOME: home }, cwd: home, stdin: Readable.from([]) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const SECRETS: readonly (readonly [string, string, string])[] = [
  ['an AWS access key id', 'the deploy user key is AKIAZ3MXQ7PL4CANARY1', 'AKIAZ3MXQ7PL4CANARY1'],
  ['a GitHub token', 'CI pushes with ghp_Canary0123456789abcdefghijklmnopqrstu', 'ghp_Canary0123456789abcdefghijklmnopqrstu'],
  ['a Slack token', 'the bot token is xoxb-2048-canary-SlackToken99', 'xoxb-2048-canary-SlackToken99'],
  ['a JSON Web Token', 'session eyJhbGciOiJIUzI1NiJ9.eyJjYW5hcnkiOnRydWV9.c2lnbmF0dXJlY2FuYXJ5', 'eyJhbGciOiJIUzI1NiJ9.eyJjYW5hcnkiOnRydWV9.c2lnbmF0dXJlY2FuYXJ5'],
  ['a private key block', 'deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktY2FuYXJ5\n-----END OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktY2FuYXJ5'],
  ['a password or secret assignment', 'staging db password=CanaryHunter2!', 'CanaryHunter2!'],
  ['a password in a URL', 'the app connects to postgres://app:CanaryPass77@db.internal:5432/app', 'CanaryPass77'],
  ['an API secret key', 'the OpenAI key is sk-proj-Canary0123456789abcdef', 'sk-proj-Canary0123456789abcdef'],
];

const INNOCENT = [
  'The staging DB listens on 10.0.4.7:5432',
  'The password manager is 1Password',
  'The token expired yesterday on the staging API',
  'Credentials for github are in the vault: hybrid-mem vault put github --type token',
  'Set password=<your password> in the env file',
  'The ssh key lives at ~/.ssh/id_ed25519',
];

describe('the secret guard in a service (its hook, with a real worker)', () => {
  let p: PluggedService;
  beforeAll(async () => {
    p = await pluggedService([{ dir: SECRET_GUARD }]);
  });
  afterAll(() => p.close());

  it.each(SECRETS)('refuses a fact with %s, naming it and the vault, never the value', async (kind, text, value) => {
    const err = await p.svc.storeWithHooks({ text }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(err?.code).toBe('MEM_ERR_PLUGIN_VETO');
    expect(err?.message).toContain(`plugin secret-guard refused the store: the fact contains what looks like ${kind}`);
    expect(err?.message).toContain("hybrid-mem vault put <service>");
    expect(err?.message).not.toContain(value);
    expect(p.svc.stats().totalFacts).toBe(0);
  });

  it.each(INNOCENT)('lets ordinary text through: %s', async (text) => {
    const r = await p.svc.storeWithHooks({ text });
    expect(r.fact.text).toBe(text);
    p.svc.deleteFact(r.fact.id);
  });

  it('checks the entity and tags too, and edits', async () => {
    await expect(p.svc.storeWithHooks({ text: 'the bot posts here', entity: 'xoxb-2048-canary-SlackToken99' })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO' });
    await expect(p.svc.storeWithHooks({ text: 'the bot posts here', tags: ['password=canary-tag-2'] })).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO', message: expect.stringContaining('a password or secret assignment') });
    const f = (await p.svc.storeWithHooks({ text: 'the deploy user exists' })).fact;
    await expect(p.svc.editWithHooks({ id: f.id, text: 'the deploy user key is AKIAZ3MXQ7PL4CANARY1' }, OPERATOR)).rejects.toMatchObject({ code: 'MEM_ERR_PLUGIN_VETO' });
    expect(p.svc.getFact(f.id).text).toBe('the deploy user exists');
    const status = await p.svc.plugins?.endpoint('secret-guard', { method: 'GET', path: '/status', query: {}, headers: {}, body: null, caller: OPERATOR });
    expect(JSON.parse(status?.body ?? '{}')).toMatchObject({ mode: 'veto', vetoed: SECRETS.length + 3 });
  });

  it('its check command finds secrets in text (exit 1) and passes clean text (exit 0)', async () => {
    expect(await p.svc.plugins?.command('secret-guard', 'check', ['my', 'token:', 'ghp_Canary0123456789abcdefghijklmnopqrstu'])).toMatchObject({ exitCode: 1, json: { secrets: ['a GitHub token', 'a password or secret assignment'] } });
    expect(await p.svc.plugins?.command('secret-guard', 'check', ['nothing', 'here'])).toMatchObject({ exitCode: 0, output: 'no secrets found' });
  });
});

describe('the secret guard through the CLI', () => {
  const homes: string[] = [];
  const newHome = (): string => {
    const h = mkdtempSync(join(tmpdir(), 'hybrid-mem-secret-guard-'));
    homes.push(h);
    return h;
  };
  afterAll(() => {
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  });

  it('installed from plugins/secret-guard: store of a token exits 1 with MEM_ERR_PLUGIN_VETO; the database is unchanged', async () => {
    const home = newHome();
    const inst = await cli(home, ['plugin', 'install', SECRET_GUARD, '--local']);
    expect(inst.stdout).toBe(`installed secret-guard 1.0.0 (fail-closed; canModifyFacts) from local ${SECRET_GUARD}; enabled\n`);
    const r = await cli(home, ['store', 'CI pushes with ghp_Canary0123456789abcdefghijklmnopqrstu']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hybrid-mem: MEM_ERR_PLUGIN_VETO: plugin secret-guard refused the store: the fact contains what looks like a GitHub token; keep secrets in the vault: printf '%s' "\$SECRET" \| hybrid-mem vault put <service> --type token/);
    expect(r.stderr).not.toContain('ghp_Canary');
    expect((await cli(home, ['store', 'CI pushes with a GitHub token kept in the vault'])).code).toBe(0);
    expect(JSON.parse((await cli(home, ['stats', '--json'])).stdout)).toMatchObject({ totalFacts: 1 });
  });

  it('redact mode stores the fact with the value replaced and tagged; the value is nowhere in the database files', async () => {
    const home = newHome();
    await cli(home, ['plugin', 'install', SECRET_GUARD, '--plugin-config', '{"mode":"redact"}']);
    const r = await cli(home, ['store', 'staging db password=CanaryHunter2! on 10.0.4.7', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ fact: { text: 'staging db password=[redacted] on 10.0.4.7', tags: ['redacted-secret'] } });
    expect(r.stderr).toMatch(/plugin secret-guard: warn: redacted a password or secret assignment from a fact/);
    const files = ['memory.db', 'memory.db-wal'].map((f) => join(home, f)).filter(existsSync);
    for (const f of files) expect(readFileSync(f).includes('CanaryHunter2')).toBe(false);
  });

  it('fail-closed: when the guard cannot load, stores are refused (MEM_ERR_PLUGIN_FAILED, exit 1) rather than let through', async () => {
    const home = newHome();
    await cli(home, ['plugin', 'install', SECRET_GUARD]);
    writeFileSync(join(home, 'plugins/secret-guard/index.js'), 'throw new Error("the guard is broken");\n');
    const r = await cli(home, ['store', 'an ordinary fact']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hybrid-mem: MEM_ERR_PLUGIN_FAILED: plugin secret-guard (fail-closed): beforeFactStore failed, so the store was refused');
    expect(r.stderr).toContain('the guard is broken');
    expect(existsSync(join(home, 'memory.db')) ? JSON.parse((await cli(home, ['stats', '--json'])).stdout).totalFacts : 0).toBe(0);
    // Disabling it is the way out.
    expect((await cli(home, ['plugin', 'disable', 'secret-guard'])).code).toBe(0);
    expect((await cli(home, ['store', 'an ordinary fact'])).code).toBe(0);
  });
});
