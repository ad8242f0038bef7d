/**
 * The context a plugin's init receives, built inside its child process. `service`, `vectorDb`, `emit` and
 * the logger forward to the main process's facade (requests over the IPC channel); errors come back as
 * envelopes and are rebuilt as MemoryError with their code. Endpoints and commands are recorded here
 * and only while init runs: what a plugin serves is fixed once it is loaded.
 */
import { format } from 'node:util';
import { MemoryError } from '../../core/errors.js';
import { COMMAND_NAME_PATTERN, ENDPOINT_PATH_MAX, isEndpointPath } from '../../core/plugin-names.js';
import type { CommandHandler, EndpointHandler, PluginContext, PluginService } from '../../plugins/types.js';
import { unwrap } from '../runtime/envelope.js';
import type { LogLevel, PluginFacadeApi, PluginSpec } from './contract.js';

export interface Registrations {
  readonly endpoints: Map<string, EndpointHandler>;
  readonly commands: Map<string, CommandHandler>;
  /** True while init runs. */
  open: boolean;
}

const SERVICE_METHODS = ['getFact', 'history', 'listFacts', 'listLinks', 'search', 'stats', 'memoryStore', 'editFact', 'deleteFact', 'pin', 'unpin', 'memoryLink'] as const;

/** The context for `spec`'s init: every service call goes through `facade`. */
export function buildContext(spec: PluginSpec, facade: PluginFacadeApi, reg: Registrations): PluginContext {
  const call = async (method: string, args: readonly unknown[]): Promise<never> => unwrap(await facade.call(method, args)) as never;
  const service = Object.fromEntries(SERVICE_METHODS.map((m) => [m, (...args: unknown[]) => call(m, args)])) as unknown as PluginService;
  const log =
    (level: LogLevel) =>
    (...args: unknown[]): void => {
      facade.log(level, format(...args)).catch(() => undefined);
    };
  const registerable = (what: string): void => {
    if (!reg.open) throw new MemoryError('MEM_ERR_INVALID_INPUT', `${what}: register endpoints and commands in init(context) only`);
  };
  const context: PluginContext = {
    service,
    ...(spec.vectorDb ? { vectorDb: { search: (query: string, options: { limit?: number } = {}) => call('vectorSearch', [query, options.limit ?? 10]) } } : {}),
    config: Object.freeze(structuredClone({ ...spec.config })),
    logger: { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') },
    emit: async (event, data) => unwrap(await facade.emit(event, data === undefined ? null : data)),
    registerEndpoint(path, handler) {
      registerable('registerEndpoint');
      if (!isEndpointPath(path)) throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerEndpoint: expected a path like "/status" (letters, digits, . _ ~ -, at most ${ENDPOINT_PATH_MAX}), received ${JSON.stringify(path)}`);
      if (typeof handler !== 'function') throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerEndpoint(${path}): expected a handler function`);
      if (reg.endpoints.has(path)) throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerEndpoint: ${path} is already registered`);
      reg.endpoints.set(path, handler);
    },
    registerCommand(name, handler) {
      registerable('registerCommand');
      if (typeof name !== 'string' || !COMMAND_NAME_PATTERN.test(name)) throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerCommand: expected a name of a-z, 0-9 and -, received ${JSON.stringify(name)}`);
      if (typeof handler !== 'function') throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerCommand(${name}): expected a handler function`);
      if (reg.commands.has(name)) throw new MemoryError('MEM_ERR_INVALID_INPUT', `registerCommand: ${name} is already registered`);
      reg.commands.set(name, handler);
    },
  };
  return Object.freeze(context);
}
