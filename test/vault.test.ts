/**
 * The vault: encryption at rest, key handling, pointer facts, scope, never leaking a secret, and entries
 * an import named whose secret arrives later.
 */
import { readFileSync, statSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import type { MemoryService } from '../src/memory/service.js';
import { MemoryService as Service } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const CANARY = 'canary-S3CRET-value-7f3a';
let home: TestHome;
let svc: MemoryService;

beforeEach(() => {
  home = tempHome();
  ({ svc } = openService(home));
});
afterEach(() => {
  svc.close();
  home.cleanup();
});

describe('vault', () => {
  it('stores secrets encrypted at rest and returns them through credential_get', () => {
    svc.vaultPut({ service: 'github', type: 'token', secret: CANARY });
    expect(svc.credentialGet({ service: 'github' })).toEqual({ service: 'github', type: 'token', secret: CANARY });
    svc.close();
    for (const f of ['memory.db', 'memory.db-wal']) {
      const p = join(home.dir, f);
      if (existsSync(p)) expect(readFileSync(p).includes(Buffer.from(CANARY))).toBe(false);
    }
    ({ svc } = openService(home));
    expect(svc.credentialGet({ service: 'github' }).secret).toBe(CANARY);
  });

  it('creates the key file with mode 0600 and refuses a world-readable one', () => {
    svc.vaultPut({ service: 'x', secret: 's' });
    const keyFile = join(home.dir, 'vault.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    chmodSync(keyFile, 0o644);
    svc.close();
    ({ svc } = openService(home));
    expect(() => svc.credentialGet({ service: 'x' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_KEY' }));
  });

  it('names a wrong key as such, and a tampered row as tampered', () => {
    svc.vaultPut({ service: 'db', secret: CANARY });
    svc.close();
    writeFileSync(join(home.dir, 'vault.key'), 'ab'.repeat(32), { mode: 0o600 });
    ({ svc } = openService(home));
    expect(() => svc.credentialGet({ service: 'db' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_DECRYPT', message: expect.stringContaining('different key') }));
    svc.vaultPut({ service: 'db2', secret: CANARY });
    svc.db.prepare(`UPDATE vault SET ciphertext = randomblob(length(ciphertext)) WHERE service = 'db2'`).run();
    expect(() => svc.credentialGet({ service: 'db2' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_DECRYPT', message: expect.stringContaining('tampered') }));
  });

  it('binds each secret to its service: a row moved to another service fails to decrypt', () => {
    svc.vaultPut({ service: 'a', secret: CANARY });
    svc.db.prepare(`UPDATE vault SET service = 'b' WHERE service = 'a'`).run();
    expect(() => svc.credentialGet({ service: 'b' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_DECRYPT' }));
  });

  it('keeps one pointer fact per entry, never containing the secret', async () => {
    svc.vaultPut({ service: 'aws-prod', type: 'api_key', secret: CANARY });
    svc.vaultPut({ service: 'aws-prod', type: 'api_key', secret: CANARY + '2' });
    const pointers = svc.listFacts().filter((f) => f.vaultService === 'aws-prod');
    expect(pointers).toHaveLength(1);
    expect(pointers[0]).toMatchObject({ category: 'technical', entity: 'Credentials' });
    expect(pointers[0]?.tags).toContain('credential');
    expect(pointers[0]?.text).toBe('Credential for aws-prod (api_key), stored in secure vault, use credential_get(service=aws-prod) to retrieve.');
    const dump = JSON.stringify([svc.listFacts(), svc.vaultList(), svc.stats(), await svc.memoryRecall({ query: 'aws-prod credential' })]);
    expect(dump).not.toContain(CANARY);
    expect(svc.vaultList()).toEqual([expect.objectContaining({ service: 'aws-prod', type: 'api_key' })]);
    expect(svc.vaultRemove({ service: 'aws-prod' })).toBe(true);
    expect(svc.listFacts().filter((f) => f.vaultService === 'aws-prod')).toHaveLength(0);
    expect(() => svc.credentialGet({ service: 'aws-prod' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CREDENTIAL_NOT_FOUND' }));
  });

  it('applies scope: specialists see global and their own, the most specific entry wins', () => {
    const a1 = { role: 'specialist' as const, agentId: 'a1', sessionId: null };
    const a2 = { role: 'specialist' as const, agentId: 'a2', sessionId: null };
    svc.vaultPut({ service: 'npm', secret: 'global-token' });
    svc.vaultPut({ service: 'npm', secret: 'a1-token', scope: 'agent' }, a1);
    expect(svc.credentialGet({ service: 'npm' }, a1).secret).toBe('a1-token');
    expect(svc.credentialGet({ service: 'npm' }, a2).secret).toBe('global-token');
    expect(() => svc.vaultPut({ service: 'npm', secret: 'x', scope: 'agent', scopeAgentId: 'a1' }, a2)).toThrow(
      expect.objectContaining({ code: 'MEM_ERR_INVALID_INPUT' }),
    );
    expect(svc.vaultList(a2).map((e) => e.scope.kind)).toEqual(['global']);
  });

  it('accepts a key from HYBRID_MEM_VAULT_KEY and refuses a malformed one', () => {
    svc.close();
    const env = { ...home.env, HYBRID_MEM_VAULT_KEY: 'c'.repeat(64) };
    svc = Service.open({ config: home.config, env });
    svc.vaultPut({ service: 'k', secret: CANARY });
    expect(existsSync(join(home.dir, 'vault.key'))).toBe(false);
    svc.close();
    svc = Service.open({ config: home.config, env: { ...home.env, HYBRID_MEM_VAULT_KEY: 'too-short' } });
    expect(() => svc.credentialGet({ service: 'k' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_KEY' }));
    expect(() => svc.vaultPut({ service: 'k2', secret: 'x' })).toThrow(expect.objectContaining({ code: 'MEM_ERR_VAULT_KEY' }));
    expect(svc.vaultList()).toHaveLength(1);
  });
});

describe('vault entries named by an import', () => {
  const POINTER = 'Push token of the CI account for registry.corp.example, kept in the vault as registry';
  const exported = (vault: unknown[]) => ({
    format: 'hybrid-mem-export',
    version: 1,
    facts: [{ text: POINTER, category: 'technical', entity: 'registry.corp.example', tags: ['credential', 'registry'], vaultService: 'registry' }],
    links: [],
    vault,
  });
  const REGISTRY = { service: 'registry', type: 'token', note: 'CI push' };
  const pointers = (service: string) => svc.listFacts().filter((f) => f.vaultService === service);

  it('vault put keeps the imported entry\'s type and note, and the imported pointer fact\'s text and entity', async () => {
    expect(svc.importData(exported([REGISTRY])).vaultMissing).toEqual([expect.objectContaining({ service: 'registry', type: 'token' })]);
    const imported = pointers('registry');
    expect(imported).toHaveLength(1);
    const { entry, replaced } = svc.vaultPut({ service: 'registry', secret: CANARY });
    expect(replaced).toBe(false);
    expect(entry).toMatchObject({ service: 'registry', type: 'token', note: 'CI push' });
    expect(svc.credentialGet({ service: 'registry' })).toEqual({ service: 'registry', type: 'token', secret: CANARY });
    // The same fact, untouched: it still names the host, so a search for the host finds the credential.
    expect(pointers('registry')).toEqual([expect.objectContaining({ id: imported[0]?.id, text: POINTER, entity: 'registry.corp.example', version: 1 })]);
    const found = await svc.memoryRecall({ query: 'registry.corp.example' });
    expect(found.results[0]?.fact.id).toBe(imported[0]?.id);
    // Settled: the same file names nothing missing any more.
    expect(svc.importData(exported([REGISTRY])).vaultMissing).toEqual([]);
  });

  it('an explicit type wins; a put without one keeps the stored entry\'s; our own pointer line follows the type', () => {
    svc.vaultPut({ service: 'github', type: 'token', secret: 'one', note: 'CI' });
    expect(svc.vaultPut({ service: 'github', secret: 'two' }).entry).toMatchObject({ type: 'token', note: 'CI' });
    expect(svc.vaultPut({ service: 'github', type: 'api_key', secret: 'three', note: '' }).entry).toMatchObject({ type: 'api_key', note: null });
    expect(pointers('github').map((f) => f.text)).toEqual(['Credential for github (api_key), stored in secure vault, use credential_get(service=github) to retrieve.']);
    // Another scope is another entry: nothing to keep there.
    expect(svc.vaultPut({ service: 'github', secret: 'four', scope: 'agent', scopeAgentId: 'ops' }).entry).toMatchObject({ type: 'password', note: null });
    // An import's pending entry in one scope says nothing about another scope.
    svc.importData(exported([REGISTRY]));
    expect(svc.vaultPut({ service: 'registry', secret: 'x', scope: 'agent', scopeAgentId: 'ops' }).entry.type).toBe('password');
  });

  it('an export still names a pending entry with its type, so a second hop keeps it too', () => {
    expect(svc.importData(exported([REGISTRY]), { dryRun: true }).vaultMissing).toHaveLength(1);
    expect(svc.exportData().vault).toEqual([]);
    svc.importData(exported([REGISTRY]));
    const again = svc.exportData();
    expect(again.vault).toEqual([{ ...REGISTRY, scope: { kind: 'global', agentId: null, sessionId: null } }]);
    const other = tempHome();
    const next = openService(other).svc;
    try {
      expect(next.importData(again).vaultMissing).toEqual([expect.objectContaining({ service: 'registry', type: 'token', note: 'CI push' })]);
      expect(next.vaultPut({ service: 'registry', secret: CANARY }).entry.type).toBe('token');
    } finally {
      next.close();
      other.cleanup();
    }
  });

  it('through the CLI: import, then `vault put` without --type stores the imported type and keeps the pointer', async () => {
    svc.close();
    const cli = async (argv: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> => {
      const out = { stdout: '', stderr: '' };
      const sink = (k: 'stdout' | 'stderr') => ({ isTTY: false, write: (chunk: string) => ((out[k] += chunk), true) });
      const code = await run(argv, { stdout: sink('stdout'), stderr: sink('stderr'), env: home.env, cwd: home.dir, stdin: Readable.from([Buffer.from(stdin)]) });
      return { code, ...out };
    };
    writeFileSync(join(home.dir, 'export.json'), JSON.stringify(exported([REGISTRY])));
    expect((await cli(['import', 'export.json'])).stdout).toContain('hybrid-mem vault put registry --type token < secret-file');
    expect(await cli(['vault', 'put', 'registry'], `${CANARY}\n`)).toEqual({ code: 0, stdout: 'stored registry (token, global)\n', stderr: '' });
    expect((await cli(['vault', 'list'])).stdout).toBe('registry  token  global  CI push\n');
    ({ svc } = openService(home));
    expect(pointers('registry').map((f) => [f.text, f.entity])).toEqual([[POINTER, 'registry.corp.example']]);
  });
});
