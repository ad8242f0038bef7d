/**
 * A host may load this package more than once in one process (OpenClaw evaluates each plugin generation
 * afresh): an error thrown by one copy keeps its code when another copy reports it.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { MemoryError, toWire } from '../src/core/errors.js';
import type * as ErrorsModule from '../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'hm-errors-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('MemoryError from another copy of the module is still a MemoryError, with its code', async () => {
  copyFileSync(resolve(__dirname, '../src/core/errors.ts'), join(dir, 'errors.ts'));
  const copy = (await import(pathToFileURL(join(dir, 'errors.ts')).href)) as typeof ErrorsModule;
  expect(copy.MemoryError).not.toBe(MemoryError);
  const foreign = new copy.MemoryError('MEM_ERR_CREDENTIAL_NOT_FOUND', 'no vault credential for service "x"');
  expect(foreign instanceof MemoryError).toBe(true);
  expect(toWire(foreign)).toEqual({ code: 'MEM_ERR_CREDENTIAL_NOT_FOUND', message: 'no vault credential for service "x"' });
  expect(new Error('plain') instanceof MemoryError).toBe(false);
  expect(toWire(new Error('plain')).code).toBe('MEM_ERR_INTERNAL');
});
