#!/usr/bin/env node
/**
 * Copies the runtime files tsc does not emit (the CommonJS pool worker entry, src/actors/runtime/*.cjs) into
 * dist/ at the same place, so the compiled build finds them where the sources do. Part of `npm run build`.
 */
import console from 'node:console';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src', 'actors', 'runtime');
const to = join(root, 'dist', 'actors', 'runtime');
mkdirSync(to, { recursive: true });
for (const file of readdirSync(from).filter((f) => f.endsWith('.cjs'))) {
  copyFileSync(join(from, file), join(to, file));
  console.log(`copied ${file} to dist/actors/runtime`);
}
