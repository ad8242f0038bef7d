/** Regenerates schema/config.schema.json from the zod schema (npm run schema). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configJsonSchema } from './json-schema.js';

const out = fileURLToPath(new URL('../../schema/config.schema.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../schema/', import.meta.url)), { recursive: true });
writeFileSync(out, JSON.stringify(configJsonSchema(), null, 2) + '\n');
console.log(`wrote ${out}`);
