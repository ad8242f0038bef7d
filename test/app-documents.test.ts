/** Every GraphQL document the graph app sends validates against the server's schema (no drift). */
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS } from '../app/src/lib/documents.js';
import { describeEvent } from '../app/src/lib/feed-text.js';
import { createSchema } from '../src/http/graphql/schema.js';
import { OperationPreparer } from '../src/http/graphql/operation.js';

describe('graph app documents', () => {
  const schema = createSchema();
  const preparer = new OperationPreparer(schema);

  it.each(Object.entries(DOCUMENTS))('%s is valid against the live schema and within the server limits', (_name, doc) => {
    expect(validate(schema, parse(doc))).toEqual([]);
    // The server's own checks (depth, aliases, tokens) accept it too.
    expect(preparer.document(doc).errors).toEqual([]);
  });

  it('covers every query field the app relies on and every curation mutation', () => {
    const all = Object.values(DOCUMENTS).join('\n');
    for (const field of ['graph', 'neighbors', 'fact', 'search', 'activity', 'orphans', 'conflicts', 'weakLinks', 'staleFacts', 'suggestedLinks', 'memoryActivity']) {
      expect(all).toMatch(new RegExp(`\\b${field}\\b`));
    }
    const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {});
    for (const m of mutations) expect(all, `the app never sends ${m}`).toMatch(new RegExp(`\\b${m}\\(`));
  });
});

describe('graph app feed lines', () => {
  const recall = (kind: string, target: string | null = null) =>
    ({ kind: 'RECALL', recall: { id: 'r1', kind, query: 'staging db', target, scores: [{ factId: 'f1', score: 0.5 }] } }) as unknown as Parameters<typeof describeEvent>[0];
  it("names the hooks' recalls: memories given to a turn, a credential hint", () => {
    const label = (id: string) => (id === 'f1' ? 'Staging DB on db2' : undefined);
    expect(describeEvent(recall('memory_recall'), label)).toBe('recall "staging db": Staging DB on db2 0.50');
    const stored = (source: string) => ({ kind: 'FACT_STORED', fact: { id: 'f1', label: 'Staging DB on db2', source } }) as unknown as Parameters<typeof describeEvent>[0];
    expect(describeEvent(stored('auto-capture'), label)).toBe('captured from a turn "Staging DB on db2"');
    expect(describeEvent(stored('cli'), label)).toBe('stored "Staging DB on db2"');
    expect(describeEvent(recall('relevant'), label)).toBe('memories for a turn "staging db": Staging DB on db2 0.50');
    expect(describeEvent(recall('auth_failure', 'db2'), label)).toBe('credential hint for db2 "staging db": Staging DB on db2 0.50');
  });
});
