/**
 * Runs every bench/*.bench.ts in sequence (alphabetical), each through its exported `main()`.
 * Run: node --import tsx bench/run.ts [name-filter]
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchModule {
  main?: () => Promise<void> | void;
}

export async function runAll(filter = ''): Promise<void> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
    .sort();
  for (const file of files) {
    console.log(`\n=== ${file} ===`);
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as BenchModule;
    if (typeof mod.main !== 'function') throw new Error(`${file} does not export main()`);
    await mod.main();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAll(process.argv[2]);
