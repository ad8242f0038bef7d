/** The package's version, read from its package.json (one level above src/ and dist/). */
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  return cached;
}
