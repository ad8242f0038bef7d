/** Config: the spec's defaults, the gateway file shape, and errors that name path, expectation and value. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { configJsonSchema } from '../src/config/json-schema.js';
import { loadConfigFile, resolveConfig } from '../src/config/resolve.js';

const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-config-'));
const env = { HYBRID_MEM_HOME: dir };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(doc: unknown): string {
  const p = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return p;
}

describe('config', () => {
  it('fills the spec defaults', () => {
    const c = resolveConfig({}, { env });
    expect(c.autoRecall).toEqual({
      enabled: true,
      authFailure: { enabled: true, patterns: null, maxRecallsPerTarget: 1, includeVaultHints: true },
      relevant: { enabled: true, limit: 5, minScore: 0.35, minCoverage: 0.3, minSimilarity: 0.6, maxTokens: 800, maxPerMemoryChars: 300, format: 'full', minPromptChars: 4, vectorDeadlineMs: 0 },
    });
    expect(c.dashboard).toEqual({ enabled: true, port: 7700, token: null, server: 'auto', appDir: null });
    expect(c.agent).toEqual({ role: 'specialist', orchestrators: [], id: null, sessionId: null });
    expect(c.dbPath).toBe(join(dir, 'memory.db'));
    expect(Object.isFrozen(c.autoRecall.authFailure)).toBe(true);
  });

  it('reads plugins.entries.hybrid-mem.config from a gateway-shaped file', () => {
    const p = file({ plugins: { entries: { 'hybrid-mem': { enabled: true, config: { dashboard: { port: 7777 }, autoRecall: { authFailure: { maxRecallsPerTarget: 0 } } } } } }, other: 1 });
    const c = loadConfigFile(p, { env });
    expect(c.dashboard.port).toBe(7777);
    expect(c.autoRecall.authFailure.maxRecallsPerTarget).toBe(0);
    expect(c.source).toBe(p);
    expect(loadConfigFile(file({ plugins: { entries: {} } }), { env }).dashboard.port).toBe(7700);
  });

  it('names the key path, the expectation and the value for each error', () => {
    const p = file({ plugins: { entries: { 'hybrid-mem': { config: { dashboard: { port: 'seven' }, autoRecall: { enabled: 'yes' } } } } } });
    expect(() => loadConfigFile(p, { env })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CONFIG_INVALID' }));
    expect(() => loadConfigFile(p, { env })).toThrow('plugins.entries.hybrid-mem.config.dashboard.port: expected a number, received "seven"');
    expect(() => loadConfigFile(p, { env })).toThrow('plugins.entries.hybrid-mem.config.autoRecall.enabled: expected a boolean, received "yes"');
    expect(() => resolveConfig({ dashboard: { prot: 1 } }, { env })).toThrow(/dashboard: expected only known keys, received unknown key\(s\) prot/);
    expect(() => resolveConfig({ autoRecall: { authFailure: { maxRecallsPerTarget: -1 } } }, { env })).toThrow(/maxRecallsPerTarget: expected a number >= 0, received -1/);
    expect(() => resolveConfig({ dashboard: { port: 70000 } }, { env })).toThrow(/port: expected a number <= 65535, received 70000/);
  });

  it('config check accepts agent.orchestrators and refuses a malformed list, naming the key path', async () => {
    const check = async (config: unknown): Promise<{ code: number; stdout: string; stderr: string }> => {
      const home = mkdtempSync(join(dir, 'check-'));
      writeFileSync(join(home, 'config.json'), JSON.stringify({ plugins: { entries: { 'hybrid-mem': { config } } } }));
      const out = { stdout: '', stderr: '' };
      const sink = (k: 'stdout' | 'stderr') => ({ isTTY: false, write: (chunk: string) => ((out[k] += chunk), true) });
      const code = await run(['config', 'check'], { stdout: sink('stdout'), stderr: sink('stderr'), env: { HYBRID_MEM_HOME: home }, cwd: home, stdin: Readable.from([]) });
      return { code, ...out };
    };
    const ok = await check({ agent: { orchestrators: ['lead', 'planner'] } });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('agent.orchestrators = ["lead","planner"]');
    expect(ok.stdout).toContain('agent.role = "specialist"');
    for (const [orchestrators, message] of [
      ['lead', 'agent.orchestrators: expected an array, received "lead"'],
      [['lead', ''], 'agent.orchestrators.1: expected at least 1 character(s), received ""'],
      [[7], 'agent.orchestrators.0: expected a string, received 7'],
    ] as const) {
      const bad = await check({ agent: { orchestrators } });
      expect(bad.code).toBe(1);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain(`MEM_ERR_CONFIG_INVALID: invalid configuration: plugins.entries.hybrid-mem.config.${message}`);
    }
  });

  it('never echoes a token value', () => {
    expect(() => resolveConfig({ dashboard: { token: 'sh0rt' } }, { env })).toThrow(/dashboard\.token: expected at least 8 character\(s\), received \(hidden string\)/);
    expect(() => resolveConfig({ dashboard: { token: 'sh0rt' } }, { env })).not.toThrow(/sh0rt/);
  });

  it('refuses an invalid custom regular expression, naming its index and the parse error', () => {
    try {
      resolveConfig({ autoRecall: { authFailure: { patterns: ['permission denied', '(unclosed'] } } }, { env });
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'MEM_ERR_CONFIG_INVALID', details: { path: 'plugins.entries.hybrid-mem.config.autoRecall.authFailure.patterns.1' } });
      expect((e as Error).message).toMatch(/patterns\.1: expected a JavaScript regular expression, received "\(unclosed" \(.*Unterminated group/);
    }
  });

  it('refuses a custom pattern that risks catastrophic backtracking, naming its index', () => {
    expect(() => resolveConfig({ autoRecall: { authFailure: { patterns: ['login failed', '^(a+)+$'] } } }, { env })).toThrow(
      expect.objectContaining({ code: 'MEM_ERR_CONFIG_INVALID', message: expect.stringContaining('patterns.1') }),
    );
    expect(resolveConfig({ autoRecall: { authFailure: { patterns: ['login failed', 'denied.*publickey'] } } }, { env }).autoRecall.authFailure.patterns).toHaveLength(2);
  });

  it('reports unreadable and non-JSON files', () => {
    expect(() => loadConfigFile(join(dir, 'missing.json'), { env })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CONFIG_UNREADABLE' }));
    expect(() => loadConfigFile(file('{ not json'), { env })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CONFIG_UNREADABLE' }));
    expect(() => loadConfigFile(file({ plugins: { entries: { 'hybrid-mem': { config: [] } } } }), { env })).toThrow(expect.objectContaining({ code: 'MEM_ERR_CONFIG_INVALID' }));
  });

  it('takes the data dir from HYBRID_MEM_HOME, then config dataDir relative to the file, then --db', () => {
    const p = file({ plugins: { entries: { 'hybrid-mem': { config: { dataDir: 'data' } } } } });
    expect(loadConfigFile(p, { env: {} }).dataDir).toBe(join(dir, 'data'));
    expect(loadConfigFile(p, { env }).dataDir).toBe(dir);
    expect(resolveConfig({}, { env, dbPath: join(dir, 'x', 'other.db') })).toMatchObject({ dbPath: join(dir, 'x', 'other.db'), dataDir: join(dir, 'x') });
  });

  it('expands "~" in config paths to the home folder', () => {
    const c = resolveConfig({ dataDir: '~/.hm-data', vault: { keyFile: '~/keys/vault.key' }, dashboard: { appDir: '~' } }, { env: {}, baseDir: dir });
    expect(c).toMatchObject({ dataDir: join(homedir(), '.hm-data'), vaultKeyFile: join(homedir(), 'keys', 'vault.key'), dashboard: { appDir: homedir() } });
    expect(resolveConfig({ dataDir: '~other/x' }, { env: {}, baseDir: dir }).dataDir).toBe(join(dir, '~other', 'x'));
  });

  it('publishes a JSON Schema that matches the committed file', () => {
    const committed = JSON.parse(readFileSync(new URL('../schema/config.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(committed).toEqual(configJsonSchema());
  });
});
