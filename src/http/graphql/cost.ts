/**
 * What a GraphQL operation may cost before it runs (issue 20): every object the answer can hold counts 1,
 * multiplied by the size of the lists around it, which the arguments bound (a `graph(filter: { limit })`
 * holds up to `limit` nodes and twice as many edges); fields that run a store query per parent object
 * weigh more. The estimate is an upper bound on the work, computed from the document and its variables in
 * microseconds; a request above its budget is refused before anything executes.
 */
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const COST_LIMITS = Object.freeze({
  /** Per HTTP request, and for all the operations of a batch together: the app's full graph (20,000 nodes) fits. */
  perRequest: 100_000,
  /**
   * What runs on the server's thread stays under this (~25 ms at worst): queries over WebSocket and SSE,
   * and operations that need the thread (search, suggestedLinks, mutations). A heavier read goes over HTTP.
   */
  inline: 2_000,
  /** HTTP queries from this cost up run on the read worker, off the server's thread. */
  offloadFrom: 1_000,
});

type Args = Readonly<Record<string, unknown>>;
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
const filterLimit = (args: Args): number => num((args.filter as Args | null | undefined)?.limit, 2000);

/** Lists the arguments bound: how many items, given the field's own arguments and the limit its parent passed down. */
const LIST_SIZE: Readonly<Record<string, (args: Args, inherited: number) => number>> = {
  'Query.facts': filterLimit,
  'Query.episodes': (a) => num(a.limit, 50),
  'Query.links': (a) => num(a.limit, 1000),
  'Query.recallHistory': (a) => num(a.limit, 50),
  'Query.activity': (a) => num(a.limit, 50),
  'Query.orphans': (a) => num(a.limit, 100),
  'Query.suggestedLinks': (a) => num(a.limit, 50),
  'Query.conflicts': () => 1000,
  'Query.weakLinks': (a) => num(a.limit, 100),
  'Query.staleFacts': (a) => num(a.limit, 100),
  'Graph.nodes': (_a, n) => n,
  'SemanticMap.points': (_a, n) => n,
  'Graph.edges': (_a, n) => 2 * n,
  'SearchResult.hits': (_a, n) => n,
  'Fact.versions': () => 5,
  'Fact.links': () => 50,
};

/** Limits an object field passes to the lists inside it (graph → nodes, search → hits). */
const PASSES: Readonly<Record<string, (args: Args) => number>> = {
  'Query.graph': filterLimit,
  'Query.semanticMap': filterLimit,
  'Query.neighbors': (a) => num(a.limit, 200),
  'Query.search': (a) => num(a.limit, 20),
};

/** Work per call of the field (once per parent object) beyond the items it returns: a store query, a search, a pairwise scan. */
const WEIGHT: Readonly<Record<string, number>> = {
  'Fact.versions': 5,
  'Fact.links': 5,
  'Query.search': 50,
  'Query.suggestedLinks': 500,
  'Query.stats': 20,
  // Reads every placed fact's vector and projects them: a heavy read at any size.
  'Query.semanticMap': 1_000,
  'Conflict.newFact': 2,
  'Conflict.oldFact': 2,
  'SuggestedLink.sourceFact': 2,
  'SuggestedLink.targetFact': 2,
};

/** Fields that need what only the server's thread has (the semantic layer): an operation using them runs there. */
const MAIN_THREAD = new Set(['Query.search', 'Query.suggestedLinks']);

/** What an operation may cost, and whether it must run on the server's thread. */
export interface OperationCost {
  readonly cost: number;
  readonly mainThread: boolean;
}

/** A list with no bound in this table counts as this many items. */
const UNBOUNDED_LIST = 20;

/**
 * The cost of `op` with `variables`, or null when the variables do not coerce (execution will report that,
 * at no cost). Fragments are expanded; a fragment cycle is invalid and validation has refused it already.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, op: OperationDefinitionNode, variables: Readonly<Record<string, unknown>> | null | undefined): OperationCost | null {
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return null;
  const vars = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) return { cost: 0, mainThread: true };
  let mainThread = op.operation !== 'query';

  const costOf = (type: GraphQLObjectType, set: SelectionSetNode, inherited: number, depth: number): number => {
    if (depth > 32) return 0;
    let total = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(type, s.selectionSet, inherited, depth + 1);
        continue;
      }
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(s.name.value);
        if (f) total += costOf(type, f.selectionSet, inherited, depth + 1);
        continue;
      }
      const name = s.name.value;
      if (name.startsWith('__')) continue;
      const field = type.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
      if (!field) continue;
      const key = `${type.name}.${name}`;
      if (MAIN_THREAD.has(key)) mainThread = true;
      let args: Args = {};
      try {
        args = getArgumentValues(field, s, vars);
      } catch {
        // Arguments that do not coerce fail at execution, before any resolver runs.
      }
      const named = getNamedType(field.type);
      const list = isListType(getNullableType(field.type));
      const items = list ? (LIST_SIZE[key]?.(args, inherited) ?? UNBOUNDED_LIST) : 1;
      const weight = WEIGHT[key] ?? 0;
      if (!isObjectType(named) || !s.selectionSet) {
        total += weight;
        continue;
      }
      const passes = PASSES[key]?.(args) ?? inherited;
      // The field's own work once per call; each item it returns, and what is selected under it, per item.
      total += weight + items * (1 + costOf(named, s.selectionSet, passes, depth + 1));
    }
    return total;
  };
  const cost = Math.ceil(costOf(root, op.selectionSet, 0, 0));
  return { cost, mainThread };
}
