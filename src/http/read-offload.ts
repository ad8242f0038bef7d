/**
 * Heavy reads off the server's thread (issue 20). An HTTP query whose price (graphql/cost.ts) reaches
 * COST_LIMITS.offloadFrom, and that needs nothing only the server's thread has (the semantic layer),
 * runs on the read worker (src/actors/reads), which also serialises the answer: a full graph of 20,000
 * facts takes ~1 s to read and write out, and would otherwise hold every other request, /api/health
 * included, for that long. Everything else, and every refusal, takes the usual path (graphql-http), so
 * answers and errors look the same either way.
 */
import type { ReadClient } from '../actors/reads/client.js';
import type { MemoryService } from '../memory/service.js';
import { COST_LIMITS } from './graphql/cost.js';
import type { OperationTypeNode } from 'graphql';
import type { OperationCost } from './graphql/cost.js';
import type { OperationParams, OperationPreparer } from './graphql/operation.js';
import type { NeutralRequest, RequestState } from './graphql-transports.js';
import { BASE_HEADERS, type HttpResponse } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The GraphQL parameters of a GET (query string) or a POST item (JSON object), or null when malformed (graphql-http reports that). */
export function paramsOf(method: string, query: string, item: unknown): OperationParams | null {
  if (method === 'GET') {
    const q = new URLSearchParams(query);
    const text = q.get('query');
    let variables: unknown = null;
    try {
      variables = q.get('variables') ? JSON.parse(q.get('variables') as string) : null;
    } catch {
      return null;
    }
    if (text === null || (variables !== null && !isObject(variables))) return null;
    return { query: text, operationName: q.get('operationName'), variables: variables as Record<string, unknown> | null };
  }
  if (!isObject(item) || typeof item.query !== 'string') return null;
  const variables = item.variables ?? null;
  const operationName = item.operationName ?? null;
  if ((variables !== null && !isObject(variables)) || (operationName !== null && typeof operationName !== 'string')) return null;
  return { query: item.query, operationName, variables };
}

/** The media type graphql-http would answer with for this Accept, or null (it answers 406 itself). */
function mediaType(accept: string | null): string | null {
  if (accept === null || accept.trim() === '') return 'application/json; charset=utf-8';
  for (const part of accept.split(',')) {
    const type = part.split(';')[0]?.trim().toLowerCase();
    if (type === 'application/graphql-response+json') return 'application/graphql-response+json; charset=utf-8';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'application/json; charset=utf-8';
  }
  return null;
}

/** An operation parsed, validated and priced (graphql/cost.ts): what the cache and the read worker decide on. */
export interface Priced {
  readonly params: OperationParams;
  readonly operation: OperationTypeNode;
  readonly cost: OperationCost;
}

/**
 * Price an operation once per request, whatever its budget (the refusal itself is graphql-http's, on the
 * usual path); null when it does not parse, validate or pass the token gate.
 */
export function priceOf(preparer: OperationPreparer, params: OperationParams | null, st: RequestState, method: string): Priced | null {
  if (!params) return null;
  const p = preparer.prepare(params, st.context, st.token, method, Number.MAX_SAFE_INTEGER);
  return p.ok ? { params, operation: p.operation, cost: p.cost } : null;
}

export class ReadOffload {
  constructor(
    private readonly reads: ReadClient,
    private readonly svc: MemoryService,
  ) {}

  /** The answer from the read worker, or null when this request takes the usual path (which also refuses what is over budget). */
  async run(priced: Priced | null, req: NeutralRequest, st: RequestState): Promise<HttpResponse | null> {
    if (!priced || priced.operation !== 'query' || priced.cost.mainThread || priced.cost.cost < COST_LIMITS.offloadFrom || priced.cost.cost > COST_LIMITS.perRequest) return null;
    const type = mediaType(req.header('accept'));
    if (!type) return null;
    const { params } = priced;
    const body = await this.reads.query({
      config: this.svc.config,
      query: params.query,
      operationName: params.operationName ?? null,
      variables: params.variables ?? null,
      caller: st.context.caller,
      // What the server's own answer would read: its clock, its search mode, every recall already answered.
      now: this.svc.settledNow(),
      searchMode: this.svc.semanticLayer ? 'hybrid' : 'fulltext',
    });
    return { status: 200, headers: { ...BASE_HEADERS, 'content-type': type }, body };
  }
}
