/**
 * The open-time quick_check is skipped for a file exactly as a checked process's clean, last close left it
 * (src/store/clean-close.ts), and runs in every other case: after any write by another connection, after
 * damage, after a session that never closed, and while another connection is open.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/memory/service.js';
import { openChecks, openDatabase } from '../src/store/db.js';
import { sqliteDriver } from '../src/store/native.js';
import { errorOf, tempHome, type TestHome } from './helpers.js';

let home: TestHome;
afterEach(() => home?.cleanup());

const open = () => MemoryService.open({ config: home.config, env: home.env });
/** Open, see whether the check ran or was skipped, close again. */
async function reopen(): Promise<'run' | 'skipped'> {
  const before = { ...openChecks };
  const svc = open();
  await svc.close();
  if (openChecks.run > before.run) return 'run';
  if (openChecks.skipped > before.skipped) return 'skipped';
  throw new Error('neither ran nor skipped');
}

describe('quick_check on open after a clean close', () => {
  it('is skipped for the file as the last clean close left it, and runs again after any other write', async () => {
    home = tempHome();
    const svc = open();
    svc.memoryStore({ text: 'the staging DB is on db2.internal' });
    await svc.close();
    expect(existsSync(`${home.config.dbPath}.clean`)).toBe(true);
    expect(await reopen()).toBe('skipped');
    expect(await reopen()).toBe('skipped');
    // Another program writes to the file (a plain SQLite connection, right after the close).
    const raw = new (sqliteDriver())(home.config.dbPath);
    raw.prepare("INSERT INTO meta (key, value) VALUES ('touched', '1')").run();
    raw.close();
    expect(await reopen()).toBe('run');
  });

  it('runs, and finds the damage, when bytes change right after the close', async () => {
    home = tempHome();
    const svc = open();
    svc.memoryStoreMany(Array.from({ length: 400 }, (_, i) => ({ text: `fact ${i} about host${i} in the blue cluster ${'x'.repeat(i % 80)}` })));
    await svc.close();
    const fd = openSync(home.config.dbPath, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 3);
    closeSync(fd);
    expect(errorOf(() => openDatabase(home.config.dbPath)).code).toBe('MEM_ERR_DB_CORRUPT');
  });

  it('runs after a session that never closed (killed), and while another connection is open', async () => {
    home = tempHome();
    await open().close();
    const script = `const { MemoryService } = await import(${JSON.stringify(new URL('../src/memory/service.ts', import.meta.url).href)});
      const { resolveConfig } = await import(${JSON.stringify(new URL('../src/config/resolve.ts', import.meta.url).href)});
      const env = { HYBRID_MEM_HOME: ${JSON.stringify(home.dir)} };
      const svc = MemoryService.open({ config: resolveConfig({}, { env }), env });
      svc.memoryStore({ text: 'written, then killed' });
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(existsSync(`${home.config.dbPath}.clean`)).toBe(false);
    expect(await reopen()).toBe('run');
    // Two connections: the first to close leaves the other's writes in the WAL, so it records nothing.
    const a = open();
    const b = open();
    a.memoryStore({ text: 'written while another connection is open' });
    await b.close();
    expect(existsSync(`${home.config.dbPath}.clean`)).toBe(false);
    await a.close();
    expect(existsSync(`${home.config.dbPath}.clean`)).toBe(true);
    expect(await reopen()).toBe('skipped');
  });
});
