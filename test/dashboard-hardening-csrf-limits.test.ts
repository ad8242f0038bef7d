/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * items 4-5 over both adapters: CSRF (content types a page can send without a preflight, mutations over
 * GET) and the query limits (depth, aliases, tokens, validation cost, body size, batches, introspection).
 */
import { getIntrospectionQuery, Lexer, Source, TokenKind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { codeOf, create, hardeningSuite, TOKEN, type GqlBody } from './support/dashboard-hardening.js';

/** Tokens as graphql-js counts them against maxTokens (punctuators and names; commas and comments are not tokens). */
function countTokens(query: string): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { raw, http, post, totalFacts, auth } = h;

  describe('4. CSRF', () => {
    it('refuses POST /graphql bodies a page could send without a preflight (415), writing nothing', async () => {
      const before = await totalFacts();
      const json = JSON.stringify({ query: create() });
      const types: (string | null)[] = [
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=----x',
        'text/plain; application/json',
        'application/json-x',
        'application/jsonp',
        'text/json',
        // JSON-ish types graphql-http does not parse: refused here with a code, not by the library without one.
        'application/graphql-response+json',
        'application/json; charset=utf-16',
        'application/json; boundary=x',
        'application/json;',
        null,
      ];
      for (const type of types) {
        const headers: [string, string][] = [['Authorization', `Bearer ${TOKEN}`]];
        if (type !== null) headers.push(['Content-Type', type]);
        const res = await raw({ method: 'POST', path: '/graphql', headers, body: type?.startsWith('application/x-www') ? `query=${encodeURIComponent(create())}` : json });
        expect(res.status, `${type}: ${res.raw}`).toBe(415);
        expect(codeOf(res.json<GqlBody>())).toBe('MEM_ERR_CONTENT_TYPE');
      }
      // A browser form post, as fetch sends it (no body type: fetch sends none for bytes).
      const bytes = await http('/graphql', { method: 'POST', headers: auth, body: new TextEncoder().encode(json) });
      expect(bytes.status).toBe(415);
      expect(await totalFacts()).toBe(before);
      // The control: the same mutation as JSON with the token is written, with or without a utf-8 charset.
      const ok = await post({ query: create() }, auth);
      expect(ok.status, ok.text).toBe(200);
      const utf8 = await post({ query: create() }, { ...auth, 'content-type': 'application/json; charset=UTF-8' });
      expect(utf8.status, utf8.text).toBe(200);
      expect(await totalFacts()).toBe(before + 2);
    });

    it('refuses a mutation over GET with 405 (plain and SSE), writing nothing', async () => {
      const before = await totalFacts();
      const q = `/graphql?query=${encodeURIComponent(create())}`;
      const plain = await http(q, { headers: { ...auth, accept: 'application/graphql-response+json' } });
      expect(plain.status, plain.text).toBe(405);
      expect(codeOf(JSON.parse(plain.text) as GqlBody)).toBe('MEM_ERR_METHOD_NOT_ALLOWED');
      const json = await http(q, { headers: { ...auth, accept: 'application/json' } });
      expect(json.status, json.text).toBe(405);
      const sse = await http(q, { headers: { ...auth, accept: 'text/event-stream' } });
      expect(sse.status, sse.text).toBe(405);
      expect(await totalFacts()).toBe(before);
      // The control: a query over GET works (from a client that says so with a header).
      const get = await http(`/graphql?query=${encodeURIComponent('{ stats { totalFacts } }')}`, { headers: { accept: 'application/json', 'x-hybrid-mem-request': '1' } });
      expect(get.status).toBe(200);
    });
  });

  describe('5. query limits', () => {
    const nest = (levels: number): string => {
      // facts (1) > versions x (levels - 2) > id (1): `levels` field levels in all.
      let inner = 'id';
      for (let i = 0; i < levels - 2; i++) inner = `versions { ${inner} }`;
      return `{ facts(filter: { limit: 1 }) { ${inner} } }`;
    };

    it('refuses depth above 8, also through fragments, and not below', async () => {
      const ok = await post({ query: nest(8) });
      expect(ok.body.errors, ok.text).toBeUndefined();
      expect(Array.isArray(ok.body.data?.facts)).toBe(true);
      const deep = await post({ query: nest(9) });
      expect(codeOf(deep.body), deep.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(deep.body.data ?? null).toBeNull();
      const viaFragments = await post({
        query: `{ facts(filter: { limit: 1 }) { ...A } }
          fragment A on Fact { versions { ...B } }
          fragment B on Fact { versions { versions { ...C } } }
          fragment C on Fact { versions { versions { ... on Fact { versions { versions { id } } } } } }`,
      });
      expect(codeOf(viaFragments.body), viaFragments.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    });

    it('refuses more than 15 aliases', async () => {
      const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
      const ok = await post({ query: aliases(15) });
      expect(ok.body.errors, ok.text).toBeUndefined();
      expect(Object.keys(ok.body.data ?? {})).toHaveLength(15);
      const many = await post({ query: aliases(16) });
      expect(codeOf(many.body), many.text).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
    });

    it('refuses more than 2000 tokens', async () => {
      // A long default value (the variable sent overrides it, so the resolver sees one category).
      const doc = (values: number): string => `query Q($v: [Category!] = [${'fact, '.repeat(values)}]) { facts(filter: { categories: $v, limit: 1 }) { id } }`;
      const tokens = (n: number): string => {
        const q = doc(n - (countTokens(doc(0))));
        expect(countTokens(q)).toBe(n);
        return q;
      };
      const ok = await post({ query: tokens(2000), variables: { v: ['fact'] } });
      expect(ok.body.errors, ok.text.slice(0, 300)).toBeUndefined();
      const many = await post({ query: tokens(2001), variables: { v: ['fact'] } });
      expect(codeOf(many.body), many.text.slice(0, 300)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(many.body.errors?.[0]?.message).toMatch(/2000 tokens/);
    });

    it('calls a document too costly to validate too complex, not invalid', async () => {
      // ~2000 repeated fields within the token limit: graphql-js gives up on the overlapping-fields check.
      const r = await post({ query: `{ ${'__typename '.repeat(1998)}}` });
      expect(codeOf(r.body), r.text.slice(0, 300)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(r.body.data ?? null).toBeNull();
    });

    it('refuses a body over 256 KiB with 413, declared or streamed, and accepts one just under', async () => {
      const padded = (bytes: number): string => {
        const shell = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
        return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes - shell.length) } });
      };
      const under = await post(padded(256 * 1024));
      expect(under.status, under.text.slice(0, 300)).toBe(200);
      const over = await post(padded(256 * 1024 + 1));
      expect(over.status).toBe(413);
      expect(codeOf(over.body)).toBe('MEM_ERR_BODY_TOO_LARGE');
      const sse = await post(padded(300 * 1024), { accept: 'text/event-stream' });
      expect(sse.status).toBe(413);
      // Streamed in chunks without a Content-Length: the cap must hold while reading, not only on the header.
      const body = padded(400 * 1024);
      const chunks = body.match(/[\s\S]{1,16384}/g) ?? [];
      const chunked = Buffer.from(`${chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('')}0\r\n\r\n`);
      const streamed = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], body: chunked });
      expect(streamed.status, streamed.raw.slice(0, 300)).toBe(413);
      expect(codeOf(streamed.json<GqlBody>())).toBe('MEM_ERR_BODY_TOO_LARGE');
    });

    it('runs a batch of up to 10 operations as an array and refuses 11', async () => {
      const ten = Array.from({ length: 10 }, (_, i) => ({ query: `query Q${i} { __typename }`, operationName: `Q${i}` }));
      const ok = await post(ten);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual(Array.from({ length: 10 }, () => ({ data: { __typename: 'Query' } })));
      const eleven = await post([...ten, { query: '{ __typename }' }]);
      expect(eleven.status).toBe(400);
      expect(codeOf(eleven.body)).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(Array.isArray(eleven.body)).toBe(false);
    });

    it('refuses a batch it cannot answer in any accepted type (406), not with a crash', async () => {
      const r = await http('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html' }, body: JSON.stringify([{ query: '{ __typename }' }, {}]) });
      expect(r.status, r.text).toBe(406);
      const missing = await post([{ query: '{ __typename }' }, {}, { query: 5 }]);
      expect(missing.status, missing.text).toBe(200);
      const items = missing.body as unknown as GqlBody[];
      expect(items[0]).toEqual({ data: { __typename: 'Query' } });
      expect(items[1]?.errors?.[0]?.message).toMatch(/missing query/i);
      expect(items[2]?.errors?.[0]?.message).toMatch(/invalid query/i);
    });

    it('applies the token and limits to each operation of a batch', async () => {
      const before = await totalFacts();
      const r = await post([{ query: create() }, { query: `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: __typename`).join(' ')} }` }, { query: '{ __typename }' }]);
      const items = r.body as unknown as GqlBody[];
      expect(items).toHaveLength(3);
      expect(codeOf(items[0] ?? {})).toBe('MEM_ERR_TOKEN_REQUIRED');
      expect(codeOf(items[1] ?? {})).toBe('MEM_ERR_QUERY_TOO_COMPLEX');
      expect(items[2]).toEqual({ data: { __typename: 'Query' } });
      expect(await totalFacts()).toBe(before);
    });

    it('still answers the standard introspection query, and a deep __schema selection', async () => {
      for (const query of [getIntrospectionQuery(), getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })]) {
        const r = await post({ query, operationName: 'IntrospectionQuery' });
        expect(r.body.errors, r.text.slice(0, 300)).toBeUndefined();
        const schema = r.body.data?.__schema as { queryType: { name: string }; mutationType: { name: string }; types: unknown[] };
        expect(schema.queryType.name).toBe('Query');
        expect(schema.mutationType.name).toBe('Mutation');
        expect(schema.types.length).toBeGreaterThan(20);
      }
      const deep = await post({ query: '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }' });
      expect(deep.body.errors, deep.text.slice(0, 300)).toBeUndefined();
    });
  });
});
