/**
 * The dashboard's request handling, transport-neutral: guards first (Host, Origin), then routes:
 *   /graphql            POST (JSON only: CSRF guard) and GET (queries) via graphql-http; SSE when the
 *                       client accepts text/event-stream (graphql-sse); WebSocket upgrades in ws.ts
 *   /graph, /graph/...  the built app (static.ts)
 *   /api/graph-app/config, /api/health
 *   /api/plugins/<id>/...  endpoints registered by plugins (plugin-routes.ts)
 * Every refusal is JSON `{ errors: [{ message, extensions: { code } }] }` with a code from the registry.
 */
import { MemoryError, type ErrorCode } from '../core/errors.js';
import type { MemoryService } from '../memory/service.js';
import { callerFromHeaders } from './caller.js';
import type { GqlContext } from './graphql/context.js';
import { COST_LIMITS } from './graphql/cost.js';
import { QUERY_LIMITS } from './graphql/limits.js';
import type { OperationParams, OperationPreparer } from './graphql/operation.js';
import { createGraphqlHttp, createGraphqlSse, type NeutralRequest, type RequestState } from './graphql-transports.js';
import { requestGuard, type TokenCheck } from './security.js';
import { PLUGIN_PREFIX, pluginRoute } from './plugin-routes.js';
import type { AnswerCache } from './answer-cache.js';
import { paramsOf, priceOf, type ReadOffload } from './read-offload.js';
import { StaticApp } from './static.js';
import { BASE_HEADERS, type HttpRequest, type HttpResponse } from './types.js';

export interface RouterOptions {
  readonly svc: MemoryService;
  readonly preparer: OperationPreparer;
  readonly token: TokenCheck;
  readonly appDir: string;
  readonly version: string;
  /** The port actually bound (Host and Origin must name it). */
  readonly port: () => number;
  /** Heavy HTTP queries run on the read worker (null: all on this thread). */
  readonly offload?: ReadOffload | null;
  /** Answers to heavy queries kept while memory has not changed (null: none kept). */
  readonly answers?: AnswerCache | null;
}

export type Handle = (req: HttpRequest) => Promise<HttpResponse>;

export function refusal(code: ErrorCode, status: number, message: string, extraHeaders: Readonly<Record<string, string>> = {}): HttpResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
    body: JSON.stringify({ errors: [{ message, extensions: { code } }] }),
  };
}

/** Headers a page cannot add to a request without a CORS preflight (which this server never grants). */
const CUSTOM_HEADERS = ['x-hybrid-mem-request', 'x-hybrid-mem-role', 'x-hybrid-mem-agent-id', 'x-hybrid-mem-session-id', 'authorization'];

/** How deep a request body's JSON may nest (GraphQL variables included). */
const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `max` arrays or objects inside each other (strings skipped); one pass, no parse. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

const json = (value: unknown): HttpResponse => ({
  status: 200,
  headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(value),
});

/**
 * What graphql-http parses: application/json, with charset utf-8 as the first parameter if any. Anything
 * else it answers with a body-less 415, so the guard refuses it here, with a code.
 */
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*utf-8\s*(;.*)?)?$/i;

export function createRouter(o: RouterOptions): Handle {
  const gqlHttp = createGraphqlHttp(o.preparer);
  const gqlSse = createGraphqlSse(o.preparer);
  const app = new StaticApp(o.appDir);
  const guard = requestGuard(o.port);

  const state = (req: HttpRequest): RequestState => {
    const lastId = req.header('last-event-id');
    const context: GqlContext = {
      svc: o.svc,
      caller: callerFromHeaders(req.header),
      authorized: false,
      lastEventId: lastId !== null && /^\d{1,15}$/.test(lastId.trim()) ? Number(lastId.trim()) : null,
    };
    const token = o.token.fromHeader(req.header('authorization'));
    return { context: { ...context, authorized: token === 'ok' }, token };
  };

  const graphql = async (req: HttpRequest): Promise<HttpResponse> => {
    const url = req.query === '' ? '/graphql' : `/graphql?${req.query}`;
    const sse = (req.header('accept') ?? '').includes('text/event-stream');
    if (req.method !== 'GET' && req.method !== 'POST') return refusal('MEM_ERR_METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on /graphql`, { allow: 'GET, POST' });
    let body: string | null = null;
    if (req.method === 'POST') {
      // Only JSON bodies: text/plain, form and multipart posts need no CORS preflight, so a page on any site could send them.
      if (!JSON_TYPE.test(req.header('content-type') ?? '')) return refusal('MEM_ERR_CONTENT_TYPE', 415, 'POST /graphql needs Content-Type: application/json', { accept: 'application/json' });
      body = (await req.body(QUERY_LIMITS.maxBodyBytes)).toString('utf8');
      // Parsing and re-serialising recurse per level: a body nested 100,000 deep would overflow the stack.
      if (nestedDeeperThan(body, MAX_JSON_DEPTH)) return refusal('MEM_ERR_BAD_REQUEST', 400, `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // A GET a page can make without asking (an <img> or <script> source carries no Origin): it needs proof it
    // came from a client that means it, a same-origin fetch or a header no page can send without a preflight.
    const getVariables = req.method === 'GET' ? new URLSearchParams(req.query).get('variables') : null;
    if (getVariables !== null && nestedDeeperThan(getVariables, MAX_JSON_DEPTH)) return refusal('MEM_ERR_BAD_REQUEST', 400, `the variables nest deeper than ${MAX_JSON_DEPTH} levels`);
    if (req.method === 'GET' && req.header('origin') === null && req.header('sec-fetch-site') !== 'same-origin' && !CUSTOM_HEADERS.some((h) => req.header(h) !== null)) {
      return refusal('MEM_ERR_ORIGIN_REFUSED', 403, 'a GET /graphql needs the header X-Hybrid-Mem-Request: 1 (or use POST with Content-Type: application/json)');
    }
    const st = state(req);
    if (sse) {
      // graphql-sse takes only an Accept of exactly text/event-stream as a stream request; clients that list more types mean the same.
      const header = (name: string): string | null => (name === 'accept' ? 'text/event-stream' : req.header(name));
      return gqlSse({ method: req.method, url, header, body }, st);
    }
    const neutral: NeutralRequest = { method: req.method, url, header: req.header, body };
    if (body !== null && body.trimStart().startsWith('[')) return batch(neutral, body, st);
    return one(neutral, paramsOf(req.method, req.query, body === null ? null : parseJson(body)), st);
  };

  /** One operation: on the read worker when heavy, else the usual path. */
  const one = async (req: NeutralRequest, params: OperationParams | null, st: RequestState): Promise<HttpResponse> => {
    if (!o.offload && !o.answers) return gqlHttp(req, st);
    // Priced once: the answer cache and the read worker both decide on it.
    const priced = priceOf(o.preparer, params, st, req.method);
    const run = async (): Promise<HttpResponse> => (await o.offload?.run(priced, req, st)) ?? gqlHttp(req, st);
    return o.answers ? o.answers.answer(priced, req, st, run) : run();
  };

  /** A JSON array of operations: each runs as its own request; at most QUERY_LIMITS.maxBatch. */
  const batch = async (req: NeutralRequest, body: string, st: RequestState): Promise<HttpResponse> => {
    let items: unknown;
    try {
      items = JSON.parse(body);
    } catch {
      return refusal('MEM_ERR_BAD_REQUEST', 400, 'the body is not valid JSON');
    }
    if (!Array.isArray(items) || items.length === 0) return refusal('MEM_ERR_BAD_REQUEST', 400, 'a batch is a non-empty JSON array of requests');
    if (items.length > QUERY_LIMITS.maxBatch) return refusal('MEM_ERR_QUERY_TOO_COMPLEX', 400, `a batch holds at most ${QUERY_LIMITS.maxBatch} operations (received ${items.length})`);
    // Priced as a whole before any runs: a batch may not cost more than one request.
    const params = items.map((item) => paramsOf('POST', '', item));
    const price = params.reduce((sum, p) => sum + (priceOf(o.preparer, p, st, req.method)?.cost.cost ?? 0), 0);
    if (price > COST_LIMITS.perRequest) return refusal('MEM_ERR_QUERY_TOO_COMPLEX', 400, `this batch may cost ${price}, above the budget of ${COST_LIMITS.perRequest} for a request: send fewer or smaller operations`);
    const bodies: string[] = [];
    for (const [i, item] of items.entries()) {
      const r = await one({ ...req, body: JSON.stringify(item) }, params[i] ?? null, st);
      // 406 (no acceptable media type) and 415 refuse the request itself, alike for every item.
      if (r.status === 406 || r.status === 415 || !('body' in r)) return r;
      bodies.push(r.body.toString());
    }
    // Each answer is JSON text already: joined, not parsed and written again.
    return { status: 200, headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: `[${bodies.join(',')}]` };
  };

  return async (req) => {
    try {
      const refused = guard({ host: req.header('host'), hostCount: req.hostCount, origin: req.header('origin'), repeated: req.repeated });
      if (refused) return refusal(refused.code, refused.status, refused.message);
      const path = req.path;
      // A browser says where a request comes from: another site (or another port of this one) may open the app, not read the API.
      const site = req.header('sec-fetch-site');
      if (site !== null && site !== 'same-origin' && site !== 'none' && (path === '/graphql' || path.startsWith('/api/'))) {
        return refusal('MEM_ERR_ORIGIN_REFUSED', 403, `cross-site requests are refused (Sec-Fetch-Site: ${site})`);
      }
      if (path === '/graphql') return await graphql(req);
      if (path.startsWith(PLUGIN_PREFIX)) return await pluginRoute(req, o.svc, o.token);
      if (req.method !== 'GET' && req.method !== 'HEAD') return refusal('MEM_ERR_METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on ${path}`, { allow: 'GET, HEAD' });
      if (path === '/graph' || path.startsWith('/graph/')) return await app.serve(path, req.method);
      if (path === '/api/graph-app/config') return json({ tokenRequired: o.token.required, graphqlPath: '/graphql', version: o.version });
      if (path === '/api/health') return json({ ok: true, service: 'hybrid-mem', version: o.version });
      if (path === '/') return { status: 302, headers: { ...BASE_HEADERS, location: '/graph/' }, body: '' };
      return refusal('MEM_ERR_NOT_FOUND', 404, 'not found');
    } catch (err) {
      if (err instanceof MemoryError) {
        const status = err.code === 'MEM_ERR_BODY_TOO_LARGE' ? 413 : err.isUserError ? 400 : 500;
        return refusal(err.code, status, err.message);
      }
      return refusal('MEM_ERR_INTERNAL', 500, err instanceof Error ? err.message : String(err));
    }
  };
}
