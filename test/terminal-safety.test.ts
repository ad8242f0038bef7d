/**
 * Terminal escape injection (issue 20, part 3; docs/security.md "CLI and terminal output"). An agent that
 * could store ESC sequences, BEL, BS, NUL or bidi overrides would retitle, clear or rewrite the operator's
 * terminal the next time `list`, `recall` or `show` printed the fact. Input: refused with a typed error
 * naming the field, nothing written. Output: text an older database already holds is printed escaped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { escapeTerminal, findControl } from '../src/core/terminal.js';
import { MemoryService } from '../src/memory/service.js';
import { sqliteDriver } from '../src/store/native.js';
import { openService, tempHome, type TestHome, errorOf } from './helpers.js';

const BIN = resolve(__dirname, '../bin/hybrid-mem.js');
const KEY = 'cd'.repeat(32);

/** Characters that must never reach a terminal raw from stored text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const DANGEROUS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** One of each kind an attacker would use. */
const ATTACKS: Record<string, string> = {
  'ESC title': 'set \u001b]0;owned\u0007 title',
  'ESC clear': 'wipe \u001b[2J\u001b[H screen',
  BEL: 'ring \u0007 bell',
  BS: 'hide\b\b\b\bshow',
  NUL: 'nul \u0000 byte',
  CR: 'overwrite\rthe line',
  DEL: 'del \u007f char',
  'C1 CSI': 'c1 \u009b2J clear',
  'bidi override': 'invoice \u202egnp.exe',
  'bidi isolate': 'isolate \u2066hidden\u2069 text',
};

const homes: TestHome[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const h of homes) h.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the rules (src/core/terminal.ts)', () => {
  it('finds refused characters, keeps tab, newline and bidi marks', () => {
    for (const [name, text] of Object.entries(ATTACKS)) expect(findControl(text), name).not.toBeNull();
    expect(findControl('tab\there\nand a new line')).toBeNull();
    expect(findControl('שלום \u200f עולם \u200e and \u061c')).toBeNull();
  });

  it('escapes control and bidi characters visibly, as \\uXXXX, and nothing else', () => {
    expect(escapeTerminal('a\u001b[2Jb\u0007c\u202ed\u200fe\u0085f')).toBe('a\\u001b[2Jb\\u0007c\\u202ed\\u200fe\\u0085f');
    expect(escapeTerminal('tab\tand\nnewline, ünïcödé, 日本')).toBe('tab\tand\nnewline, ünïcödé, 日本');
    for (const text of Object.values(ATTACKS)) expect(escapeTerminal(text)).not.toMatch(DANGEROUS);
  });
});

describe('input: refused with MEM_ERR_INVALID_INPUT naming the field, nothing written', () => {
  it('the service: text, entity, tags, edits', () => {
    const home = tempHome();
    homes.push(home);
    const { svc } = openService(home);
    const kept = svc.memoryStore({ text: 'a clean fact about the jump host' }).fact;
    const count = (): number => svc.db.prepare('SELECT count(*) FROM facts').pluck().get() as number;
    const before = count();
    for (const [name, bad] of Object.entries(ATTACKS)) {
      const cases: Array<[string, () => unknown]> = [
        ['memory_store.text', () => svc.memoryStore({ text: bad })],
        ['memory_store.entity', () => svc.memoryStore({ text: 'fine', entity: bad })],
        ['memory_store.tags.0', () => svc.memoryStore({ text: 'fine', tags: [bad] })],
        ['editFact.text', () => svc.editFact({ id: kept.id, text: bad })],
      ];
      for (const [path, attempt] of cases) {
        const err = errorOf(attempt);
        expect(err.code, `${name} at ${path}`).toBe('MEM_ERR_INVALID_INPUT');
        expect(err.details?.path, `${name} at ${path}`).toBe(path);
        expect(err.message).toMatch(/found U\+[0-9A-F]{4} at character \d+/);
      }
    }
    expect(count()).toBe(before);
    expect(svc.getFact(kept.id).text).toBe('a clean fact about the jump host');
    // Tab, newline and right-to-left marks are text, not attacks.
    expect(svc.memoryStore({ text: 'line one\n\tline two \u200f' }).created).toBe(true);
    void svc.close();
  });

  it('the CLI (store argument, stdin, --entity, --tag): exit 1, one escaped line, no database created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-term-cli-'));
    dirs.push(dir);
    const cli = async (argv: string[], stdin?: string) => {
      const out = { text: '', write: (c: string) => void (out.text += c) };
      const err = { text: '', write: (c: string) => void (err.text += c) };
      const code = await run(argv, { stdout: out, stderr: err, env: { HYBRID_MEM_HOME: dir, HYBRID_MEM_VAULT_KEY: KEY }, cwd: dir, stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]) });
      return { code, stdout: out.text, stderr: err.text };
    };
    const attempts: Array<[string[], string | undefined, string]> = [
      [['store', ATTACKS['ESC title'] as string], undefined, 'memory_store.text'],
      [['store', '-'], 'from stdin \u0000 with a NUL\n', 'memory_store.text'],
      [['store', 'fine', '--entity', 'host\u0007'], undefined, 'memory_store.entity'],
      [['store', 'fine', '--tag', 'ok', '--tag', 'back\bspace'], undefined, 'memory_store.tags.1'],
      [['store', ATTACKS['bidi override'] as string], undefined, 'memory_store.text'],
    ];
    for (const [argv, stdin, path] of attempts) {
      const r = await cli(argv, stdin);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^hybrid-mem: MEM_ERR_INVALID_INPUT: ${path.replace(/\./g, '\\.')}: expected text without control characters`));
      expect(r.stderr).not.toMatch(DANGEROUS);
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
    expect(existsSync(join(dir, 'memory.db'))).toBe(false);
  });
});

describe('output: a database written before input was checked prints safely (the real bin)', () => {
  const raw = 'the staging host \u001b]0;owned\u0007 is \u001b[2J\u001b[31mred\u001b[0m \b\b\u202eexe.gnp \u0085 \u2066end\u2069';

  it('list, recall and show escape control and bidi characters; --json keeps the exact text', () => {
    const home = tempHome();
    homes.push(home);
    const svc = MemoryService.open({ config: home.config, env: home.env });
    const id = svc.memoryStore({ text: 'the staging host is placeholder', entity: 'staging', tags: ['infra'] }).fact.id;
    void svc.close();
    // An old database: the bytes went in before the input edge refused them (UPDATE keeps FTS in sync).
    const db = new (sqliteDriver())(home.config.dbPath);
    db.prepare(`UPDATE facts SET text = ?, entity = ?, tags = ?, tags_text = ? WHERE id = ?`).run(raw, 'stag\u001b[5ming', JSON.stringify(['in\u0007fra']), 'in\u0007fra', id);
    db.close();

    const bin = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, HYBRID_MEM_HOME: home.dir, HYBRID_MEM_VAULT_KEY: KEY, HYBRID_MEM_FROM_SOURCE: '1' }, encoding: 'utf8' });
    for (const args of [['list'], ['recall', 'staging host'], ['show', id]]) {
      const r = bin(...args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).toContain(id);
      expect(r.stdout, args.join(' ')).not.toMatch(DANGEROUS);
      expect(r.stdout, args.join(' ')).toContain('\\u001b]0;owned\\u0007');
      expect(r.stdout, args.join(' ')).toContain('\\u202eexe.gnp');
    }
    const shown = bin('show', id).stdout;
    expect(shown).toContain('entity:      stag\\u001b[5ming');
    expect(shown).toContain('tags:        in\\u0007fra');
    const json = bin('--json', 'show', id);
    expect(JSON.parse(json.stdout).fact.text).toBe(raw);
  }, 60_000);
});
