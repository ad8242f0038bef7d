/**
 * The plugin actor's contract (types only). Each plugin runs in a child process of its own under Node's
 * permission model (see sandbox.ts): `init` imports the plugin's module and calls its init(context) once;
 * the other calls run a hook, an endpoint handler or a command in that same process, so the plugin's state
 * lives between calls. The child reaches the main process's capability-checked service facade with
 * requests over the IPC channel (protocol below); every answer is an envelope, so typed errors survive.
 */
import type { Envelope } from '../runtime/envelope.js';
import type { HookName } from '../../memory/plugin-hooks.js';

/** What the child needs to load a plugin: plain data from the manifest and the registry. */
export interface PluginSpec {
  readonly id: string;
  /** The entry module, an absolute path. */
  readonly entry: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** Offer context.vectorDb (vector search is enabled). */
  readonly vectorDb: boolean;
}

/**
 * The sandbox a plugin's process starts in, decided before any plugin code runs. Paths are absolute and
 * real (symlinks resolved); each grants the folder and everything below it.
 */
export interface SandboxSpec {
  /** Read access: the plugin's folder (and declared `fs` paths), never the data dir. */
  readonly read: readonly string[];
  /** Write access: empty unless the `fs` capability is granted. */
  readonly write: readonly string[];
  readonly network: boolean;
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

/** The child's methods. */
export interface PluginChildApi {
  init(spec: PluginSpec): Promise<PluginInitResult>;
  hook(name: HookName, args: readonly unknown[]): Promise<unknown>;
  endpoint(path: string, request: unknown): Promise<unknown>;
  command(name: string, args: readonly string[]): Promise<unknown>;
}

export type ChildMethod = keyof PluginChildApi;
export const CHILD_METHODS = ['init', 'hook', 'endpoint', 'command'] as const satisfies readonly ChildMethod[];

export type LogLevel = 'info' | 'warn' | 'error' | 'debug';

/** The main process's side, as the child calls it. Every answer is an envelope (log answers nothing useful). */
export interface PluginFacadeApi {
  /** What the plugin object declares, sent before its init runs (the facade grants manifest AND declared). */
  declare(capabilities: PluginInitResult['capabilities']): Promise<void>;
  call(method: string, args: readonly unknown[]): Promise<Envelope<unknown>>;
  emit(event: string, data: unknown): Promise<Envelope<void>>;
  log(level: LogLevel, message: string): Promise<void>;
}

export type FacadeMethod = keyof PluginFacadeApi;
export const FACADE_METHODS = ['declare', 'call', 'emit', 'log'] as const satisfies readonly FacadeMethod[];

/**
 * The IPC protocol (`serialization: 'advanced'`: structured clone, as postMessage). Parent to child:
 * `call` (run a child method) and `answer` (the facade's answer to a child's request). Child to parent:
 * `reply` (a call's outcome), `request` (a facade call) and `fatal` (an uncaught error, just before the
 * child exits). Ids are per direction. What the child sends is untrusted: the parent checks each message.
 */
export type ToChild =
  | { readonly kind: 'call'; readonly id: number; readonly method: ChildMethod; readonly args: readonly unknown[] }
  | { readonly kind: 'answer'; readonly id: number; readonly envelope: Envelope<unknown> };

export type FromChild =
  | { readonly kind: 'reply'; readonly id: number; readonly envelope: Envelope<unknown> }
  | { readonly kind: 'request'; readonly id: number; readonly method: FacadeMethod; readonly args: readonly unknown[] }
  | { readonly kind: 'fatal'; readonly error: { readonly code: string; readonly message: string } };
