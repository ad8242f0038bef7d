/**
 * The plugin actor's contract (types only). Each plugin runs in a pool of one worker thread: `init`
 * imports the plugin's module and calls its init(context) once; the other calls run a hook, an endpoint
 * handler or a command in that same worker, so the plugin's state lives between calls. The worker reaches
 * the main thread's capability-checked service facade through a MessagePort (comlink) handed over in init.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Envelope } from '../runtime/envelope.js';
import type { HookName } from '../../memory/plugin-hooks.js';

/** What the worker needs to load a plugin: plain data from the manifest and the registry. */
export interface PluginSpec {
  readonly id: string;
  /** The entry module, an absolute path. */
  readonly entry: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** Offer context.vectorDb (vector search is enabled). */
  readonly vectorDb: boolean;
}

export interface PluginInitResult {
  readonly metadata: { readonly id: string; readonly name: string; readonly version: string; readonly description: string; readonly author: string };
  /** What the plugin object declares (the host ANDs it with the manifest). */
  readonly capabilities: { readonly canModifyFacts: boolean; readonly canInterceptSearch: boolean };
  /** The hooks the plugin implements. */
  readonly hooks: readonly HookName[];
  readonly endpoints: readonly string[];
  readonly commands: readonly string[];
}

/** The worker's methods (piscina tasks `{ method, args }`). */
export interface PluginWorkerApi {
  init(spec: PluginSpec, port: MessagePort): PluginInitResult;
  hook(name: HookName, args: readonly unknown[]): unknown;
  endpoint(path: string, request: unknown): unknown;
  command(name: string, args: readonly string[]): unknown;
}

export type LogLevel = 'info' | 'warn' | 'error' | 'debug';

/** The main thread's side, as the worker calls it over comlink. Every answer is an envelope. */
export interface PluginFacadeApi {
  /** What the plugin object declares, sent before its init runs (the facade grants manifest AND declared). */
  declare(capabilities: PluginInitResult['capabilities']): Promise<void>;
  call(method: string, args: readonly unknown[]): Promise<Envelope<unknown>>;
  emit(event: string, data: unknown): Promise<Envelope<void>>;
  log(level: LogLevel, message: string): Promise<void>;
}
