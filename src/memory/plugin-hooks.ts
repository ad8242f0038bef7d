/**
 * The plugin runtime as the memory service sees it (types only; src/plugins implements it). The service
 * calls the before-hooks ahead of a change (they may modify its input or refuse it by throwing a typed
 * error) and the after-hooks once it is committed (they never throw). The data shapes here are what
 * crosses into a plugin's worker: plain, structured-clonable objects.
 */
import type { FactId } from '../core/ids.js';
import type { Caller, Category, DecayClass, Fact, FactSource, RecallWhy, ScopeKind } from '../core/types.js';
import type { MaintenanceReport } from './maintenance.js';

/** The hooks, in the order the spec lists them. */
export const HOOK_NAMES = ['beforeFactStore', 'afterFactStore', 'beforeFactDelete', 'afterFactDelete', 'beforeSearch', 'afterSearch', 'onMaintenance', 'onShutdown'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/**
 * A fact about to be stored: a new fact (memory_store) or the next version of one (an edit). Every field
 * is filled (defaults applied). In an edit, scope, pinned and supersedes describe the fact being edited
 * and cannot be changed by a hook.
 */
export interface FactDraft {
  readonly text: string;
  readonly category: Category;
  readonly entity: string | null;
  readonly tags: readonly string[];
  readonly importance: number;
  readonly confidence: number;
  readonly decayClass: DecayClass;
  readonly expiresAt: number | null;
  readonly pinned: boolean;
  readonly scope: ScopeKind;
  readonly scopeAgentId?: string;
  readonly scopeSessionId?: string;
  /** The current fact this one replaces (an edit, or memory_store with `supersedes`). */
  readonly supersedes?: FactId;
}

/** What a store hook is told besides the fact. */
export interface StoreInfo {
  /** 'store': memory_store (CLI store, GraphQL createFact, agent tool); 'edit': a new version of a fact. */
  readonly operation: 'store' | 'edit';
  readonly source: FactSource;
  readonly caller: Caller;
}

export interface DeleteInfo {
  readonly caller: Caller;
}

/** A search as it is about to run (memory_recall or the dashboard's search). */
export interface SearchQuery {
  readonly query: string;
  readonly limit: number;
  readonly category?: Category;
  readonly includeSuperseded: boolean;
}

export interface SearchInfo {
  /** 'recall': memory_recall (logged, strengthens what it finds); 'search': a look-up (dashboard search box). */
  readonly kind: 'recall' | 'search';
  readonly caller: Caller;
}

/** One search result. */
export interface SearchHit {
  readonly fact: Fact;
  readonly score: number;
  readonly why: RecallWhy;
}

/** A request to a plugin-registered endpoint, as the plugin's handler receives it. */
export interface PluginHttpRequest {
  readonly method: string;
  /** The path below the plugin's prefix, starting with '/'. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** A fixed set of request headers (never Authorization or Cookie), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text, or null without one. */
  readonly body: string | null;
  /** Who is asking (the X-Hybrid-Mem-* headers; the operator without them). */
  readonly caller: Caller;
}

/** A plugin endpoint's answer, checked and ready to send. */
export interface PluginHttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a plugin command printed, and its exit code. */
export interface PluginCommandOutput {
  readonly output: string;
  readonly json: unknown;
  readonly exitCode: number;
}

/** What the service calls. Implemented by src/plugins/host.ts. */
export interface ServicePlugins {
  /** True when some loaded plugin implements `hook` (or a fail-closed plugin could not load): lets callers skip work. */
  has(hook: HookName): boolean;
  /** Runs every beforeFactStore in turn; returns the draft to store. Throws MEM_ERR_PLUGIN_VETO or MEM_ERR_PLUGIN_FAILED. */
  beforeFactStore(draft: FactDraft, info: StoreInfo): Promise<FactDraft>;
  afterFactStore(fact: Fact, info: StoreInfo): Promise<void>;
  /** Throws MEM_ERR_PLUGIN_VETO (a plugin said no) or MEM_ERR_PLUGIN_FAILED. */
  beforeFactDelete(id: FactId, info: DeleteInfo): Promise<void>;
  afterFactDelete(id: FactId, info: DeleteInfo): Promise<void>;
  beforeSearch(query: SearchQuery, info: SearchInfo): Promise<SearchQuery>;
  afterSearch(hits: readonly SearchHit[], query: SearchQuery, info: SearchInfo): Promise<readonly SearchHit[]>;
  onMaintenance(report: MaintenanceReport | null): Promise<void>;
  /** A plugin-registered endpoint's answer, or null when that plugin registered no such path. */
  endpoint(pluginId: string, request: PluginHttpRequest): Promise<PluginHttpResponse | null>;
  /** Run a plugin-registered command. Throws MEM_ERR_PLUGIN_NOT_FOUND for an unknown plugin or command. */
  command(pluginId: string, name: string, args: readonly string[]): Promise<PluginCommandOutput>;
  /** Each plugin's id and whether it loaded. */
  status(): readonly { readonly id: string; readonly state: 'loaded' | 'broken'; readonly error: string | null }[];
  /** Runs onShutdown, then stops every plugin worker. Idempotent. */
  close(): Promise<void>;
}
