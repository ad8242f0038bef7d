/**
 * Document limits (GraphQL Armor's defaults, adjusted): depth, aliases, tokens, batch size. Introspection
 * subtrees (`__schema`, `__type`) do not count towards depth, so standard introspection queries (whose type
 * references nest ~9 deep) keep working, but they are still bounded by the token limit.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export const QUERY_LIMITS = Object.freeze({
  maxDepth: 8,
  maxAliases: 15,
  /** Tokens per document; the standard introspection query is ~ 300. */
  maxTokens: 2000,
  /** Operations per batched POST (an array body). */
  maxBatch: 10,
  /** Bytes per request body. */
  maxBodyBytes: 256 * 1024,
});

export const tooComplex = (message: string): GraphQLError => new GraphQLError(message, { extensions: { code: 'MEM_ERR_QUERY_TOO_COMPLEX' } });

export const depthLimit =
  (max: number): ValidationRule =>
  (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: ReadonlySet<string>): number => {
      if (!set || depth > max) return depth;
      let deepest = depth;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (s.name.value.startsWith('__')) continue;
          deepest = Math.max(deepest, depthOf(s.selectionSet, depth + 1, seen));
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(s.selectionSet, depth, seen));
        } else if (!seen.has(s.name.value)) {
          deepest = Math.max(deepest, depthOf(fragments.get(s.name.value)?.selectionSet, depth, new Set([...seen, s.name.value])));
        }
        if (deepest > max) break;
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > max) context.reportError(tooComplex(`query depth above the limit of ${max}`));
      },
    };
  };

export const aliasLimit =
  (max: number): ValidationRule =>
  (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(node) {
        if (node.alias && ++aliases === max + 1) context.reportError(tooComplex(`more than ${max} aliases in the document`));
      },
    };
  };

export const LIMIT_RULES: readonly ValidationRule[] = [depthLimit(QUERY_LIMITS.maxDepth), aliasLimit(QUERY_LIMITS.maxAliases)];
