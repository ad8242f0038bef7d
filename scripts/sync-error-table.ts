/** Rewrites docs/errors.md's error-code table from the registry (npm run docs:errors). */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, exitCodeOf, type ErrorCode } from '../src/core/errors.js';

const path = new URL('../docs/errors.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const start = '<!-- error-codes:start -->';
const end = '<!-- error-codes:end -->';
const rows = Object.entries(ERROR_CODES).map(([code, v]) => `| \`${code}\` | ${v.kind} | ${exitCodeOf(code as ErrorCode)} | ${v.summary} |`);
const table = ['| code | kind | CLI exit | meaning |', '|---|---|---|---|', ...rows].join('\n');
if (!doc.includes(start) || !doc.includes(end)) throw new Error(`docs/errors.md: the markers ${start} and ${end} are missing`);
const next = doc.slice(0, doc.indexOf(start) + start.length) + '\n' + table + '\n' + doc.slice(doc.indexOf(end));
writeFileSync(path, next);
console.log(`docs/errors.md: ${rows.length} error codes`);
