/** Rewrites README.md's error-code table from the registry (npm run docs:errors). */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, exitCodeOf, type ErrorCode } from '../src/core/errors.js';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const start = '<!-- error-codes:start -->';
const end = '<!-- error-codes:end -->';
const rows = Object.entries(ERROR_CODES).map(([code, v]) => `| \`${code}\` | ${v.kind} | ${exitCodeOf(code as ErrorCode)} | ${v.summary} |`);
const table = ['| code | kind | CLI exit | meaning |', '|---|---|---|---|', ...rows].join('\n');
const next = readme.slice(0, readme.indexOf(start) + start.length) + '\n' + table + '\n' + readme.slice(readme.indexOf(end));
writeFileSync(path, next);
console.log(`README.md: ${rows.length} error codes`);
