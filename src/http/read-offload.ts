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

/** The whole price of several operations (a batch); an operation refused anyway costs nothing here. */
export function batchPrice(preparer: OperationPreparer, items: readonly (OperationParams | null)[], st: RequestState, method: string): number {
  let total = 0;
  for (const params of items) {
    const p = params ? preparer.prepare(params, st.context, st.token, method, Number.MAX_SAFE_INTEGER) : null;
    if (p?.ok) total += p.cost.cost;
  }
  return total;
}

export class ReadOffload {
  constructor(
    private readonly preparer: OperationPreparer,
    private readonly reads: ReadClient,
    private readonly svc: MemoryService,
  ) {}

  /** The answer from the read worker, or null when this request takes the usual path. */
  async run(params: OperationParams | null, req: NeutralRequest, st: RequestState): Promise<HttpResponse | null> {
    if (!params) return null;
    const type = mediaType(req.header('accept'));
    if (!type) return null;
    const p = this.preparer.prepare(params, st.context, st.token, req.method);
    if (!p.ok || p.operation !== 'query' || p.cost.mainThread || p.cost.cost < COST_LIMITS.offloadFrom) return null;
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
