#!/usr/bin/env node
/**
 * Builds the WASM vector core (src/wasm/assembly/*.ts -> src/wasm/vector-core.wasm) with the
 * AssemblyScript compiler from node_modules (no network), using src/wasm/asconfig.json.
 *
 *   node scripts/build-wasm.mjs                  compile, write src/wasm/vector-core.wasm
 *   node scripts/build-wasm.mjs --check          compile in memory; exit 1 if the committed .wasm differs
 *   node scripts/build-wasm.mjs --copy-to <dir>  copy the committed .wasm into <dir> (for dist/wasm)
 *
 * The .wasm is committed so that tests and the runtime never depend on a build step having run;
 * `npm run build` regenerates it and test/wasm.test.ts runs --check so a stale artefact fails CI.
 */
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const wasmDir = join(root, 'src', 'wasm');
const artefact = join(wasmDir, 'vector-core.wasm');

/** Compiles with asconfig.json and returns the .wasm bytes (nothing is written to disk). */
async function compile() {
  let binary = null;
  const stderr = [];
  const result = await asc.main(['--config', join(wasmDir, 'asconfig.json'), '--target', 'release'], {
    stdout: { write: () => true },
    stderr: { write: (chunk) => (stderr.push(String(chunk)), true) },
    writeFile: (name, contents) => {
      if (name.endsWith('.wasm') && contents instanceof Uint8Array) binary = contents;
    },
  });
  if (result.error || binary === null) {
    throw new Error(`asc failed: ${result.error?.message ?? 'no .wasm emitted'}\n${stderr.join('')}`);
  }
  return binary;
}

async function run(argv) {
  const copyAt = argv.indexOf('--copy-to');
  if (copyAt >= 0) {
    const dir = argv[copyAt + 1];
    if (!dir) throw new Error('--copy-to needs a directory');
    mkdirSync(resolve(root, dir), { recursive: true });
    copyFileSync(artefact, resolve(root, dir, 'vector-core.wasm'));
    console.log(`copied vector-core.wasm to ${dir}`);
    return 0;
  }
  const fresh = await compile();
  if (argv.includes('--check')) {
    let committed;
    try {
      committed = readFileSync(artefact);
    } catch {
      console.error(`${artefact} is missing: run npm run build:wasm`);
      return 1;
    }
    if (!Buffer.from(fresh).equals(committed)) {
      console.error('src/wasm/vector-core.wasm is stale (differs from a build of src/wasm/assembly): run npm run build:wasm');
      return 1;
    }
    console.log(`vector-core.wasm is up to date (${committed.length} bytes)`);
    return 0;
  }
  writeFileSync(artefact, fresh);
  console.log(`wrote src/wasm/vector-core.wasm (${fresh.length} bytes)`);
  return 0;
}

process.exitCode = await run(process.argv.slice(2));
