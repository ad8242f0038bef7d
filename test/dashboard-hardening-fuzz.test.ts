/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * item 8 over both adapters: fast-check fuzzing of paths, header values, GraphQL documents and bodies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { DOTENV, hardeningSuite, SECRET, TOKEN } from './support/dashboard-hardening.js';
import { rawRequest } from './support/raw-http.js';

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { post, totalFacts } = h;

  describe('8. fuzz', () => {
    const FUZZ_RUNS = 200;
    const pathChar = fc.constantFrom(...'abcz09-._~/%\\#?;:@!$&\'()*+,=[]{}|^`"<> '.split(''), '%2e', '%2f', '%5c', '%00', '%c0%ae', '..', '/graph', '/graphql', '/api', 'é', '\u0000', '\t');
    const path = fc.oneof(
      fc.array(pathChar, { maxLength: 40 }).map((p) => `/${p.join('')}`),
      fc.array(pathChar, { maxLength: 30 }).map((p) => `/graph/${p.join('')}`),
      fc.string({ maxLength: 60 }).map((s) => `/${s}`),
    );
    // No CR/LF: those end the header (the engine answers 400 to that too, but a smuggled Content-Length
    // would make the server wait for a body that never comes, which is correct, not a hang).
    const headerValue = fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a.filter((b) => b !== 10 && b !== 13)).toString('latin1'));
    const headerName = fc.oneof(
      fc.constantFrom('Host', 'Origin', 'Authorization', 'Accept', 'Content-Type', 'Last-Event-ID', 'Cookie', 'X-Hybrid-Mem-Role', 'X-Hybrid-Mem-Agent', 'X-Hybrid-Mem-Session', 'Sec-WebSocket-Key'),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/).filter((n) => !/^(content-length|transfer-encoding|connection|upgrade|expect|te|trailer)$/i.test(n)),
    );

    const docToken = fc.constantFrom(
      '{', '}', '(', ')', '[', ']', ':', '...', '!', '=', '$v', '@include(if: true)', '@skip(if: $v)', '@deprecated',
      'query', 'mutation', 'subscription', 'fragment F', 'on', 'Fact', 'Query', 'Mutation',
      'graph', 'stats', 'fact', 'facts', 'versions', 'links', 'id', 'text', 'totalFacts', 'search', 'neighbors', 'recallHistory', 'conflicts', 'episodes', 'suggestedLinks',
      'memoryActivity', 'createFact', 'deleteFact', 'input:', 'filter:', 'limit:', 'query:', 'id:', 'after:',
      '__schema', '__type(name: "Fact")', '__typename', 'types', 'name', 'fields', 'a:', 'b:',
      '"str"', '""', '"\\u0000"', '"""block"""', '1', '-1', '1e308', '-1.5e3', '99999999999999999999', 'true', 'null', 'hybrid', 'fact',
      '{ text: "x" }', '{ limit: -5 }', '{ minStrength: 2 }', '#comment\n', ',', '\u00e9', '\u0000',
    );
    const doc = fc.oneof(
      fc.array(docToken, { maxLength: 50 }).map((t) => t.join(' ')),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{ stats { totalFacts } }', '{ graph { nodes { id } edges { id } truncated } }', '{ search(query: "x") { mode } }'),
    );
    const operation = fc.record(
      {
        query: fc.oneof(doc, fc.jsonValue()),
        variables: fc.oneof(fc.constant(null), fc.dictionary(fc.constantFrom('v', 'id', 'x', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 3 })), fc.jsonValue({ maxDepth: 2 })),
        operationName: fc.oneof(fc.constant(null), fc.constantFrom('F', 'Q', ''), fc.string({ maxLength: 10 })),
        extensions: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      operation.map((o) => JSON.stringify(o)),
      fc.array(operation, { maxLength: 12 }).map((o) => JSON.stringify(o)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );

    const accept = fc.constantFrom('application/graphql-response+json, application/json', 'application/json', '*/*', 'text/event-stream', 'text/html', 'application/xml', 'application/graphql-response+json; charset=latin1');

    const stillUp = async (): Promise<void> => {
      const health = await fetch(`${h.d.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
      const q = await post({ query: '{ stats { totalFacts } }' });
      expect(q.status).toBe(200);
    };

    it('answers random paths and header values with a status and stays up', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'get', 'BREW'),
          path,
          fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
          async (method, p, headers) => {
            const res = await rawRequest(h.port, { method, path: p, headers, body: method === 'POST' || method === 'PUT' ? '{}' : undefined });
            expect(res.status).toBeGreaterThanOrEqual(100);
            expect(res.status).toBeLessThan(600);
            expect(res.raw).not.toContain(SECRET);
            expect(res.raw).not.toContain(DOTENV);
            // Nothing we parse may blow up into an internal error (500 is the engine's last resort).
            expect(res.status).not.toBe(500);
          },
        ),
        { numRuns: FUZZ_RUNS },
      );
      await stillUp();
    });

    it('answers random GraphQL documents and bodies with a status, never an internal error, and stays up', async () => {
      const before = await totalFacts();
      await fc.assert(
        fc.asyncProperty(body, accept, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/graphql-response+json', 'application/json; charset=latin1'), async (b, acc, type) => {
          const res = await fetch(`${h.d.url}/graphql`, { method: 'POST', headers: { 'content-type': type, accept: acc }, body: b, signal: AbortSignal.timeout(5000) });
          const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? await firstEvent(res) : await res.text();
          expect(res.status, `${b} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text, b).not.toContain('MEM_ERR_INTERNAL');
          expect(text, b).not.toContain(TOKEN);
        }),
        { numRuns: FUZZ_RUNS },
      );
      await fc.assert(
        fc.asyncProperty(doc, fc.string({ maxLength: 60 }), accept, async (q, vars, acc) => {
          const res = await fetch(`${h.d.url}/graphql?query=${encodeURIComponent(q)}&variables=${encodeURIComponent(vars)}`, { headers: { accept: acc }, signal: AbortSignal.timeout(5000) });
          const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? await firstEvent(res) : await res.text();
          expect(res.status, `${q} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text, q).not.toContain('MEM_ERR_INTERNAL');
        }),
        { numRuns: FUZZ_RUNS },
      );
      expect(await totalFacts(), 'no token, no writes').toBe(before);
      await stillUp();
    });
  });
});

/** Reads an SSE response until it completes or briefly goes quiet (a live subscription never ends), then stops. */
async function firstEvent(res: Response, quietMs = 300): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  let text = '';
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), quietMs)));
      const next = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (next === null || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (text.includes('event: complete')) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}
