/** The error registry and the error-code table in docs/errors.md say the same thing. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, MemoryError, exitCodeOf, fromWire, toWire } from '../src/core/errors.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('<!-- error-codes:start -->'), doc.indexOf('<!-- error-codes:end -->'));
const rows = [...section.matchAll(/^\| `(MEM_ERR_[A-Z_]+)` \| (user|internal) \| (\d) \| (.+) \|$/gm)].map((m) => ({
  code: m[1],
  kind: m[2],
  exit: Number(m[3]),
  summary: m[4],
}));

describe('error codes', () => {
  it('every code is documented in docs/errors.md with its kind, exit code and meaning, and nothing else is', () => {
    expect(rows.map((r) => r.code).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const r of rows) {
      const def = ERROR_CODES[r.code as keyof typeof ERROR_CODES];
      expect(r).toEqual({ code: r.code, kind: def.kind, exit: exitCodeOf(r.code as keyof typeof ERROR_CODES), summary: def.summary });
    }
  });

  it('cross threads as plain data and are rebuilt with their code', () => {
    const e = new MemoryError('MEM_ERR_FACT_NOT_FOUND', 'no fact x', { details: { path: 'id' } });
    const wire = structuredClone(toWire(e));
    const back = fromWire(wire);
    expect(back).toBeInstanceOf(MemoryError);
    expect(back).toMatchObject({ code: 'MEM_ERR_FACT_NOT_FOUND', message: 'no fact x', details: { path: 'id' } });
    expect(toWire(new TypeError('boom'))).toEqual({ code: 'MEM_ERR_INTERNAL', message: 'boom' });
    expect(fromWire({ code: 'NOPE' as never, message: 'x' }).code).toBe('MEM_ERR_INTERNAL');
  });
});
