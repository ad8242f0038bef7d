/**
 * The plugin host: the enabled plugins of one process, each in its own sandboxed child process, behind the interface the
 * memory service calls (ServicePlugins). Before-hooks run one plugin after another in registry order, each
 * seeing the previous one's output; a failure (throw, hang, wrong shape, a change without the capability)
 * is reported with the plugin id and handled by that plugin's policy:
 *   fail-open (default)  the plugin is skipped: the operation goes on as if it had no such hook;
 *   fail-closed          the operation is refused with MEM_ERR_PLUGIN_FAILED; nothing is changed.
 * An explicit veto (false, or { veto: true, reason }) refuses with MEM_ERR_PLUGIN_VETO under either policy.
 * After-hooks, onMaintenance and onShutdown failures are reported only: the change is already committed.
 * A fail-closed plugin that cannot load refuses every operation that runs before-hooks.
 */
import type { LogLevel } from '../actors/plugins/contract.js';
import { MemoryError } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import type { Fact } from '../core/types.js';
import type { MaintenanceReport } from '../memory/maintenance.js';
import type {
  DeleteInfo,
  FactDraft,
  HookName,
  PluginCommandOutput,
  PluginHttpRequest,
  PluginHttpResponse,
  SearchHit,
  SearchInfo,
  SearchQuery,
  ServicePlugins,
  StoreInfo,
} from '../memory/plugin-hooks.js';
import type { MemoryService } from '../memory/service.js';
import { LoadedPlugin } from './loaded.js';
import type { PluginManifest } from './manifest.js';
import { readCommandAnswer, readDeleteAnswer, readEndpointAnswer, readResultsAnswer, readSearchAnswer, readStoreAnswer, type Verdict } from './results.js';

export interface HostPlugin {
  readonly manifest: PluginManifest;
  /** The registry's config, overlaid on the manifest's defaults. */
  readonly config: Readonly<Record<string, unknown>>;
}

export interface PluginHostOptions {
  readonly svc: MemoryService;
  readonly plugins: readonly HostPlugin[];
  /** One line per report (a failure, a plugin's own log line). */
  readonly log?: (line: string) => void;
  /** The least level of plugins' own log lines shown: 'warn' (one-shot CLI commands), 'info' (default), 'debug'. Failures are always reported. */
  readonly logLevel?: 'warn' | 'info' | 'debug';
}

/** A reported plugin failure. */
export interface PluginFailure {
  readonly pluginId: string;
  readonly hook: string;
  readonly code: string;
  readonly message: string;
  readonly policy: 'fail-open' | 'fail-closed';
  readonly at: number;
}

export interface PluginStatus {
  readonly id: string;
  readonly state: 'loaded' | 'broken';
  readonly error: string | null;
  readonly policy: 'fail-open' | 'fail-closed';
  readonly capabilities: { readonly canModifyFacts: boolean; readonly canInterceptSearch: boolean };
  readonly hooks: readonly HookName[];
  readonly endpoints: readonly string[];
  readonly commands: readonly string[];
  readonly restarts: number;
}

const BEFORE: ReadonlySet<HookName> = new Set(['beforeFactStore', 'beforeFactDelete', 'beforeSearch', 'afterSearch']);
const MAX_FAILURES = 200;

export class PluginHost implements ServicePlugins {
  private readonly plugins: readonly LoadedPlugin[];
  private readonly log: (line: string) => void;
  private readonly failureLog: PluginFailure[] = [];
  private closing: Promise<void> | null = null;

  private constructor(private readonly o: PluginHostOptions) {
    this.log = o.log ?? (() => undefined);
    this.plugins = o.plugins.map(
      (p) =>
        new LoadedPlugin({
          svc: o.svc,
          manifest: p.manifest,
          config: p.config,
          vectorDb: o.svc.config.embedding.enabled,
          log: (level, message) => this.pluginLog(p.manifest.id, level, message),
        }),
    );
  }

  /** Start every plugin's process and load it (in parallel); a plugin that cannot load is reported, not fatal. */
  static async start(o: PluginHostOptions): Promise<PluginHost> {
    const host = new PluginHost(o);
    await Promise.all(
      host.plugins.map(async (p) => {
        const r = await p.load();
        if (!r.ok) host.report(p, 'init', r.error, p.policy === 'fail-closed' ? 'operations it would hook are refused' : 'it is skipped');
      }),
    );
    return host;
  }

  /** The failures reported so far (newest last, at most 200). */
  get failures(): readonly PluginFailure[] {
    return this.failureLog;
  }

  status(): PluginStatus[] {
    return this.plugins.map((p) => ({
      id: p.id,
      state: p.loaded ? 'loaded' : 'broken',
      error: p.broken?.message ?? null,
      policy: p.policy,
      capabilities: p.capabilities,
      hooks: p.loaded?.hooks ?? [],
      endpoints: p.loaded?.endpoints ?? [],
      commands: p.loaded?.commands ?? [],
      restarts: p.restarts,
    }));
  }

  has(hook: HookName): boolean {
    return this.plugins.some((p) => p.implements(hook) || (BEFORE.has(hook) && p.broken !== null && p.policy === 'fail-closed'));
  }

  private pluginLog(id: string, level: LogLevel, message: string): void {
    const least = this.o.logLevel ?? 'info';
    if (level === 'debug' && least !== 'debug') return;
    if (level === 'info' && least === 'warn') return;
    this.log(`plugin ${id}: ${level === 'info' ? '' : `${level}: `}${message}`);
  }

  private report(p: LoadedPlugin, hook: string, error: MemoryError, then: string): void {
    this.failureLog.push({ pluginId: p.id, hook, code: error.code, message: error.message, policy: p.policy, at: Date.now() });
    if (this.failureLog.length > MAX_FAILURES) this.failureLog.shift();
    this.log(`plugin ${p.id}: ${hook} failed (${error.code}: ${error.message}); ${p.policy}: ${then}`);
  }

  /**
   * Run a before-hook of each plugin that has it, threading `value` through. `read` interprets an answer
   * (throws on a wrong shape or a change without the capability).
   */
  private async chain<T>(hook: HookName, operation: string, value: T, args: (v: T) => readonly unknown[], read: (answer: unknown, v: T, p: LoadedPlugin) => Verdict<T>): Promise<T> {
    let current = value;
    for (const p of this.plugins) {
      if (p.broken) {
        if (p.policy === 'fail-closed') throw this.refusal(p, hook, operation, p.broken);
        continue;
      }
      if (!p.implements(hook)) continue;
      const r = await p.run<unknown>('hook', [hook, args(current)]);
      let verdict: Verdict<T>;
      try {
        if (!r.ok) throw r.error;
        verdict = read(r.value, current, p);
      } catch (err) {
        const error = err instanceof MemoryError ? err : new MemoryError('MEM_ERR_INTERNAL', String(err));
        if (p.policy === 'fail-closed') {
          this.report(p, hook, error, `the ${operation} was refused`);
          throw this.refusal(p, hook, operation, error);
        }
        this.report(p, hook, error, `the ${operation} went on without it`);
        continue;
      }
      if ('veto' in verdict) {
        const why = verdict.veto ? `: ${verdict.veto}` : '';
        throw new MemoryError('MEM_ERR_PLUGIN_VETO', `plugin ${p.id} refused the ${operation}${why}`, { details: { pluginId: p.id, hook, reason: verdict.veto } });
      }
      current = verdict.go;
    }
    return current;
  }

  private refusal(p: LoadedPlugin, hook: string, operation: string, cause: MemoryError): MemoryError {
    return new MemoryError('MEM_ERR_PLUGIN_FAILED', `plugin ${p.id} (fail-closed): ${hook} failed, so the ${operation} was refused (${cause.code}: ${cause.message})`, {
      details: { pluginId: p.id, hook, cause: cause.code },
      cause,
    });
  }

  /** Run a hook whose answer does not matter in every plugin that has it, in parallel; failures are reported. */
  private async notify(hook: HookName, args: readonly unknown[]): Promise<void> {
    await Promise.all(
      this.plugins
        .filter((p) => p.implements(hook))
        .map(async (p) => {
          const r = await p.run<unknown>('hook', [hook, args]);
          if (!r.ok) this.report(p, hook, r.error, 'reported only (nothing to undo)');
        }),
    );
  }

  beforeFactStore(draft: FactDraft, info: StoreInfo): Promise<FactDraft> {
    return this.chain('beforeFactStore', info.operation === 'edit' ? 'edit' : 'store', draft, (d) => [d, info], (a, d, p) => readStoreAnswer(a, d, info, p.capabilities, p.id));
  }

  afterFactStore(fact: Fact, info: StoreInfo): Promise<void> {
    return this.notify('afterFactStore', [fact, info]);
  }

  async beforeFactDelete(id: FactId, info: DeleteInfo): Promise<void> {
    await this.chain('beforeFactDelete', 'delete', true, () => [id, info], (a) => readDeleteAnswer(a));
  }

  afterFactDelete(id: FactId, info: DeleteInfo): Promise<void> {
    return this.notify('afterFactDelete', [id, info]);
  }

  beforeSearch(query: SearchQuery, info: SearchInfo): Promise<SearchQuery> {
    return this.chain('beforeSearch', info.kind, query, (q) => [q, info], (a, q, p) => ({ go: readSearchAnswer(a, q, p.capabilities, p.id) }));
  }

  afterSearch(hits: readonly SearchHit[], query: SearchQuery, info: SearchInfo): Promise<readonly SearchHit[]> {
    return this.chain('afterSearch', info.kind, hits, (h) => [h, { ...info, query }], (a, h, p) => ({ go: readResultsAnswer(a, h, p.capabilities, p.id) }));
  }

  onMaintenance(report: MaintenanceReport | null): Promise<void> {
    return this.notify('onMaintenance', [{ report }]);
  }

  async endpoint(pluginId: string, request: PluginHttpRequest): Promise<PluginHttpResponse | null> {
    const p = this.plugins.find((x) => x.id === pluginId);
    if (!p?.loaded?.endpoints.includes(request.path)) return null;
    const r = await p.run<unknown>('endpoint', [request.path, request]);
    try {
      if (!r.ok) throw r.error;
      return readEndpointAnswer(r.value);
    } catch (err) {
      const error = err instanceof MemoryError ? err : new MemoryError('MEM_ERR_INTERNAL', String(err));
      this.report(p, `endpoint ${request.path}`, error, 'answered 500');
      throw new MemoryError('MEM_ERR_PLUGIN_FAILED', `plugin ${p.id}: endpoint ${request.path} failed (${error.code}: ${error.message})`, { details: { pluginId: p.id, cause: error.code } });
    }
  }

  async command(pluginId: string, name: string, args: readonly string[]): Promise<PluginCommandOutput> {
    const p = this.plugins.find((x) => x.id === pluginId);
    if (!p) throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `plugin ${pluginId} is not loaded`);
    const loaded = await p.load();
    if (!loaded.ok) throw loaded.error;
    if (!loaded.value.commands.includes(name)) {
      const known = loaded.value.commands;
      throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `plugin ${pluginId} has no command ${JSON.stringify(name)} (${known.length ? `its commands: ${known.join(', ')}` : 'it registers none'})`);
    }
    const r = await p.run<unknown>('command', [name, args]);
    try {
      if (!r.ok) throw r.error;
      return readCommandAnswer(r.value);
    } catch (err) {
      const error = err instanceof MemoryError ? err : new MemoryError('MEM_ERR_INTERNAL', String(err));
      throw new MemoryError('MEM_ERR_PLUGIN_FAILED', `plugin ${p.id}: command ${name} failed (${error.code}: ${error.message})`, { details: { pluginId: p.id, cause: error.code }, cause: error });
    }
  }

  /** onShutdown in every plugin that has it (each within its hook budget), then the processes stop. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.notify('onShutdown', []);
      await Promise.all(this.plugins.map((p) => p.close()));
    })());
  }
}
