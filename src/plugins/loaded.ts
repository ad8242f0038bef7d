/**
 * One plugin at run time: its manifest, its sandboxed process (PluginClient), its effective capabilities and its
 * state. `run` calls into the process and turns every outcome into data (never throws): the host decides
 * with the plugin's policy what a failure means.
 */
import type { LogLevel, PluginInitResult, SandboxSpec } from '../actors/plugins/contract.js';
import { PluginClient } from '../actors/plugins/client.js';
import { MemoryError, toWire } from '../core/errors.js';
import type { HookName } from '../memory/plugin-hooks.js';
import type { MemoryService } from '../memory/service.js';
import { createFacade } from './facade.js';
import type { PluginManifest } from './manifest.js';
import { sandboxFor } from './sandbox.js';
import type { Capability } from './types.js';

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: MemoryError };

export interface LoadedPluginOptions {
  readonly svc: MemoryService;
  readonly manifest: PluginManifest;
  /** The manifest's config overlaid with the registry's. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly vectorDb: boolean;
  readonly log: (level: LogLevel, message: string) => void;
}

const NO_CAPS: Readonly<Record<Capability, boolean>> = Object.freeze({ canModifyFacts: false, canInterceptSearch: false });

export class LoadedPlugin {
  readonly id: string;
  readonly manifest: PluginManifest;
  private readonly client: PluginClient;
  private info: PluginInitResult | null = null;
  private loadError: MemoryError | null = null;
  private caps: Readonly<Record<Capability, boolean>> = NO_CAPS;
  private sandbox: SandboxSpec | null = null;

  constructor(private readonly o: LoadedPluginOptions) {
    this.id = o.manifest.id;
    this.manifest = o.manifest;
    const granted = o.manifest.capabilities;
    this.client = new PluginClient({
      spec: { id: this.id, entry: o.manifest.entry, config: o.config, vectorDb: o.vectorDb },
      sandbox: () => (this.sandbox ??= sandboxFor(o.manifest, o.svc.config.dataDir)),
      cwd: o.manifest.dir,
      initTimeoutMs: o.manifest.timeouts.initMs,
      timeoutMs: o.manifest.timeouts.hookMs,
      openFacade: () => {
        this.caps = NO_CAPS;
        return createFacade({
          svc: o.svc,
          pluginId: this.id,
          capabilities: () => this.caps,
          declare: (d) => {
            this.caps = Object.freeze({ canModifyFacts: granted.canModifyFacts && d.canModifyFacts, canInterceptSearch: granted.canInterceptSearch && d.canInterceptSearch });
          },
          log: o.log,
        });
      },
      onReplaced: (reason) => o.log('warn', `process replaced (${reason}); the plugin is loaded again on its next call`),
    });
  }

  /** Load the plugin (first call) or learn that it cannot load. */
  async load(): Promise<Outcome<PluginInitResult>> {
    if (this.loadError) return { ok: false, error: this.loadError };
    try {
      this.info = await this.client.init();
      return { ok: true, value: this.info };
    } catch (err) {
      const w = toWire(err);
      this.loadError = new MemoryError('MEM_ERR_PLUGIN_FAILED', `plugin ${this.id} could not load: ${w.code}: ${w.message}`, { details: { pluginId: this.id, hook: 'init', cause: w.code } });
      return { ok: false, error: this.loadError };
    }
  }

  get loaded(): PluginInitResult | null {
    return this.loadError ? null : this.info;
  }

  get broken(): MemoryError | null {
    return this.loadError;
  }

  get policy(): PluginManifest['policy'] {
    return this.manifest.policy;
  }

  /** Effective capabilities: the manifest's AND the plugin object's. */
  get capabilities(): Readonly<Record<Capability, boolean>> {
    return this.caps;
  }

  get restarts(): number {
    return this.client.replaced;
  }

  implements(hook: HookName): boolean {
    return this.info?.hooks.includes(hook) === true;
  }

  /** Call a hook, an endpoint or a command with its budget; failures come back as data. */
  async run<T>(method: 'hook' | 'endpoint' | 'command', args: readonly unknown[]): Promise<Outcome<T>> {
    const loaded = await this.load();
    if (!loaded.ok) return loaded;
    const t = this.manifest.timeouts;
    const budget = method === 'hook' ? t.hookMs : method === 'endpoint' ? t.endpointMs : t.commandMs;
    try {
      return { ok: true, value: await this.client.call<T>(method, args, budget) };
    } catch (err) {
      // (A replaced process is loaded again by the next run's load(); if that fails, the plugin is broken.)
      const w = toWire(err);
      return { ok: false, error: err instanceof MemoryError ? err : new MemoryError(w.code, w.message, { cause: err }) };
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
