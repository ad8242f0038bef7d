/**
 * GraphQL over WebSocket (graphql-ws protocol): the server options both adapters hand to graphql-ws.
 * Browsers cannot set headers on a WebSocket, so the token and the caller come from the connection_init
 * payload ({ token, role, agentId, sessionId }); non-browser clients may send them as upgrade headers instead.
 * Host and Origin are checked by the adapter before the upgrade is accepted.
 */
import type { GraphQLError } from 'graphql';
import type { ServerOptions } from 'graphql-ws';
import type { MemoryService } from '../memory/service.js';
import { callerFrom, CALLER_HEADERS } from './caller.js';
import type { GqlContext } from './graphql/context.js';
import { COST_LIMITS } from './graphql/cost.js';
import { codedError, formatError } from './graphql/errors.js';
import type { OperationPreparer, TokenState } from './graphql/operation.js';
import type { TokenCheck } from './security.js';

/** Subscriptions (and queries in flight) one WebSocket connection may hold at once. */
export const MAX_OPERATIONS_PER_CONNECTION = 32;

interface ConnState {
  readonly context: GqlContext;
  readonly token: TokenState;
}

export function wsServerOptions<E>(o: {
  svc: MemoryService;
  preparer: OperationPreparer;
  token: TokenCheck;
  /** An upgrade-request header of this connection, lower-case name. */
  upgradeHeader: (extra: E, name: string) => string | null;
}): ServerOptions<Record<string, unknown> | undefined, E> {
  const states = new WeakMap<object, ConnState>();
  /** Operation ids each connection holds (graphql-ws registers an operation only after it starts executing). */
  const live = new WeakMap<object, Set<string>>();
  const done = (ctx: object, id: string): void => void live.get(ctx)?.delete(id);
  return {
    schema: o.preparer.schema,
    onConnect: (ctx) => {
      const params = ctx.connectionParams ?? {};
      const str = (k: string): string | null => (typeof params[k] === 'string' ? (params[k] as string) : null);
      const header = (name: string): string | null => o.upgradeHeader(ctx.extra, name);
      try {
        const caller = callerFrom((k) => str(k) ?? header(CALLER_HEADERS[k]));
        const presented = str('token');
        const token = presented !== null ? o.token.check(presented) : o.token.fromHeader(header('authorization'));
        states.set(ctx, { token, context: { svc: o.svc, caller, authorized: token === 'ok', lastEventId: null } });
        return true;
      } catch {
        return false; // a malformed caller: graphql-ws closes with 4403 Forbidden
      }
    },
    onSubscribe: (ctx, id, payload) => {
      const st = states.get(ctx);
      if (!st) return [formatError(new Error('connection not initialised'))];
      // One connection may not hold the server's event loop with thousands of live subscriptions.
      const ops = live.get(ctx) ?? new Set<string>();
      live.set(ctx, ops);
      if (ops.size >= MAX_OPERATIONS_PER_CONNECTION) {
        return [codedError('MEM_ERR_QUERY_TOO_COMPLEX', `at most ${MAX_OPERATIONS_PER_CONNECTION} operations at once on one WebSocket connection: complete one first`)];
      }
      // Over WebSocket everything runs on the server's thread: the small budget.
      const prepared = o.preparer.prepare(payload, { ...st.context }, st.token, 'WS', COST_LIMITS.inline);
      if (!prepared.ok) return prepared.errors.map((e) => formatError(e)) as readonly GraphQLError[];
      ops.add(id);
      return prepared.args;
    },
    onComplete: (ctx, id) => done(ctx, id),
    onError: (ctx, id, _payload, errors) => {
      done(ctx, id);
      return errors.map((e) => formatError(e).toJSON());
    },
    onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatError(e).toJSON()) } : undefined),
  };
}
