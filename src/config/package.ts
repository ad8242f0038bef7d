/** This package's own facts: its root folder and its version (from package.json, above src/ and dist/). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root, with a trailing slash (this file is src/config/package.ts or dist/config/package.js). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

let cached: string | null = null;

export function packageVersion(): string {
  try {
    cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    cached = 'unknown';
  }
  return cached;
}
