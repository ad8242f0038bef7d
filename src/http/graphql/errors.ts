/**
 * How errors leave the API: every GraphQL error carries `extensions.code` from the one registry
 * (src/core/errors.ts); MemoryError details travel as `extensions.details`. Errors that are not ours are
 * reported as MEM_ERR_INTERNAL with their message.
 */
import { GraphQLError } from 'graphql';
import { isErrorCode, MemoryError, type ErrorCode } from '../../core/errors.js';

export function codedError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

export function formatError(err: unknown): GraphQLError {
  if (!(err instanceof GraphQLError)) {
    const e = err instanceof MemoryError ? err : null;
    return new GraphQLError(err instanceof Error ? err.message : String(err), { extensions: { code: e?.code ?? 'MEM_ERR_BAD_REQUEST' } });
  }
  if (isErrorCode(err.extensions['code'])) return err;
  const original = err.originalError;
  let code: ErrorCode;
  let details: unknown;
  if (original instanceof MemoryError) {
    code = original.code;
    details = original.details;
  } else if (original) {
    const own: unknown = (original as { code?: unknown }).code;
    code = isErrorCode(own) ? own : 'MEM_ERR_INTERNAL';
  } else {
    // No original error: a syntax or validation error from graphql-js itself.
    code = 'MEM_ERR_GRAPHQL_INVALID';
  }
  return new GraphQLError(err.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    path: err.path,
    originalError: original,
    extensions: { ...err.extensions, code, ...(details === undefined ? {} : { details }) },
  });
}
