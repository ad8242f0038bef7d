/**
 * The one path every transport takes from a request to ExecutionArgs: parse and validate (both cached by
 * document text, so a repeated query costs a map look-up), pick the operation, refuse mutations over GET,
 * and refuse mutations without the dashboard token. Nothing executes before these checks pass.
 */
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import type { ErrorCode } from '../../core/errors.js';
import type { GqlContext } from './context.js';
import { codedError } from './errors.js';
import { COST_LIMITS, operationCost, type OperationCost } from './cost.js';
import { LIMIT_RULES, QUERY_LIMITS, tooComplex } from './limits.js';

export interface OperationParams {
  readonly query: string;
  readonly operationName?: string | null;
  readonly variables?: Readonly<Record<string, unknown>> | null;
}

/** Whether the request may run mutations: 'ok' (no token configured, or the right one), or why not. */
export type TokenState = 'ok' | 'missing' | 'invalid';

export type Prepared =
  | { readonly ok: true; readonly args: ExecutionArgs & { contextValue: GqlContext }; readonly operation: OperationTypeNode; readonly cost: OperationCost }
  | { readonly ok: false; readonly errors: readonly GraphQLError[]; readonly status?: number };

interface CachedDocument {
  readonly document: DocumentNode | null;
  readonly errors: readonly GraphQLError[];
}

const CACHE_MAX = 1000;

export class OperationPreparer {
  private readonly cache = new Map<string, CachedDocument>();
  private readonly rules = [...specifiedRules, ...LIMIT_RULES];

  constructor(readonly schema: GraphQLSchema) {}

  /** Parse and validate, remembering the outcome for this exact text. */
  document(query: string): CachedDocument {
    const hit = this.cache.get(query);
    if (hit) return hit;
    let entry: CachedDocument;
    try {
      const document = parse(query, { maxTokens: QUERY_LIMITS.maxTokens });
      // graphql-js aborts validation past its own work budget (e.g. thousands of overlapping fields): a limit, not a mistake.
      const errors = validate(this.schema, document, this.rules).map((e) => (e.message === 'Validation aborted.' ? tooComplex('the document is too costly to validate (too many overlapping fields)') : e));
      entry = { document: errors.length === 0 ? document : null, errors };
    } catch (err) {
      const e = err instanceof GraphQLError ? err : new GraphQLError(String(err));
      // graphql-js 16 spells it "more that 2000 tokens"; match either spelling.
      entry = { document: null, errors: [/Document contains more th(?:an|at) \d+ tokens/.test(e.message) ? tooComplex(e.message) : e] };
    }
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(query, entry);
    return entry;
  }

  /** `budget`: the most this request may cost (cost.ts); over it, refused before anything runs. */
  prepare(params: OperationParams, contextValue: GqlContext, token: TokenState, method: string, budget: number = COST_LIMITS.perRequest): Prepared {
    if (typeof params.query !== 'string' || params.query.trim() === '') {
      return { ok: false, errors: [codedError('MEM_ERR_BAD_REQUEST', 'a GraphQL request needs a non-empty query string')], status: 400 };
    }
    const { document, errors } = this.document(params.query);
    if (!document) return { ok: false, errors };
    const op = getOperationAST(document, params.operationName ?? undefined);
    if (!op) {
      const message = params.operationName ? `no operation named "${params.operationName}"` : 'the document has several operations: name one with operationName';
      return { ok: false, errors: [codedError('MEM_ERR_GRAPHQL_INVALID', message)] };
    }
    if (op.operation === 'mutation') {
      if (method === 'GET') return { ok: false, errors: [codedError('MEM_ERR_METHOD_NOT_ALLOWED', 'mutations are not allowed over GET; use POST')], status: 405 };
      if (token !== 'ok') return { ok: false, errors: [tokenError(token)], status: 401 };
    }
    const cost = operationCost(this.schema, document, op, params.variables) ?? { cost: 0, mainThread: true };
    // What must run on the server's thread (search, suggestedLinks, mutations, subscriptions) stays small wherever it comes from.
    const limit = cost.mainThread ? Math.min(budget, COST_LIMITS.inline) : budget;
    if (cost.cost > limit) {
      const where =
        budget < COST_LIMITS.perRequest ? ' over WebSocket and SSE (send heavier reads as HTTP requests)' : cost.mainThread ? ' for an operation that runs on the server\'s thread (one using search or suggestedLinks, or a mutation)' : '';
      return { ok: false, errors: [tooComplex(`this operation may cost ${cost.cost}, above the budget of ${limit}${where}: ask for fewer items (smaller limits) or fewer aliases`)], status: 400 };
    }
    return {
      ok: true,
      cost,
      operation: op.operation,
      args: { schema: this.schema, document, operationName: params.operationName ?? undefined, variableValues: params.variables ?? undefined, contextValue },
    };
  }
}

export function tokenError(token: Exclude<TokenState, 'ok'>): GraphQLError {
  const code: ErrorCode = token === 'missing' ? 'MEM_ERR_TOKEN_REQUIRED' : 'MEM_ERR_TOKEN_INVALID';
  const message = token === 'missing' ? 'this dashboard requires a token for mutations: send Authorization: Bearer <token>' : 'the dashboard token is not valid';
  return codedError(code, message);
}
