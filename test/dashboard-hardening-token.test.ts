/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * item 6 over both adapters: the token (wrong tokens of any length alike, over HTTP and WebSocket, never
 * from the URL, bytes after it that are not UTF-8) and what /api/graph-app/config says about it.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/dashboard.js';
import { codeOf, create, hardeningSuite, INDEX, TOKEN, type GqlBody } from './support/dashboard-hardening.js';
import { rawRequest } from './support/raw-http.js';

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { raw, http, post, totalFacts, auth, overWs, wsCode } = h;

  describe('6. token', () => {
    it('refuses a wrong token of any length alike with 401, and accepts the right one', async () => {
      const before = await totalFacts();
      const flipLast = `${TOKEN.slice(0, -1)}${TOKEN.endsWith('x') ? 'y' : 'x'}`;
      const flipFirst = `${TOKEN.startsWith('x') ? 'y' : 'x'}${TOKEN.slice(1)}`;
      const wrong = [TOKEN.slice(0, -1), TOKEN.slice(0, 1), `${TOKEN}x`, `${TOKEN}${TOKEN}`, 'x'.repeat(1000), flipLast, flipFirst, TOKEN.toUpperCase(), ` ${TOKEN}x`, `${TOKEN}\u00e9x`];
      const bodies = new Set<string>();
      for (const t of wrong) {
        const r = await post({ query: create() }, { authorization: `Bearer ${t}` });
        expect(r.status, t).toBe(401);
        expect(codeOf(r.body)).toBe('MEM_ERR_TOKEN_INVALID');
        bodies.add(r.text);
      }
      expect([...bodies], 'every wrong token gets the same answer').toHaveLength(1);
      for (const header of ['Bearer ', 'Bearer', '', TOKEN, `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`, `Token ${TOKEN}`]) {
        const r = await raw({ method: 'POST', path: '/graphql', headers: [['Content-Type', 'application/json'], ['Authorization', header]], body: JSON.stringify({ query: create() }) });
        expect(r.status, `"${header}": ${r.raw}`).toBe(401);
        expect(['MEM_ERR_TOKEN_REQUIRED', 'MEM_ERR_TOKEN_INVALID']).toContain(codeOf(r.json<GqlBody>()));
      }
      // Over WebSocket too: the token rides in connection_init, compared the same way.
      for (const t of [TOKEN.slice(0, -1), `${TOKEN}x`, flipLast, '']) {
        const messages = await overWs({ token: t }, create());
        expect(wsCode(messages), `"${t}": ${JSON.stringify(messages)}`).toBe(t === '' ? 'MEM_ERR_TOKEN_REQUIRED' : 'MEM_ERR_TOKEN_INVALID');
      }
      // Not from the URL either.
      const inUrl = await http(`/graphql?token=${TOKEN}&access_token=${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: create() }) });
      expect(inUrl.status).toBe(401);
      expect(await totalFacts()).toBe(before);
      const right = await post({ query: create() }, auth);
      expect(right.status, right.text).toBe(200);
      const overWsRight = await overWs({ token: TOKEN }, create());
      expect(overWsRight.find((m) => m.type === 'next'), JSON.stringify(overWsRight)).toMatchObject({ payload: { data: { createFact: { id: expect.any(String) } } } });
      expect(await totalFacts()).toBe(before + 2);
    });

    /**
     * Known engine limit: uWebSockets.js hands header values to JS decoded as UTF-8 and silently drops
     * invalid bytes at the end, so `<token>\xE9` arrives as `<token>` and is accepted. Not a bypass (the
     * sender knows the token), but the value compared is not the value sent; no JS API exposes the raw
     * bytes. Marked as failing on uws so it turns red (and gets unmarked) once the engine is fixed.
     */
    (adapter === 'uws' ? it.fails : it)('refuses the token followed by bytes that are not UTF-8', async () => {
      for (const tail of [[0xe9], [0xff, 0xfe], [0xc3]]) {
        const body = JSON.stringify({ query: create() });
        const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nAuthorization: Bearer ${TOKEN}`;
        const r = await rawRequest(h.port, Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(tail), Buffer.from(`\r\n\r\n${body}`)]));
        expect(r.status, r.raw).not.toBe(200);
        expect(r.body).not.toContain('createFact');
      }
    });

    it('says a token is required in /api/graph-app/config without revealing it', async () => {
      const r = await http('/api/graph-app/config');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ tokenRequired: true, graphqlPath: '/graphql' });
      const page = await http('/graph/');
      expect(page.status).toBe(200);
      expect(page.text).toBe(INDEX);
    });
  });
});
