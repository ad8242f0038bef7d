/**
 * The read worker: runs the dashboard's heavy GraphQL queries (a full graph, thousands of facts) on its own
 * read connection and serialises the answer here, so the server's thread stays free for every other
 * request (issue 20: no request holds /api/health). The schema and resolvers are the server's own; the
 * document was parsed, validated, priced and authorised on the server before it came here. WAL lets this
 * connection read while the server's writes.
 */
import { execute, parse, type DocumentNode } from 'graphql';
import { createSchema } from '../../http/graphql/schema.js';
import { formatError } from '../../http/graphql/errors.js';
import { MemoryService } from '../../memory/service.js';
import { poolWorker } from '../runtime/worker.js';
import type { ReadJob } from './contract.js';

const schema = createSchema();
let open: { path: string; svc: MemoryService } | null = null;
/** The job's clock: the service reads time through it. */
let now = Date.now();
const documents = new Map<string, DocumentNode>();
const DOCUMENTS_MAX = 200;

function serviceFor(job: ReadJob): MemoryService {
  if (open?.path === job.config.dbPath) return open.svc;
  void open?.svc.close();
  // The vault is never read here: an empty environment keeps any key source out of this thread.
  const svc = MemoryService.open({ config: job.config, env: {}, now: () => now });
  open = { path: job.config.dbPath, svc };
  return svc;
}

function documentFor(query: string): DocumentNode {
  let d = documents.get(query);
  if (!d) {
    d = parse(query);
    if (documents.size >= DOCUMENTS_MAX) documents.delete(documents.keys().next().value as string);
    documents.set(query, d);
  }
  return d;
}

export default poolWorker({
  query: async (job: ReadJob) => {
    now = job.now;
    const svc = serviceFor(job);
    const result = await execute({
      schema,
      document: documentFor(job.query),
      operationName: job.operationName ?? undefined,
      variableValues: job.variables ?? undefined,
      contextValue: { svc, caller: job.caller, authorized: false, lastEventId: null, searchMode: job.searchMode },
    });
    return JSON.stringify(result.errors ? { ...result, errors: result.errors.map((e) => formatError(e)) } : result);
  },
});
