/**
 * The documented error table against the real CLI (node bin/hybrid-mem.js): every code the CLI can be
 * made to raise from the outside is raised, and the process exits with the code the table in
 * docs/errors.md documents for it (2 for a malformed command line, 1 for every other failure), one line on
 * stderr naming the code. The error lines the docs quote are what the CLI prints, word for word.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDriver } from '../src/store/native.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'hybrid-mem.js');
const errorsDoc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
const table = errorsDoc.slice(errorsDoc.indexOf('<!-- error-codes:start -->'), errorsDoc.indexOf('<!-- error-codes:end -->'));
const documentedExit = new Map([...table.matchAll(/^\| `(MEM_ERR_[A-Z_]+)` \| (?:user|internal) \| (\d) \|/gm)].map((m) => [m[1] as string, Number(m[2])]));

interface Result {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function bin(home: string, args: readonly string[], env: Record<string, string> = {}, stdin = ''): Promise<Result> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_FROM_SOURCE: '1', HYBRID_MEM_VAULT_KEY: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

describe('the error table, run against the CLI', () => {
  let home: string;
  let factId: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'hm-errors-cli-'));
    const stored = await bin(home, ['store', 'The build server listens on port 8080', '--entity', 'build']);
    expect(stored.status, stored.stderr).toBe(0);
    factId = stored.stdout.split('\n')[0] as string;
    writeFileSync(join(home, 'bad-config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { port: 'x' } } } } } }));
    writeFileSync(join(home, 'not-json.json'), '{ "plugins": ');
    writeFileSync(join(home, 'other-export.json'), JSON.stringify({ format: 'something-else', version: 1, facts: [] }));
    writeFileSync(join(home, 'junk.db'), 'junk '.repeat(400));
    // A database from a newer hybrid-mem: its schema version is past this build's migrations.
    const Database = sqliteDriver();
    const newer = new Database(join(home, 'newer.db'));
    newer.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    newer.prepare('INSERT INTO schema_migrations VALUES (999, ?, 0)').run('from a newer build');
    newer.close();
  }, 60_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const cases: [code: string, args: () => string[], env?: () => Record<string, string>][] = [
    ['MEM_ERR_USAGE', () => ['frobnicate']],
    ['MEM_ERR_USAGE', () => ['store', 'x', '--bogus']],
    ['MEM_ERR_INVALID_INPUT', () => ['store', 'x', '--importance', '3']],
    ['MEM_ERR_FACT_NOT_FOUND', () => ['show', 'fact_01JZZZZZZZZZZZZZZZZZZZZZZZ']],
    ['MEM_ERR_LINK_SELF', () => ['link', factId, factId]],
    ['MEM_ERR_QUERY_EMPTY', () => ['recall', '?!']],
    ['MEM_ERR_CONFLICT_NOT_FOUND', () => ['resolve', 'cf_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'keep_new']],
    ['MEM_ERR_CONFIG_INVALID', () => ['--config', join(home, 'bad-config.json'), 'stats']],
    ['MEM_ERR_CONFIG_UNREADABLE', () => ['--config', join(home, 'not-json.json'), 'stats']],
    ['MEM_ERR_IMPORT_FORMAT', () => ['import', join(home, 'other-export.json')]],
    ['MEM_ERR_VAULT_KEY', () => ['vault', 'put', 'github', '--type', 'token'], () => ({ HYBRID_MEM_VAULT_KEY: 'not-a-32-byte-key' })],
    ['MEM_ERR_PLUGIN_NOT_FOUND', () => ['plugin', 'info', 'no-such-plugin']],
    ['MEM_ERR_DB_CORRUPT', () => ['--db', join(home, 'junk.db'), 'stats']],
    ['MEM_ERR_DB_TOO_NEW', () => ['--db', join(home, 'newer.db'), 'stats']],
    ['MEM_ERR_NATIVE_UNAVAILABLE', () => ['stats'], () => ({ HYBRID_MEM_SQLITE_DRIVER: '/nonexistent/better-sqlite3' })],
  ];

  it.each(cases)('%s exits as documented', async (code, args, env) => {
    expect(documentedExit.has(code), `${code} is in the error table of docs/errors.md`).toBe(true);
    const r = await bin(home, args(), env?.(), 'ghp_example_token\n');
    expect(r.stderr).toMatch(new RegExp(`^hybrid-mem: ${code}: \\S.*\\n$`));
    expect(r.status, r.stderr).toBe(documentedExit.get(code));
    expect(r.stdout).toBe('');
  });

  it('the table gives 2 to the malformed command line only, 1 to every other failure', () => {
    expect(documentedExit.size).toBeGreaterThan(50);
    for (const [code, exit] of documentedExit) expect(exit, code).toBe(code === 'MEM_ERR_USAGE' ? 2 : 1);
  });

  it('the error lines the docs quote are what the CLI prints', async () => {
    const docs = ['README.md', 'docs/errors.md', 'docs/cli.md'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const quoted = [...docs.matchAll(/`(hybrid-mem: MEM_ERR_INVALID_INPUT: memory_store\.importance: [^`]+)`/g)].map((m) => m[1]);
    expect(quoted.length).toBeGreaterThan(0);
    const r = await bin(home, ['store', 'x', '--importance', '3']);
    for (const line of quoted) expect(r.stderr).toBe(`${line}\n`);
  });
});
