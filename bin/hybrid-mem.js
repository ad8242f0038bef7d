#!/usr/bin/env node
// The hybrid-mem command. Runs the compiled CLI (dist/, built by `npm run build`, which `npm install` runs
// via `prepare`); in a source checkout without a build, or with HYBRID_MEM_FROM_SOURCE=1, it registers tsx
// and runs src/ directly.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli/main.js', import.meta.url);
let cli;
if (existsSync(dist) && process.env.HYBRID_MEM_FROM_SOURCE !== '1') {
  cli = await import(dist.href);
} else {
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    process.stderr.write('hybrid-mem: MEM_ERR_INTERNAL: dist/ is not built and tsx is not installed; run "npm run build"\n');
    process.exit(2);
  }
  cli = await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
await cli.main();
