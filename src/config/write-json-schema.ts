/** Regenerates schema/config.schema.json and the OpenClaw manifest (openclaw/openclaw.plugin.json) from the zod schemas (npm run schema). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openclawManifest } from '../openclaw/manifest.js';
import { configJsonSchema } from './json-schema.js';

const write = (relative: string, value: unknown): void => {
  const out = fileURLToPath(new URL(`../../${relative}`, import.meta.url));
  writeFileSync(out, JSON.stringify(value, null, 2) + '\n');
  console.log(`wrote ${out}`);
};
mkdirSync(fileURLToPath(new URL('../../schema/', import.meta.url)), { recursive: true });
write('schema/config.schema.json', configJsonSchema());
write('openclaw/openclaw.plugin.json', openclawManifest());
