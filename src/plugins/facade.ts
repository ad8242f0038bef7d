/**
 * The memory service as a plugin's process reaches it: a capability-checked facade in the main process,
 * answering the child's requests over its IPC channel (src/actors/plugins/client.ts). It acts as the operator. Reads are always allowed; writes need
 * canModifyFacts (granted when both the manifest and the plugin object declare it). Writes go to the plain
 * operations (no plugin hooks: a hook that writes cannot re-enter its own process) with source 'plugin';
 * searches skip the plugins' search hooks for the same reason. Arguments are checked here (the service
 * validates them again): what arrives from a plugin is untrusted input.
 */
import { z } from 'zod';
import type { LogLevel, PluginFacadeApi } from '../actors/plugins/contract.js';
import { envelope } from '../actors/runtime/envelope.js';
import { MemoryError, invalidInput } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import { CATEGORIES, OPERATOR } from '../core/types.js';
import { parse, type EditInput, type LinkInput, type RecallInput, type StoreInput } from '../memory/inputs.js';
import type { MemoryService } from '../memory/service.js';
import { MAX_PAGE } from '../store/facts.js';
import type { Capability } from './types.js';

export interface FacadeOptions {
  readonly svc: MemoryService;
  readonly pluginId: string;
  /** Current effective capabilities (read at every call). */
  readonly capabilities: () => Readonly<Record<Capability, boolean>>;
  /** The plugin object's declaration, sent by its process before init. */
  readonly declare: (declared: Readonly<Record<Capability, boolean>>) => void;
  readonly log: (level: LogLevel, message: string) => void;
}

const listFactsSchema = z
  .strictObject({ category: z.enum(CATEGORIES).optional(), entity: z.string().max(200).optional(), tag: z.string().max(64).optional(), limit: z.int().min(1).max(MAX_PAGE).optional() })
  .default({});
const listLinksSchema = z.strictObject({ factId: z.string().max(200).optional(), limit: z.int().min(1).max(MAX_PAGE).optional() }).default({});
const declareSchema = z.strictObject({ canModifyFacts: z.boolean(), canInterceptSearch: z.boolean() });

type Method = (args: readonly unknown[]) => unknown;

function methods(o: FacadeOptions): Readonly<Record<string, { readonly write: boolean; readonly run: Method }>> {
  const svc = o.svc;
  const str = (v: unknown, what: string): string => {
    if (typeof v !== 'string') throw invalidInput(what, 'a string', v);
    return v;
  };
  const read = (run: Method) => ({ write: false, run });
  const write = (run: Method) => ({ write: true, run });
  return {
    getFact: read(([id]) => svc.getFact(str(id, 'getFact.id'))),
    history: read(([id]) => svc.history(str(id, 'history.id'))),
    listFacts: read(([filter]) => svc.listFacts(parse(listFactsSchema, filter, 'listFacts'))),
    listLinks: read(([options]) => {
      const p = parse(listLinksSchema, options, 'listLinks');
      return svc.listLinks(OPERATOR, { ...(p.factId !== undefined ? { factId: p.factId as FactId } : {}), ...(p.limit !== undefined ? { limit: p.limit } : {}) });
    }),
    search: read(async ([input]) => {
      const r = await svc.search(input as RecallInput, OPERATOR, { plugins: false });
      return { results: r.results, mode: r.mode };
    }),
    stats: read(() => svc.stats()),
    vectorSearch: read(([query, limit]) => svc.vectorSearch(str(query, 'vectorDb.search.query'), OPERATOR, typeof limit === 'number' ? limit : 10)),
    memoryStore: write(([input]) => svc.memoryStore(input as StoreInput, OPERATOR, 'plugin')),
    editFact: write(([input]) => svc.editFact(input as EditInput, OPERATOR, 'plugin')),
    deleteFact: write(([id]) => svc.deleteFact(str(id, 'deleteFact.id'))),
    pin: write(([id]) => svc.pin(str(id, 'pin.id'))),
    unpin: write(([id]) => svc.unpin(str(id, 'unpin.id'))),
    memoryLink: write(([input]) => svc.memoryLink(input as LinkInput)),
  };
}

/** The facade for plugin `o.pluginId`, for one of its processes (a new process gets a new facade). */
export function createFacade(o: FacadeOptions): PluginFacadeApi {
  const table = methods(o);
  let declared = false;
  const api: PluginFacadeApi = {
    declare: async (caps) => {
      // Once per process: the declaration comes from the loader before the plugin's own code gets the context.
      if (declared) return;
      declared = true;
      const r = declareSchema.safeParse(caps);
      o.declare(r.success ? r.data : { canModifyFacts: false, canInterceptSearch: false });
    },
    call: (method, args) =>
      envelope(() => {
        const m = typeof method === 'string' && Object.hasOwn(table, method) ? table[method] : undefined;
        if (!m) throw invalidInput('context.service', `one of ${Object.keys(table).join(', ')}`, method);
        if (!Array.isArray(args)) throw invalidInput(`context.service.${method}`, 'an argument list', args);
        if (m.write && !o.capabilities().canModifyFacts) {
          throw new MemoryError('MEM_ERR_PLUGIN_CAPABILITY', `plugin ${o.pluginId}: context.service.${method} changes facts and needs the canModifyFacts capability (in the manifest and the plugin object)`);
        }
        return m.run(args);
      }),
    emit: (event, data) => envelope(() => o.svc.emitPluginEvent(o.pluginId, event, data)),
    log: async (level, message) => o.log(level, typeof message === 'string' ? message.slice(0, 4000) : String(message)),
  };
  return api;
}
