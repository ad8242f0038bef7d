/**
 * The plugin API, for plugin authors (exported from the package: `import type { HybridMemPlugin } from
 * 'hybrid-mem'`). A plugin is an ES module whose default export is a HybridMemPlugin. It runs in a child
 * process of its own, under Node's permission model: `init` runs once there, state kept in the module or
 * the plugin object lasts as long as the process, and every hook is called with plain (structured-clonable)
 * data and must answer with plain data. docs/plugins.md describes the hooks, the veto, the policies, the capabilities and the sandbox.
 */
import type { FactId } from '../core/ids.js';
import type { Category, Fact, Link } from '../core/types.js';
import type { MaintenanceReport } from '../memory/maintenance.js';
import type { FactDraft, SearchHit, SearchInfo, SearchQuery, StoreInfo, DeleteInfo, PluginHttpRequest } from '../memory/plugin-hooks.js';
import type { StoreResult } from '../memory/write.js';
import type { EditInput, LinkInput, RecallInput, StoreInput } from '../memory/inputs.js';
import type { VectorMatch } from '../memory/vector-search.js';

export { HOOK_NAMES, type HookName, type FactDraft, type StoreInfo, type DeleteInfo, type SearchQuery, type SearchInfo, type SearchHit } from '../memory/plugin-hooks.js';

/** A value or a promise of it: every hook may be sync or async. */
export type Awaitable<T> = T | Promise<T>;

export const CAPABILITIES = ['canModifyFacts', 'canInterceptSearch'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * What the plugin's sandboxed process may do beyond its default (read its own folder, nothing else):
 * `fs` read/write of its folder and the paths the manifest lists (never the data dir), `network`
 * connections, servers and DNS. Granted by the manifest alone: the process starts before plugin code runs.
 */
export const SANDBOX_CAPABILITIES = ['fs', 'network'] as const;
export type SandboxCapability = (typeof SANDBOX_CAPABILITIES)[number];

/**
 * canModifyFacts: a beforeFactStore may return a changed fact, and context.service may store, edit,
 * delete, pin and link. canInterceptSearch: beforeSearch may change the query, afterSearch the results.
 * A capability holds only when both the manifest and the plugin object declare it.
 */
export type PluginCapabilities = Readonly<Partial<Record<Capability | SandboxCapability, boolean>>>;

/** fail-open (default): a failing hook is reported and skipped. fail-closed: the operation is refused. */
export const PLUGIN_POLICIES = ['fail-open', 'fail-closed'] as const;
export type PluginPolicy = (typeof PLUGIN_POLICIES)[number];

/** The explicit refusal a before-hook returns (beforeFactStore, beforeFactDelete). `false` also refuses. */
export interface Veto {
  readonly veto: true;
  /** Shown to the user in the MEM_ERR_PLUGIN_VETO message. */
  readonly reason?: string;
}

export interface PluginMetadata {
  /** Must equal the manifest's `hybridMem.id`. */
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly author: string;
}

export interface PluginLogger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  /** Shown only with HYBRID_MEM_DEBUG=1. */
  debug(...args: unknown[]): void;
}

/**
 * The memory service as a plugin reaches it (every call crosses to the main thread and is async). It acts
 * as the operator. Reads are always allowed; writes need canModifyFacts (MEM_ERR_PLUGIN_CAPABILITY
 * otherwise). Writes made here run no plugin hooks (so a hook can write without re-entering itself) and
 * are recorded with source 'plugin'.
 */
export interface PluginService {
  getFact(id: string): Promise<Fact>;
  history(id: string): Promise<Fact[]>;
  listFacts(filter?: { readonly category?: Category; readonly entity?: string; readonly tag?: string; readonly limit?: number }): Promise<Fact[]>;
  listLinks(options?: { readonly factId?: string; readonly limit?: number }): Promise<Link[]>;
  /** Hybrid search, not logged as a recall, without the plugins' search hooks. */
  search(input: RecallInput): Promise<{ readonly results: readonly SearchHit[]; readonly mode: 'hybrid' | 'fulltext' }>;
  stats(): Promise<{ readonly totalFacts: number; readonly links: number; readonly openConflicts: number }>;
  memoryStore(input: StoreInput): Promise<StoreResult>;
  editFact(input: EditInput): Promise<Fact>;
  deleteFact(id: string): Promise<Fact>;
  pin(id: string): Promise<Fact>;
  unpin(id: string): Promise<Fact>;
  memoryLink(input: LinkInput): Promise<{ readonly link: Link; readonly created: boolean }>;
}

/** Present in the context when vector search is enabled (embedding.enabled). */
export interface PluginVectorDb {
  /** Facts nearest in meaning (MEM_ERR_SEMANTIC_UNAVAILABLE while the semantic layer is not running). */
  search(query: string, options?: { readonly limit?: number }): Promise<VectorMatch[]>;
}

/** A request to a plugin endpoint (`/api/plugins/<id><path>` on the dashboard server). */
export type EndpointRequest = PluginHttpRequest;

/** A plugin endpoint's answer: `json` is sent as application/json, `body` as text/plain unless headers say otherwise. */
export interface EndpointResponse {
  /** Default 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly json?: unknown;
}

export type EndpointHandler = (request: EndpointRequest) => Awaitable<EndpointResponse>;

/** What a command prints: a string, or an object with its output, exit code and a --json value. */
export type CommandResult = string | void | { readonly output?: string; readonly exitCode?: number; readonly json?: unknown };

export type CommandHandler = (args: readonly string[]) => Awaitable<CommandResult>;

export interface PluginContext {
  readonly service: PluginService;
  readonly vectorDb?: PluginVectorDb;
  /** The plugin's config: the manifest's `hybridMem.config` defaults, overlaid by `hybrid-mem plugin config <id>`. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly logger: PluginLogger;
  /** Deliver an event to subscribers (GraphQL memoryActivity kind PLUGIN). `data` must be JSON, at most 64 KiB. */
  emit(event: string, data?: unknown): Promise<void>;
  /** Serve `path` at `/api/plugins/<id><path>` on the dashboard server. Only during init. */
  registerEndpoint(path: string, handler: EndpointHandler): void;
  /** Add `hybrid-mem plugin run <id> <name> [-- args...]`. Only during init. */
  registerCommand(name: string, handler: CommandHandler): void;
}

/** The default export of a plugin module. */
export interface HybridMemPlugin extends PluginMetadata {
  readonly capabilities?: PluginCapabilities;
  /** Called once when the plugin's process starts (again after a hung or dead process was replaced). */
  init(context: PluginContext): Awaitable<void>;
  /** Return the fact (changed or not) to store it, `false` or a Veto to refuse it; nothing means unchanged. */
  beforeFactStore?(fact: FactDraft, info: StoreInfo): Awaitable<FactDraft | Veto | false | void>;
  afterFactStore?(fact: Fact, info: StoreInfo): Awaitable<void>;
  /** `false` or a Veto refuses the delete; `true` or nothing lets it go on. */
  beforeFactDelete?(factId: FactId, info: DeleteInfo): Awaitable<boolean | Veto | void>;
  afterFactDelete?(factId: FactId, info: DeleteInfo): Awaitable<void>;
  /** Return the query (an object, or just its text) to change it; nothing means unchanged. */
  beforeSearch?(query: SearchQuery, info: SearchInfo): Awaitable<SearchQuery | string | void>;
  /** Return the results to keep (a subset of the hits given, in any order); nothing means unchanged. */
  afterSearch?(results: SearchHit[], info: SearchInfo & { readonly query: SearchQuery }): Awaitable<SearchHit[] | void>;
  onMaintenance?(info: { readonly report: MaintenanceReport | null }): Awaitable<void>;
  onShutdown?(): Awaitable<void>;
}

