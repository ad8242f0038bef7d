/** The names a plugin uses, checked wherever they cross a boundary (manifest, registry, worker, HTTP, CLI). */

/** A plugin id: lower-case letters, digits and dashes (the manifest's `hybridMem.id`). */
export const PLUGIN_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** An event name (context.emit): letters, digits and `. _ : -`, at most 100 characters. */
export const PLUGIN_EVENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
/**
 * An endpoint path (registerEndpoint): '/' then segments of letters, digits and `. _ ~ -`, at most 200
 * characters; no empty, '.' or '..' segment, nothing that needs percent-encoding.
 */
export const ENDPOINT_PATH_PATTERN = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*)?$/;
export const ENDPOINT_PATH_MAX = 200;
/** A command name (registerCommand): like a plugin id. */
export const COMMAND_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isEndpointPath(p: unknown): p is string {
  return typeof p === 'string' && p.length <= ENDPOINT_PATH_MAX && ENDPOINT_PATH_PATTERN.test(p);
}
