/**
 * Who is asking, from request headers (HTTP, SSE) or connection params (WebSocket). Absent: the local
 * operator. These headers choose a scope for reads and writes; they are not authentication (the token
 * gates mutations; see docs/graphql.md, "Who is asking, and the token").
 */
import { MemoryError } from '../core/errors.js';
import { OPERATOR, type Caller } from '../core/types.js';
import { parseCaller } from '../memory/inputs.js';

export const CALLER_HEADERS = Object.freeze({ role: 'x-hybrid-mem-role', agentId: 'x-hybrid-mem-agent-id', sessionId: 'x-hybrid-mem-session-id' });

export function callerFrom(get: (name: 'role' | 'agentId' | 'sessionId') => unknown): Caller {
  const role = get('role');
  const agentId = get('agentId');
  const sessionId = get('sessionId');
  if ((role === null || role === undefined) && agentId == null && sessionId == null) return OPERATOR;
  try {
    return parseCaller({ role: role ?? 'operator', agentId: agentId ?? null, sessionId: sessionId ?? null });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new MemoryError('MEM_ERR_BAD_REQUEST', `caller: ${message}`, { cause: err });
  }
}

export const callerFromHeaders = (header: (name: string) => string | null): Caller => callerFrom((k) => header(CALLER_HEADERS[k]));
