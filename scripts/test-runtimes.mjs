#!/usr/bin/env node
// Warms the test cache (HYBRID_MEM_TEST_CACHE, else ~/.cache/hybrid-mem-test) before `npm test`: Node 22
// and 24 from the npm registry, and openclaw installed with Node 24. The
// tests do the same on first use; doing it first keeps the installs off the timed test run. Idempotent.
import process from 'node:process';

const { register } = await import('tsx/esm/api');
register();
const started = Date.now();
const r = await import('../test/support/runtimes.ts');
if (!r.supported) {
  process.stdout.write('test runtimes: not linux-x64, nothing to install\n');
  process.exit(0);
}
for (const major of [22, 24]) {
  const node = r.nodeBinary(major);
  process.stdout.write(`test runtimes: Node ${major} at ${node} (${Math.round((Date.now() - started) / 1000)} s)\n`);
}
process.stdout.write(`test runtimes: openclaw at ${r.openclawDir()} (${Math.round((Date.now() - started) / 1000)} s)\n`);
