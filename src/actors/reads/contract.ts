/** The read actor's contract (types only): one GraphQL query, executed on the worker's own connection. */
import type { ResolvedConfig } from '../../config/resolve.js';
import type { Caller } from '../../core/types.js';

export interface ReadJob {
  readonly config: ResolvedConfig;
  readonly query: string;
  readonly operationName: string | null;
  readonly variables: Readonly<Record<string, unknown>> | null;
  readonly caller: Caller;
  /** The server's clock now (epoch ms): strength and decay are read as of the same moment. */
  readonly now: number;
  /** The server's search mode (stats.searchMode): the worker runs no semantic layer. */
  readonly searchMode: 'hybrid' | 'fulltext';
}

export interface ReadWorkerApi {
  /** The response body: the execution result as JSON text (errors formatted with their codes). */
  query(job: ReadJob): Promise<string>;
}
