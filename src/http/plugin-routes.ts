/**
 * Plugin-registered endpoints: `/api/plugins/<id><path>` on the dashboard server, handled in the plugin's
 * worker. They sit behind the same guards as everything else (the router checks Host and Origin first),
 * and:
 *   - GET and HEAD need no token (like GraphQL reads); every other method needs the dashboard token when
 *     one is set (401 MEM_ERR_TOKEN_REQUIRED / MEM_ERR_TOKEN_INVALID), as mutations do;
 *   - POST, PUT and PATCH must carry `Content-Type: application/json` (415 MEM_ERR_CONTENT_TYPE): a page
 *     on another site cannot send that without a CORS preflight, which this server never grants;
 *   - bodies are at most 256 KiB (413); the Authorization and Cookie headers never reach a plugin;
 *   - the plugin's answer is checked (status, headers without CORS or framing headers, a string or JSON
 *     body); a plugin that fails answers 500 MEM_ERR_PLUGIN_FAILED;
 *   - every answer carries a sandbox CSP: a page a plugin serves runs in an opaque origin, so whatever it
 *     shows (maybe echoing request input) cannot read the graph app's stored token, and its requests to
 *     this server carry `Origin: null`, which the guard refuses.
 * Only the exact paths a plugin registered exist; anything else is 404.
 */
import { PLUGIN_ID_PATTERN, isEndpointPath } from '../core/plugin-names.js';
import type { MemoryService } from '../memory/service.js';
import { callerFromHeaders } from './caller.js';
import { refusal } from './router.js';
import type { TokenCheck } from './security.js';
import { BASE_HEADERS, type HttpRequest, type HttpResponse } from './types.js';

export const PLUGIN_PREFIX = '/api/plugins/';
export const PLUGIN_BODY_MAX = 256 * 1024;
export const PLUGIN_CSP = "sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'none'";

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*utf-8\s*)?$/i;
/** What a plugin sees of the request headers. */
const FORWARDED = ['accept', 'accept-language', 'content-type', 'user-agent', 'x-hybrid-mem-role', 'x-hybrid-mem-agent-id', 'x-hybrid-mem-session-id'] as const;

export async function pluginRoute(req: HttpRequest, svc: MemoryService, token: TokenCheck): Promise<HttpResponse> {
  const rest = req.path.slice(PLUGIN_PREFIX.length);
  const slash = rest.indexOf('/');
  const id = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '/' : rest.slice(slash);
  const plugins = svc.plugins;
  if (!PLUGIN_ID_PATTERN.test(id) || !isEndpointPath(path) || !plugins) return refusal('MEM_ERR_NOT_FOUND', 404, 'not found');
  const method = req.method;
  if (!METHODS.has(method)) return refusal('MEM_ERR_METHOD_NOT_ALLOWED', 405, `${method} is not allowed on plugin endpoints`, { allow: [...METHODS].join(', ') });
  const safe = method === 'GET' || method === 'HEAD';
  if (!safe) {
    const t = token.fromHeader(req.header('authorization'));
    if (t === 'missing') return refusal('MEM_ERR_TOKEN_REQUIRED', 401, `this dashboard requires a token for ${method} to plugin endpoints: send Authorization: Bearer <token>`);
    if (t === 'invalid') return refusal('MEM_ERR_TOKEN_INVALID', 401, 'the dashboard token is not valid');
    if (BODY_METHODS.has(method) && !JSON_TYPE.test(req.header('content-type') ?? '')) {
      return refusal('MEM_ERR_CONTENT_TYPE', 415, `${method} to a plugin endpoint needs Content-Type: application/json`, { accept: 'application/json' });
    }
  }
  const body = safe ? null : (await req.body(PLUGIN_BODY_MAX)).toString('utf8');
  const headers: Record<string, string> = {};
  for (const h of FORWARDED) {
    const v = req.header(h);
    if (v !== null) headers[h] = v;
  }
  const answer = await plugins.endpoint(id, {
    method,
    path,
    query: Object.fromEntries(new URLSearchParams(req.query)),
    headers,
    body: body === '' ? null : body,
    caller: callerFromHeaders(req.header),
  });
  if (!answer) return refusal('MEM_ERR_NOT_FOUND', 404, `plugin ${id} serves no ${path}`);
  return {
    status: answer.status,
    headers: { 'cache-control': 'no-store', ...answer.headers, ...BASE_HEADERS, 'content-security-policy': PLUGIN_CSP },
    body: method === 'HEAD' ? '' : answer.body,
  };
}
