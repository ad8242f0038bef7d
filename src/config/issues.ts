/**
 * Turning zod issues into our error messages: one line per issue naming the path, what was expected
 * and what arrived. Values of sensitive fields (secrets, tokens) are never echoed.
 */
import type { z } from 'zod';
import { article, describeValue } from '../core/errors.js';

export interface Issue {
  readonly path: string;
  readonly expected: string;
  readonly received: string;
}

/** Field names whose values never appear in a message. */
const SENSITIVE = new Set(['secret', 'token', 'password', 'apiKey', 'key']);

export function describeIssues(error: z.ZodError, input: unknown, root: string, noun: 'key' | 'field' = 'key'): Issue[] {
  return error.issues.map((i) => {
    const path = [root, ...i.path.map(String)].join('.');
    if (i.code === 'unrecognized_keys') return { path, expected: `only known ${noun}s`, received: `unknown ${noun}(s) ${i.keys.join(', ')}` };
    const last = i.path[i.path.length - 1];
    const value = valueAt(input, i.path);
    const received = typeof last === 'string' && SENSITIVE.has(last) && value !== undefined ? `(hidden ${typeof value})` : describeValue(value);
    return { path, expected: expectedOf(i), received };
  });
}

export function issuesMessage(issues: readonly Issue[]): string {
  return issues.map((i) => `${i.path}: expected ${i.expected}, received ${i.received}`).join('; ');
}

function expectedOf(i: z.core.$ZodIssue): string {
  switch (i.code) {
    case 'invalid_type':
      return article(i.expected === 'int' ? 'integer' : i.expected);
    case 'invalid_value':
      return `one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return i.origin === 'string' ? `at least ${i.minimum} character(s)` : i.origin === 'array' ? `at least ${i.minimum} item(s)` : `a number >= ${i.minimum}`;
    case 'too_big':
      return i.origin === 'string' ? `at most ${i.maximum} characters` : i.origin === 'array' ? `at most ${i.maximum} items` : `a number <= ${i.maximum}`;
    case 'invalid_union':
      return 'epoch milliseconds or an ISO-8601 date-time';
    default:
      return i.message;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}
