/**
 * The hybrid-mem CLI: every command's happy path, and bad input for every command (exit 1, one line on
 * stderr naming the error code, the database unchanged), internal errors (exit 1), malformed command lines (exit 2), and the real bin.
 * Real SQLite files in temp dirs; `run` is called in-process except where the bin itself is under test.
 */
import { sqliteDriver } from '../src/store/native.js';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';

const Database = sqliteDriver();

const KEY = 'cd'.repeat(32);
const BIN = resolve(__dirname, '../bin/hybrid-mem.js');
const UNKNOWN_FACT = 'fact_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_LINK = 'link_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_CONFLICT = 'cf_01JZZZZZZZZZZZZZZZZZZZZZZZ';

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

class Sink {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

interface RunOptions {
  readonly stdin?: string;
  readonly env?: Record<string, string | undefined>;
  readonly signal?: AbortSignal;
  readonly tty?: boolean;
  readonly stdout?: Sink;
}

async function cli(home: string, argv: readonly string[], o: RunOptions = {}): Promise<Result> {
  const stdout = o.stdout ?? new Sink(o.tty);
  const stderr = new Sink();
  const env = { HYBRID_MEM_HOME: home, HYBRID_MEM_VAULT_KEY: KEY, ...o.env };
  const stdin = Readable.from(o.stdin === undefined ? [] : [Buffer.from(o.stdin)]);
  const code = await run(argv, { stdout, stderr, env, cwd: home, stdin, signal: o.signal });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A checksum of every table a user could notice changing; "absent" when there is no database. */
function checksum(dbPath: string): string {
  if (!existsSync(dbPath)) return 'absent';
  const db = new Database(dbPath, { readonly: true });
  try {
    const dump = ['facts', 'links', 'vault', 'events', 'conflicts', 'recall_events', 'episodes'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());
    return createHash('sha256').update(JSON.stringify(dump)).digest('hex');
  } finally {
    db.close();
  }
}

function expectUserError(r: Result, code: string): void {
  expect(r.code, r.stderr).toBe(code === 'MEM_ERR_USAGE' ? 2 : 1);
  expect(r.stderr).toMatch(new RegExp(`^hybrid-mem: ${code}: \\S.*\\n$`));
  expect(r.stderr.split('\n')).toHaveLength(2);
}

const firstLine = (s: string): string => s.split('\n')[0] ?? '';
const homes: string[] = [];
function newHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-cli-'));
  homes.push(dir);
  return dir;
}
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('bad input: exit 1 (2 for a malformed command line), one line naming the code, database unchanged', () => {
  let home: string;
  const ids = { a: '', b: '', link: '', conflict: '' };

  beforeAll(async () => {
    home = newHome();
    ids.a = firstLine((await cli(home, ['store', 'The build server port is 8080', '--entity', 'build', '--category', 'technical'])).stdout);
    const b = await cli(home, ['store', 'The build server port is 9090', '--entity', 'build', '--category', 'technical']);
    ids.b = firstLine(b.stdout);
    ids.conflict = /conflict (cf_\w+)/.exec(b.stdout)?.[1] ?? '';
    const c = firstLine((await cli(home, ['store', 'Deploys run on Fridays'])).stdout);
    ids.link = /^(link_\w+)/.exec((await cli(home, ['link', ids.a, c])).stdout)?.[1] ?? '';
    await cli(home, ['vault', 'put', 'github', '--type', 'token'], { stdin: 'ghp_x\n' });
    writeFileSync(join(home, 'bad.json'), '{"format": "hybrid-mem-export", ');
    writeFileSync(join(home, 'other.json'), JSON.stringify({ format: 'something-else', version: 1, facts: [] }));
    writeFileSync(join(home, 'invalid-record.json'), JSON.stringify({ format: 'hybrid-mem-export', version: 1, facts: [{ text: 'ok' }, { text: 'x', importance: 7 }] }));
    writeFileSync(join(home, 'bad-config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { port: 'x' } } } } } }));
    expect(ids).toMatchObject({ a: expect.stringMatching(/^fact_/), b: expect.stringMatching(/^fact_/), link: expect.stringMatching(/^link_/), conflict: expect.stringMatching(/^cf_/) });
  });

  const cases: [string, () => string[], string, string?][] = [
    ['store: unknown option', () => ['store', 'x', '--bogus'], 'MEM_ERR_USAGE'],
    ['store: missing text', () => ['store'], 'MEM_ERR_USAGE'],
    ['store: importance out of range', () => ['store', 'x', '--importance', '3'], 'MEM_ERR_INVALID_INPUT'],
    ['store: importance not a number', () => ['store', 'x', '--importance', 'high'], 'MEM_ERR_INVALID_INPUT'],
    ['store: unknown category', () => ['store', 'x', '--category', 'gossip'], 'MEM_ERR_INVALID_INPUT'],
    ['store: unknown decay class', () => ['store', 'x', '--decay', 'fast'], 'MEM_ERR_INVALID_INPUT'],
    ['store: unreadable expiry', () => ['store', 'x', '--expires', 'tomorrow'], 'MEM_ERR_INVALID_INPUT'],
    ['store: expiry in the past', () => ['store', 'x', '--expires', '2001-01-01'], 'MEM_ERR_INVALID_INPUT'],
    ['store: --agent with global scope', () => ['store', 'x', '--scope', 'global', '--agent', 'a'], 'MEM_ERR_USAGE'],
    ['store: unknown scope', () => ['store', 'x', '--scope', 'team'], 'MEM_ERR_INVALID_INPUT'],
    ['store: supersedes an unknown fact', () => ['store', 'x', '--supersedes', UNKNOWN_FACT], 'MEM_ERR_FACT_NOT_FOUND'],
    ['store: empty text on stdin', () => ['store', '-'], 'MEM_ERR_INVALID_INPUT', '\n'],
    ['recall: limit 0', () => ['recall', 'build', '--limit', '0'], 'MEM_ERR_INVALID_INPUT'],
    ['recall: no searchable words', () => ['recall', '!!!'], 'MEM_ERR_QUERY_EMPTY'],
    ['link: bad link type', () => ['link', ids.a, ids.b, '--type', 'LIKES'], 'MEM_ERR_INVALID_INPUT'],
    ['link: unknown fact', () => ['link', ids.a, UNKNOWN_FACT], 'MEM_ERR_FACT_NOT_FOUND'],
    ['link: malformed id', () => ['link', 'abc', ids.a], 'MEM_ERR_INVALID_INPUT'],
    ['link: to itself', () => ['link', ids.a, ids.a], 'MEM_ERR_LINK_SELF'],
    ['link: strength 2', () => ['link', ids.a, ids.b, '--strength', '2'], 'MEM_ERR_INVALID_INPUT'],
    ['link: missing target', () => ['link', ids.a], 'MEM_ERR_USAGE'],
    ['unlink: unknown link', () => ['unlink', UNKNOWN_LINK], 'MEM_ERR_LINK_NOT_FOUND'],
    ['link-type: bad type', () => ['link-type', ids.link, 'LIKES'], 'MEM_ERR_INVALID_INPUT'],
    ['link-type: missing type', () => ['link-type', ids.link], 'MEM_ERR_USAGE'],
    ['show: unknown fact', () => ['show', UNKNOWN_FACT], 'MEM_ERR_FACT_NOT_FOUND'],
    ['show: extra argument', () => ['show', ids.a, 'more'], 'MEM_ERR_USAGE'],
    ['list: limit 0', () => ['list', '--limit', '0'], 'MEM_ERR_INVALID_INPUT'],
    ['list: unreadable --as-of', () => ['list', '--as-of', 'yesterday'], 'MEM_ERR_INVALID_INPUT'],
    ['edit: no change given', () => ['edit', ids.a], 'MEM_ERR_USAGE'],
    ['edit: confidence below 0', () => ['edit', ids.a, '--confidence=-1'], 'MEM_ERR_INVALID_INPUT'],
    ['edit: negative value without =', () => ['edit', ids.a, '--confidence', '-1'], 'MEM_ERR_USAGE'],
    ['edit: unknown fact', () => ['edit', UNKNOWN_FACT, '--text', 'y'], 'MEM_ERR_FACT_NOT_FOUND'],
    ['delete: unknown fact', () => ['delete', UNKNOWN_FACT], 'MEM_ERR_FACT_NOT_FOUND'],
    ['pin: unknown fact', () => ['pin', UNKNOWN_FACT], 'MEM_ERR_FACT_NOT_FOUND'],
    ['unpin: malformed id', () => ['unpin', 'fact_123'], 'MEM_ERR_INVALID_INPUT'],
    ['conflicts: unknown status', () => ['conflicts', '--status', 'open'], 'MEM_ERR_INVALID_INPUT'],
    ['resolve: unknown resolution', () => ['resolve', ids.conflict, 'keep_both'], 'MEM_ERR_INVALID_INPUT'],
    ['resolve: unknown conflict', () => ['resolve', UNKNOWN_CONFLICT, 'keep_new'], 'MEM_ERR_CONFLICT_NOT_FOUND'],
    ['vault put: --secret flag', () => ['vault', 'put', 'gitlab', '--secret', 'hunter2'], 'MEM_ERR_USAGE'],
    ['vault put: secret as an argument', () => ['vault', 'put', 'gitlab', 'hunter2'], 'MEM_ERR_USAGE'],
    ['vault put: unknown type', () => ['vault', 'put', 'gitlab', '--type', 'pin'], 'MEM_ERR_INVALID_INPUT', 'x'],
    ['vault put: empty secret', () => ['vault', 'put', 'gitlab'], 'MEM_ERR_INVALID_INPUT', ''],
    ['vault get: unknown service', () => ['vault', 'get', 'nope'], 'MEM_ERR_CREDENTIAL_NOT_FOUND'],
    ['vault remove: unknown service', () => ['vault', 'remove', 'nope'], 'MEM_ERR_CREDENTIAL_NOT_FOUND'],
    ['vault remove: wrong scope', () => ['vault', 'remove', 'github', '--agent', 'ops'], 'MEM_ERR_CREDENTIAL_NOT_FOUND'],
    ['vault: unknown subcommand', () => ['vault', 'open'], 'MEM_ERR_USAGE'],
    ['vault: missing subcommand', () => ['vault'], 'MEM_ERR_USAGE'],
    ['import: unreadable file', () => ['import', 'missing.json'], 'MEM_ERR_INVALID_INPUT'],
    ['import: malformed JSON', () => ['import', 'bad.json'], 'MEM_ERR_IMPORT_FORMAT'],
    ['import: not the export format', () => ['import', 'other.json'], 'MEM_ERR_IMPORT_FORMAT'],
    ['import: --strict with an invalid record', () => ['import', 'invalid-record.json', '--strict'], 'MEM_ERR_IMPORT_FORMAT'],
    ['import: malformed JSON on stdin', () => ['import', '-'], 'MEM_ERR_IMPORT_FORMAT', '[1,'],
    ['export: unwritable file', () => ['export', 'no/such/dir/out.json'], 'MEM_ERR_INVALID_INPUT'],
    ['config: invalid config file', () => ['list', '--config', 'bad-config.json'], 'MEM_ERR_CONFIG_INVALID'],
    ['config check: invalid config file', () => ['config', 'check', '--config', 'bad-config.json'], 'MEM_ERR_CONFIG_INVALID'],
    ['config check: unreadable config file', () => ['config', 'check', '--config', 'nope.json'], 'MEM_ERR_CONFIG_UNREADABLE'],
    ['stats: unknown option', () => ['stats', '--all'], 'MEM_ERR_USAGE'],
    ['maintenance: extra argument', () => ['maintenance', 'now'], 'MEM_ERR_USAGE'],
    ['serve: unknown option', () => ['serve', '--host', '0.0.0.0'], 'MEM_ERR_USAGE'],
    ['serve: a port out of range', () => ['serve', '--port', '70000'], 'MEM_ERR_INVALID_INPUT'],
    ['dashboard: unknown option', () => ['dashboard', '--open'], 'MEM_ERR_USAGE'],
    ['unknown command', () => ['frobnicate'], 'MEM_ERR_USAGE'],
    ['no command', () => [], 'MEM_ERR_USAGE'],
    ['a value for a flag', () => ['list', '--json=yes'], 'MEM_ERR_USAGE'],
    ['--db without a value', () => ['list', '--db'], 'MEM_ERR_USAGE'],
  ];

  it.each(cases)('%s', async (_title, argv, code, stdin) => {
    const db = join(home, 'memory.db');
    const before = checksum(db);
    const r = await cli(home, argv(), { stdin });
    expectUserError(r, code);
    expect(r.stdout).toBe('');
    expect(checksum(db)).toBe(before);
  });

  it('bad input on a fresh data dir does not even create the database', async () => {
    const fresh = newHome();
    for (const argv of [['store', 'x', '--importance', '3'], ['link', 'fact_1', 'fact_2'], ['show', 'nope'], ['resolve', 'cf_1', 'keep_new'], ['edit', 'fact_1', '--text', 'y']]) {
      expect((await cli(fresh, argv)).code).toBe(1);
    }
    expect((await cli(fresh, ['vault', 'put', 'x'], { stdin: '' })).code).toBe(1);
    expect(existsSync(join(fresh, 'memory.db'))).toBe(false);
  });

  it('never echoes a secret given on the command line', async () => {
    for (const argv of [['vault', 'put', 'gitlab', 'hunter2'], ['vault', 'put', 'gitlab', '--secret=hunter2']]) {
      const r = await cli(home, argv);
      expect(r.stderr).toContain('shell history');
      expect(r.stderr).not.toContain('hunter2');
    }
  });

  it('with --json prints the error as one JSON line on stderr', async () => {
    const r = await cli(home, ['--json', 'store', 'x', '--importance', '3']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'MEM_ERR_INVALID_INPUT', message: expect.stringContaining('importance'), details: expect.objectContaining({ path: 'memory_store.importance' }) },
    });
  });
});

describe('commands', () => {
  let home: string;
  beforeEach(() => {
    home = newHome();
  });

  it('auth-recall check reads turns as JSON Lines and prints one result line per turn, in order', async () => {
    await cli(home, ['store', 'SSH to 10.0.4.7: user ops, password hunter2', '--category', 'technical']);
    const turns = [
      { id: 'a', prompt: 'deploy', messages: ['ops@10.0.4.7: Permission denied (publickey,password).'], agentId: 'coder', sessionId: 's1' },
      { id: 'b', prompt: 'deploy again', messages: ['ops@10.0.4.7: Permission denied (publickey,password).'], agentId: 'coder', sessionId: 's1' },
      { id: 'c', prompt: 'all green' },
    ];
    const r = await cli(home, ['auth-recall', 'check'], { stdin: turns.map((t) => JSON.stringify(t)).join('\n') + '\n' });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['a', 'b', 'c']);
    expect(lines[0]).toMatchObject({ detected: true, target: '10.0.4.7', factIds: [expect.stringMatching(/^fact_/)] });
    expect(lines[0].hint).toContain('password [redacted]');
    expect(lines[1]).toMatchObject({ detected: true, target: '10.0.4.7', hint: null });
    expect(lines[2]).toMatchObject({ detected: false, target: null, factIds: [], hint: null });
    expect(r.stdout + r.stderr).not.toContain('hunter2');
    const bad = await cli(home, ['auth-recall', 'check'], { stdin: 'not json\n' });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ line: 1, error: { code: 'MEM_ERR_INVALID_INPUT' } });
  });

  it('auth-recall check: maxRecallsPerTarget holds per session across processes (counted in recall_events)', async () => {
    await cli(home, ['store', 'SSH to 10.0.4.7: user ops, key ~/.ssh/ops_ed25519', '--category', 'technical']);
    const turn = (sessionId: string) => `${JSON.stringify({ id: sessionId, messages: ['ops@10.0.4.7: Permission denied (publickey).'], sessionId })}\n`;
    const first = await cli(home, ['auth-recall', 'check'], { stdin: turn('s1') });
    const second = await cli(home, ['auth-recall', 'check'], { stdin: turn('s1') });
    const other = await cli(home, ['auth-recall', 'check'], { stdin: turn('s2') });
    expect(JSON.parse(first.stdout).hint).toContain('10.0.4.7');
    expect(JSON.parse(second.stdout)).toMatchObject({ detected: true, target: '10.0.4.7', hint: null });
    expect(JSON.parse(other.stdout).hint).toContain('10.0.4.7');
  });

  it('store prints the id; --json the fact; "-" reads stdin; an identical fact is not stored twice', async () => {
    const r = await cli(home, ['store', 'Staging is at 10.0.0.5', '--category', 'technical', '--entity', 'staging', '--tag', 'SSH', '--tag', 'infra', '--importance', '0.9', '--pinned', '--scope', 'agent', '--agent', 'ops']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^fact_\w{26}\n$/);
    const shown = JSON.parse((await cli(home, ['--json', 'show', r.stdout.trim()])).stdout);
    expect(shown.fact).toMatchObject({ text: 'Staging is at 10.0.0.5', category: 'technical', tags: ['ssh', 'infra'], importance: 0.9, pinned: true, scope: { kind: 'agent', agentId: 'ops' }, source: 'cli' });
    const piped = await cli(home, ['--json', 'store', '-', '--expires', '2099-01-01'], { stdin: 'From a pipe\n' });
    expect(JSON.parse(piped.stdout)).toMatchObject({ created: true, conflicts: [], fact: { text: 'From a pipe', expiresAt: Date.UTC(2099, 0, 1) } });
    const again = await cli(home, ['store', 'From a pipe']);
    expect(again.stdout).toContain('already exists');
    expect(JSON.parse((await cli(home, ['--json', 'stats'])).stdout).totalFacts).toBe(2);
  });

  it('recall prints numbered matches with score, id, category and text', async () => {
    const id = firstLine((await cli(home, ['store', 'The VPN gateway is vpn.example.com', '--category', 'technical'])).stdout);
    await cli(home, ['store', 'Lunch is at noon']);
    const r = await cli(home, ['recall', 'vpn gateway']);
    expect(r.stdout).toMatch(new RegExp(`^1\\. \\d\\.\\d{4}  ${id}  \\[technical\\]  The VPN gateway is vpn.example.com\\n$`));
    expect((await cli(home, ['recall', 'nothing-like-this'])).stdout).toBe('no matches\n');
    const json = JSON.parse((await cli(home, ['--json', 'recall', 'vpn', '--limit', '1'])).stdout);
    expect(json.results).toEqual([{ score: expect.any(Number), why: expect.objectContaining({ ftsRank: 1 }), fact: expect.objectContaining({ id }) }]);
  });

  it('link, link again (strengthens), link-type, show, unlink', async () => {
    const a = firstLine((await cli(home, ['store', 'Service A calls service B'])).stdout);
    const b = firstLine((await cli(home, ['store', 'Service B owns the orders table'])).stdout);
    const made = await cli(home, ['link', a, b, '--type', 'DEPENDS_ON', '--strength', '0.6']);
    const linkId = /^(link_\w+)/.exec(made.stdout)?.[1] as string;
    expect(made.stdout).toContain(`-[DEPENDS_ON]-> ${b}  strength 0.60\ncreated\n`);
    expect((await cli(home, ['link', a, b, '--type', 'DEPENDS_ON'])).stdout).toContain('strengthened');
    expect((await cli(home, ['link-type', linkId, 'PART_OF'])).stdout).toContain('-[PART_OF]->');
    const shown = await cli(home, ['show', a]);
    expect(shown.stdout).toContain(`links (1):\n  ${linkId}`);
    expect(shown.stdout).toContain('history (1):');
    expect((await cli(home, ['unlink', linkId])).stdout).toBe(`cut ${linkId}\n`);
    expect(JSON.parse((await cli(home, ['--json', 'show', a])).stdout).links).toEqual([]);
  });

  it('list, edit (a new version), pin, unpin, delete, and list --as-of before the delete', async () => {
    const id = firstLine((await cli(home, ['store', 'The office opens at 8', '--entity', 'office'])).stdout);
    const edited = await cli(home, ['edit', id, '--text', 'The office opens at 9', '--importance', '0.7']);
    const v2 = firstLine(edited.stdout);
    expect(edited.stdout).toContain(`new version 2 of ${id}; ${id} is superseded`);
    expect((await cli(home, ['show', v2])).stdout).toContain(`  v1 ${id}  [fact] (superseded)  The office opens at 8`);
    expect((await cli(home, ['pin', v2])).stdout).toBe(`pinned ${v2}\n`);
    expect((await cli(home, ['list', '--entity', 'office'])).stdout).toBe(`${v2}  [fact] (pinned)  The office opens at 9\n`);
    expect((await cli(home, ['unpin', v2])).stdout).toBe(`unpinned ${v2}\n`);
    const beforeDelete = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    expect((await cli(home, ['delete', v2])).stdout).toBe(`deleted ${v2}\n`);
    expect((await cli(home, ['list'])).stdout).toBe('no facts\n');
    expect((await cli(home, ['list', '--as-of', new Date(beforeDelete).toISOString()])).stdout).toContain(v2);
    expect(JSON.parse((await cli(home, ['--json', 'list', '--as-of', String(beforeDelete), '--limit', '5'])).stdout).facts).toHaveLength(1);
  });

  it('conflicts and resolve', async () => {
    await cli(home, ['store', 'The API rate limit is 100', '--entity', 'api']);
    const second = await cli(home, ['store', 'The API rate limit is 500', '--entity', 'api']);
    const cf = /conflict (cf_\w+)/.exec(second.stdout)?.[1] as string;
    expect(second.stdout).toContain(`hybrid-mem resolve ${cf} keep_new|keep_old|both_fine`);
    expect((await cli(home, ['conflicts'])).stdout).toMatch(new RegExp(`^${cf}  unresolved  new fact_`));
    expect((await cli(home, ['resolve', cf, 'keep_new'])).stdout).toContain(`${cf}  resolved -> keep_new`);
    expect((await cli(home, ['conflicts'])).stdout).toBe('no conflicts\n');
    expect((await cli(home, ['conflicts', '--status', 'resolved'])).stdout).toContain(cf);
    expectUserError(await cli(home, ['resolve', cf, 'keep_old']), 'MEM_ERR_CONFLICT_CLOSED');
  });

  it('vault put (stdin) | list (no secrets) | get (exact for pipes) | remove', async () => {
    expect((await cli(home, ['vault', 'put', 'github', '--type', 'token', '--note', 'CI'], { stdin: 'ghp_abc123\n' })).stdout).toBe('stored github (token, global)\n');
    expect((await cli(home, ['vault', 'put', 'db', '--agent', 'ops'], { stdin: 'pw' })).stdout).toBe('stored db (password, agent:ops)\n');
    const listed = await cli(home, ['vault', 'list']);
    expect(listed.stdout).toBe('db  password  agent:ops\ngithub  token  global  CI\n');
    expect((await cli(home, ['--json', 'vault', 'list'])).stdout).not.toContain('ghp_abc123');
    expect((await cli(home, ['vault', 'get', 'github'])).stdout).toBe('ghp_abc123');
    const onTty = await cli(home, ['vault', 'get', 'github'], { tty: true });
    expect(onTty).toMatchObject({ code: 0, stdout: 'ghp_abc123\n', stderr: expect.stringContaining('warning') });
    expect((await cli(home, ['vault', 'get', 'db', '--agent', 'ops'])).stdout).toBe('pw');
    expectUserError(await cli(home, ['vault', 'get', 'db', '--agent', 'someone-else']), 'MEM_ERR_CREDENTIAL_NOT_FOUND');
    expect((await cli(home, ['recall', 'github credential'])).stdout).toContain('Credential for github (token), stored in secure vault');
    expect((await cli(home, ['vault', 'remove', 'github'])).stdout).toBe('removed github\n');
    expect((await cli(home, ['vault', 'remove', 'db', '--scope', 'agent', '--agent', 'ops'])).stdout).toBe('removed db\n');
    expect((await cli(home, ['vault', 'list'])).stdout).toBe('the vault is empty\n');
  });

  it('vault without HYBRID_MEM_VAULT_KEY creates a 0600 key file in the data dir', async () => {
    const env = { HYBRID_MEM_VAULT_KEY: undefined };
    expect((await cli(home, ['vault', 'put', 'smtp'], { stdin: 'mail-pw', env })).code).toBe(0);
    expect(statSync(join(home, 'vault.key')).mode & 0o777).toBe(0o600);
    expect((await cli(home, ['vault', 'get', 'smtp'], { env })).stdout).toBe('mail-pw');
  });

  it('export -> import into a fresh database round-trips facts (scope, tags, vault pointers) and links; twice adds nothing', async () => {
    const a = firstLine((await cli(home, ['store', 'Agent note', '--agent', 'ops', '--tag', 'x'])).stdout);
    const b = firstLine((await cli(home, ['store', 'Session note', '--session', 's9'])).stdout);
    await cli(home, ['link', a, b, '--type', 'CAUSED_BY']);
    await cli(home, ['vault', 'put', 'aws', '--type', 'api_key'], { stdin: 'AKIA-SECRET' });
    expect((await cli(home, ['export', 'out.json'])).stdout).toBe(`exported 3 facts, 1 link, 1 vault pointer to ${join(home, 'out.json')}\n`);
    const file = readFileSync(join(home, 'out.json'), 'utf8');
    expect(file).not.toContain('AKIA-SECRET');
    expect(statSync(join(home, 'out.json')).mode & 0o777).toBe(0o600);
    const stdoutDoc = JSON.parse((await cli(home, ['export'])).stdout);
    expect(stdoutDoc.facts).toEqual(JSON.parse(file).facts);

    const other = newHome();
    const imported = await cli(other, ['import', join(home, 'out.json')]);
    expect(imported.stdout).toContain('imported 3 facts, 1 link\n');
    expect(imported.stdout).toContain('hybrid-mem vault put aws --type api_key < secret-file');
    const back = JSON.parse((await cli(other, ['export'])).stdout);
    const strip = (d: { facts: { id: string; scope: unknown; tags: string[]; vaultService: string | null; text: string }[] }) =>
      d.facts.map((f) => ({ id: f.id, scope: f.scope, tags: f.tags, vaultService: f.vaultService, text: f.text }));
    expect(strip(back)).toEqual(strip(stdoutDoc));
    expect(back.links.map((l: { sourceId: string; targetId: string; linkType: string }) => [l.sourceId, l.targetId, l.linkType])).toEqual([[a, b, 'CAUSED_BY']]);

    const before = checksum(join(other, 'memory.db'));
    const twice = JSON.parse((await cli(other, ['--json', 'import', join(home, 'out.json')])).stdout);
    expect(twice.imported).toEqual({ facts: 0, links: 0 });
    expect(twice.skipped).toHaveLength(4);
    expect(checksum(join(other, 'memory.db'))).toBe(before);
  });

  it('import --dry-run reports and writes nothing; skipped records are listed with index and reason', async () => {
    writeFileSync(join(home, 'in.json'), JSON.stringify({ format: 'hybrid-mem-export', version: 1, facts: [{ text: 'good' }, { text: 'bad', confidence: 2 }], links: [] }));
    await cli(home, ['store', 'seed']);
    const before = checksum(join(home, 'memory.db'));
    const dry = await cli(home, ['import', 'in.json', '--dry-run']);
    expect(dry.stdout).toBe('imported 1 fact, 0 links (dry run: nothing was written)\nskipped 1:\n  fact #1: invalid: facts.1.confidence: expected a number <= 1, received 2\n');
    expect(checksum(join(home, 'memory.db'))).toBe(before);
    expect((await cli(home, ['import', '-'], { stdin: readFileSync(join(home, 'in.json'), 'utf8') })).stdout).toContain('imported 1 fact');
  });

  it('config check prints the resolved config with dashboard.token masked', async () => {
    const plain = await cli(home, ['config', 'check']);
    expect(plain.stdout).toContain('config ok: defaults (no config file)\n');
    expect(plain.stdout).toContain(`dbPath = ${JSON.stringify(join(home, 'memory.db'))}`);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { token: 'tok-very-secret-1' }, maintenance: { intervalMinutes: 5 } } } } } }));
    const withFile = await cli(home, ['config', 'check']);
    expect(withFile.stdout).toContain(`config ok: ${join(home, 'config.json')}`);
    expect(withFile.stdout).toContain('dashboard.token = "********"');
    expect(withFile.stdout).toContain('maintenance.intervalMinutes = 5');
    expect(withFile.stdout).not.toContain('tok-very-secret-1');
    const json = JSON.parse((await cli(home, ['--json', 'config', 'check'])).stdout);
    expect(json).toMatchObject({ valid: true, config: { dashboard: { token: '********' } } });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { token: 'short' } } } } } }));
    const bad = await cli(home, ['config', 'check']);
    expectUserError(bad, 'MEM_ERR_CONFIG_INVALID');
    expect(bad.stderr).toContain('dashboard.token: expected at least 8 character(s)');
    expect(bad.stderr).not.toContain('short');
  });

  it('--db names the database file; its folder is the data dir', async () => {
    const db = join(home, 'elsewhere', 'mem.sqlite');
    expect((await cli(home, ['--db', db, 'store', 'over there'])).code).toBe(0);
    expect(existsSync(db)).toBe(true);
    expect(existsSync(join(home, 'memory.db'))).toBe(false);
    expect((await cli(home, ['list', '--db', 'elsewhere/mem.sqlite'])).stdout).toContain('over there');
  });

  it('stats and maintenance', async () => {
    await cli(home, ['store', 'A fact', '--category', 'decision']);
    const stats = await cli(home, ['stats']);
    expect(stats.stdout).toContain('1 current fact (0 superseded versions)\n0 links, 0 open conflicts\nby category: decision 1\n');
    const m = await cli(home, ['maintenance']);
    expect(m.stdout).toMatch(/^expired 0, decayed 0, strength refreshed 1, purged 0\n/);
    expect(JSON.parse((await cli(home, ['--json', 'maintenance'])).stdout)).toMatchObject({ expired: 0, decayed: 0 });
  });

  it('serve prints where it serves and a status line with the dashboard URL; dashboard prints it; stops cleanly (exit 0)', async () => {
    const stop = new AbortController();
    const stdout = new Sink();
    const serving = cli(home, ['serve'], { signal: stop.signal, stdout });
    for (let i = 0; i < 3000 && !stdout.text.includes('/graph'); i++) await new Promise((r) => setTimeout(r, 10));
    const dbPath = join(home, 'memory.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(
      `^hybrid-mem serving ${dbPath}\\n0 facts, 0 links, 0 open conflicts; semantic search on \\(use-lite@0\\.2\\.0, 0 vectors, 0 to embed\\); maintenance every 60 min; dashboard (http://127\\.0\\.0\\.1:\\d+)/graph( \\(port 7700 was taken\\))?\\n$`,
    ).exec(stdout.text);
    expect(m, stdout.text).not.toBeNull();
    const url = m?.[1] ?? '';
    expect(await cli(home, ['dashboard'])).toEqual({ code: 0, stdout: `${url}/graph\n`, stderr: '' });
    expect(JSON.parse((await cli(home, ['--json', 'dashboard'])).stdout)).toEqual({ running: true, url, graph: `${url}/graph`, graphql: `${url}/graphql` });
    const stats = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ stats { totalFacts } }"}' });
    expect(await stats.json()).toEqual({ data: { stats: { totalFacts: 0 } } });
    stop.abort();
    expect(await serving).toMatchObject({ code: 0, stdout: expect.stringContaining('hybrid-mem stopped') });
    // Stopped: the record is gone and the port is closed.
    expect(await cli(home, ['dashboard'])).toMatchObject({ code: 1, stderr: expect.stringContaining('no dashboard server is running') });
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });

  it('dashboard says honestly that no dashboard server is running (exit 1)', async () => {
    expect(await cli(home, ['dashboard'])).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('no dashboard server is running') });
    expect(await cli(home, ['--json', 'dashboard'])).toMatchObject({ code: 1, stdout: '{"running":false,"url":null}\n' });
  });

  it('help on every command, and --version', async () => {
    const top = await cli(home, ['--help']);
    for (const name of ['store', 'recall', 'link', 'unlink', 'link-type', 'vault put', 'import', 'export', 'config check', 'serve', 'dashboard']) expect(top.stdout).toContain(`  ${name} `);
    expect((await cli(home, ['store', '--help'])).stdout).toContain('Usage: hybrid-mem store <text> [options]');
    expect((await cli(home, ['vault', 'put', '-h'])).stdout).toContain('--secret S');
    expect((await cli(home, ['vault', '--help'])).stdout).toContain('vault remove');
    expect((await cli(home, ['--version'])).stdout).toMatch(/^hybrid-mem \d+\.\d+\.\d+\n$/);
    expect(existsSync(join(home, 'memory.db'))).toBe(false);
  });

  it('an internal error exits 1 with one line (the stack only with HYBRID_MEM_DEBUG=1)', async () => {
    writeFileSync(join(home, 'not-a-db.db'), 'this is not a SQLite database, just some text that is long enough '.repeat(20));
    const r = await cli(home, ['--db', 'not-a-db.db', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hybrid-mem: MEM_ERR_DB_CORRUPT: .*file is not a database.*doctor --recover.*\n$/);
    const debug = await cli(home, ['--db', 'not-a-db.db', 'list'], { env: { HYBRID_MEM_DEBUG: '1' } });
    expect(debug.stderr.split('\n').length).toBeGreaterThan(3);
    expect(debug.stderr).toContain('    at ');
    const json = await cli(home, ['--json', '--db', 'not-a-db.db', 'stats']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr).error.code).toBe('MEM_ERR_DB_CORRUPT');
  });
});

describe('the real bin (node bin/hybrid-mem.js)', () => {
  let home: string;
  beforeEach(() => {
    home = newHome();
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  const bin = (args: string[], input?: string) =>
    spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_VAULT_KEY: KEY }, input, encoding: 'utf8' });

  it('stores, recalls and reports exit codes 0, 1 and 2', () => {
    const stored = bin(['store', '-', '--category', 'technical'], 'The jump host is bastion.example.org\n');
    expect(stored.stderr).toBe('');
    expect(stored.status).toBe(0);
    const id = stored.stdout.trim();
    expect(bin(['recall', 'jump host']).stdout).toContain(`${id}  [technical]  The jump host is bastion.example.org`);
    const bad = bin(['store', 'x', '--importance', '3']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^hybrid-mem: MEM_ERR_INVALID_INPUT: /);
    writeFileSync(join(home, 'junk.db'), 'junk '.repeat(400));
    expect(bin(['--db', join(home, 'junk.db'), 'stats']).status).toBe(1);
  });

  it('serve stops cleanly on SIGTERM with exit code 0', async () => {
    const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, HYBRID_MEM_HOME: home, HYBRID_MEM_VAULT_KEY: KEY } });
    let out = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!sent && out.includes('maintenance every')) sent = child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(out).toContain(`hybrid-mem serving ${join(home, 'memory.db')}`);
    expect(code).toBe(0);
    expect(out).toContain('hybrid-mem stopped');
  });
});
