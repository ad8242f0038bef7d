/**
 * A plugin's own events (context.emit in a plugin): validated here, then appended to the event log like
 * every change, so subscribers in every process receive them (kind 'plugin', visible to every caller).
 */
import { invalidInput } from '../core/errors.js';
import { PLUGIN_EVENT_PATTERN, PLUGIN_ID_PATTERN } from '../core/plugin-names.js';
import type { Ctx } from './context.js';

/** The largest event data, as JSON text. */
export const PLUGIN_EVENT_MAX_BYTES = 64 * 1024;

export function emitPluginEvent(ctx: Ctx, pluginId: string, event: string, data: unknown): void {
  if (typeof pluginId !== 'string' || !PLUGIN_ID_PATTERN.test(pluginId)) throw invalidInput('emit.pluginId', 'a plugin id (a-z, 0-9, -)', pluginId);
  if (typeof event !== 'string' || !PLUGIN_EVENT_PATTERN.test(event)) throw invalidInput('emit.event', 'an event name of letters, digits and . _ : - (at most 100)', event);
  let json: string | undefined;
  try {
    json = JSON.stringify(data ?? null);
  } catch {
    json = undefined;
  }
  if (json === undefined) throw invalidInput('emit.data', 'JSON-serializable data', data);
  if (Buffer.byteLength(json, 'utf8') > PLUGIN_EVENT_MAX_BYTES) throw invalidInput('emit.data', `at most ${PLUGIN_EVENT_MAX_BYTES} bytes of JSON`, `${Buffer.byteLength(json, 'utf8')} bytes`);
  const payload = JSON.parse(json) as unknown;
  ctx.tx('plugin.emit', () => ctx.emit({ kind: 'plugin', pluginId, event, data: payload, scopes: [] }));
}
