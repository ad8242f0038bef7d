/**
 * What the plugin runs inside the gateway process: the memory service (with this data dir's enabled
 * hybrid-mem plugins), the auth-failure recall hook, the relevant-memories hook, the semantic layer (started in the background:
 * recall answers from full text until the model is loaded), and, when the gateway starts it, the
 * dashboard server. Imported lazily by the entry, so a metadata-only registration loads none of it.
 */
import type { ResolvedConfig } from '../config/resolve.js';
import { toWire } from '../core/errors.js';
import { startDashboard, type Dashboard } from '../http/server.js';
import { startSemanticInBackground } from '../main.js';
import { MemoryService } from '../memory/service.js';
import { attachInstalledPlugins } from '../plugins/presence.js';
import { AuthRecallHook } from '../recall/hook.js';
import { RelevantRecallHook } from '../recall/relevant.js';

export class GatewayMemory {
  private dashboard: Dashboard | null = null;
  private closed = false;

  private constructor(
    readonly svc: MemoryService,
    readonly hook: AuthRecallHook,
    readonly relevant: RelevantRecallHook,
    private readonly config: ResolvedConfig,
    private readonly log: (line: string) => void,
    private readonly semantic: Promise<void>,
  ) {}

  static async open(config: ResolvedConfig, log: (line: string) => void): Promise<GatewayMemory> {
    const svc = MemoryService.open({ config, env: process.env });
    try {
      await attachInstalledPlugins(svc, { log, logLevel: 'warn' });
    } catch (err) {
      await svc.close();
      throw err;
    }
    const hook = new AuthRecallHook(svc, config, { log });
    hook.warm().catch((err: unknown) => log(`recall worker did not start: ${toWire(err).message}`));
    const semantic = startSemanticInBackground(svc, config, log);
    return new GatewayMemory(svc, hook, new RelevantRecallHook(svc, config, { log }), config, log, semantic);
  }

  /** Start the dashboard (when dashboard.enabled); resolves with its URL, or null when it is off. */
  async startDashboard(): Promise<string | null> {
    if (!this.config.dashboard.enabled || this.closed) return null;
    this.dashboard ??= await startDashboard({ svc: this.svc, config: this.config, log: this.log });
    return this.dashboard.url;
  }

  /** Stop the dashboard, the recall worker, the semantic layer and the store, in that order. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dashboard?.close();
    await this.hook.close();
    await this.semantic;
    await this.svc.close();
  }
}
