/**
 * The loaded plugin inside its child process: `init` imports the module and runs its init(context) once;
 * hooks, endpoints and commands then run against the same object, so whatever the plugin keeps lives on.
 * When the host replaces a hung or dead process, the new one starts empty and the host calls `init` again.
 *
 * Answers must be plain data: each is structured-cloned here, so a function or a class instance in a
 * plugin's answer fails this call (reported as a wrong shape), never the process.
 */
import { pathToFileURL } from 'node:url';
import { MemoryError } from '../../core/errors.js';
import { HOOK_NAMES, type HookName } from '../../memory/plugin-hooks.js';
import type { HybridMemPlugin } from '../../plugins/types.js';
import { buildContext, type Registrations } from './context.js';
import type { PluginChildApi, PluginFacadeApi, PluginInitResult, PluginSpec } from './contract.js';

interface Loaded {
  readonly plugin: HybridMemPlugin;
  readonly reg: Registrations;
  readonly result: PluginInitResult;
}

const METADATA = ['id', 'name', 'version', 'description', 'author'] as const;

function checkShape(value: unknown, spec: PluginSpec): HybridMemPlugin {
  const bad = (what: string): MemoryError => new MemoryError('MEM_ERR_PLUGIN_MANIFEST', `${spec.entry}: the default export is not a plugin: ${what}`);
  if (typeof value !== 'object' || value === null) throw bad(`expected an object, received ${value === null ? 'null' : typeof value}`);
  const o = value as Record<string, unknown>;
  for (const k of METADATA) if (typeof o[k] !== 'string') throw bad(`expected ${k} to be a string, received ${typeof o[k]}`);
  if (typeof o.init !== 'function') throw bad('expected an init(context) function');
  for (const h of HOOK_NAMES) if (o[h] !== undefined && typeof o[h] !== 'function') throw bad(`expected ${h} to be a function, received ${typeof o[h]}`);
  const caps = o.capabilities;
  if (caps !== undefined && (typeof caps !== 'object' || caps === null || Object.values(caps).some((v) => typeof v !== 'boolean'))) throw bad('expected capabilities to be an object of booleans');
  if (o.id !== spec.id) throw new MemoryError('MEM_ERR_PLUGIN_MANIFEST', `${spec.entry}: the plugin says its id is ${JSON.stringify(o.id)} but its manifest says ${JSON.stringify(spec.id)}`);
  return value as HybridMemPlugin;
}

/** A plugin's answer as plain data (a function or class instance in it is the plugin's wrong shape). */
function plain(value: unknown, what: string): unknown {
  try {
    return value === undefined ? undefined : structuredClone(value);
  } catch (err) {
    throw new MemoryError('MEM_ERR_INVALID_INPUT', `${what} answered with something that is not plain data (${(err as Error).message})`);
  }
}

/** The child's methods over one facade; `init` loads the plugin once (a second init answers the first's result). */
export function pluginRunner(facade: PluginFacadeApi): PluginChildApi {
  let loaded: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;

  async function load(spec: PluginSpec): Promise<Loaded> {
    const mod = (await import(pathToFileURL(spec.entry).href)) as { default?: unknown };
    const plugin = checkShape(mod.default, spec);
    const caps = plugin.capabilities ?? {};
    const capabilities = { canModifyFacts: caps.canModifyFacts === true, canInterceptSearch: caps.canInterceptSearch === true };
    await facade.declare(capabilities);
    const reg: Registrations = { endpoints: new Map(), commands: new Map(), open: true };
    try {
      await plugin.init(buildContext(spec, facade, reg));
    } finally {
      reg.open = false;
    }
    const result: PluginInitResult = {
      metadata: { id: plugin.id, name: plugin.name, version: plugin.version, description: plugin.description, author: plugin.author },
      capabilities,
      hooks: HOOK_NAMES.filter((h) => typeof plugin[h] === 'function'),
      endpoints: [...reg.endpoints.keys()],
      commands: [...reg.commands.keys()],
    };
    return { plugin, reg, result };
  }

  const mustBeLoaded = (): Loaded => {
    if (!loaded) throw new MemoryError('MEM_ERR_INTERNAL', 'plugin process: not initialised');
    return loaded;
  };

  return {
    init: async (spec: PluginSpec) => {
      if (loaded) return loaded.result;
      loading ??= load(spec);
      try {
        loaded = await loading;
      } finally {
        loading = null;
      }
      return loaded.result;
    },
    hook: async (name: HookName, args: readonly unknown[]) => {
      const { plugin } = mustBeLoaded();
      const fn = plugin[name] as ((...a: readonly unknown[]) => unknown) | undefined;
      if (typeof fn !== 'function') throw new MemoryError('MEM_ERR_INTERNAL', `plugin has no ${name} hook`);
      return plain(await fn.apply(plugin, [...args]), name);
    },
    endpoint: async (path: string, request: unknown) => {
      const handler = mustBeLoaded().reg.endpoints.get(path);
      if (!handler) throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `no endpoint ${path}`);
      return plain(await handler(request as Parameters<typeof handler>[0]), `endpoint ${path}`);
    },
    command: async (name: string, args: readonly string[]) => {
      const handler = mustBeLoaded().reg.commands.get(name);
      if (!handler) throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `no command ${name}`);
      return plain(await handler([...args]), `command ${name}`);
    },
  };
}
