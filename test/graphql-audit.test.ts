/**
 * The GraphQL over HTTP conformance audit (graphql-http's serverAudits) against the dashboard's /graphql,
 * over both adapters, with and without a dashboard token: every MUST passes; SHOULD and MAY are counted.
 */
import { serverAudits, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startTestDashboard, type TestDashboard } from './support/dashboard.js';

const CONFIGS: readonly { readonly label: string; readonly config: Record<string, unknown> }[] = [
  { label: 'no token', config: {} },
  { label: 'with a token', config: { dashboard: { token: 'audit-token-3f9c1e7a' } } },
];

describe.each(ADAPTERS)('GraphQL over HTTP audit over %s', (adapter) => {
  describe.each(CONFIGS)('$label', ({ label, config }) => {
    let d: TestDashboard;
    const results: AuditResult[] = [];

    beforeAll(async () => {
      d = await startTestDashboard(adapter, config);
      // One at a time: each audit is a request or two, and their order makes failures easy to read.
      for (const audit of serverAudits({ url: `${d.url}/graphql`, fetchFn: fetch })) results.push(await audit.fn());
    });

    afterAll(async () => {
      await d?.close();
    });

    it('passes every MUST audit', () => {
      const must = results.filter((r) => r.name.startsWith('MUST'));
      expect(must.length).toBeGreaterThan(10);
      const failed = must.flatMap((r) => (r.status === 'ok' ? [] : [`${r.id} ${r.name}: ${r.status}: ${r.reason}`]));
      expect(failed).toEqual([]);
    });

    it('reports how many SHOULD and MAY audits pass', () => {
      const count = (level: 'SHOULD' | 'MAY'): string => {
        const of = results.filter((r) => r.name.startsWith(level));
        return `${of.filter((r) => r.status === 'ok').length}/${of.length}`;
      };
      const notOk = results.flatMap((r) => (r.status === 'ok' || r.name.startsWith('MUST') ? [] : [`${r.id} ${r.name} (${r.status}: ${r.reason})`]));
      console.log(`graphql-http audit over ${adapter} (${label}): MUST ${results.filter((r) => r.name.startsWith('MUST') && r.status === 'ok').length}/${results.filter((r) => r.name.startsWith('MUST')).length}, SHOULD ${count('SHOULD')}, MAY ${count('MAY')}${notOk.length ? `; not ok: ${notOk.join('; ')}` : ''}`);
      expect(results.length).toBe(serverAudits({ url: `${d.url}/graphql` }).length);
      expect(results.every((r) => ['ok', 'notice', 'warn', 'error'].includes(r.status))).toBe(true);
    });
  });
});
