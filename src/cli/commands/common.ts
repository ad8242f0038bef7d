/** Option groups and helpers several commands share. */
import type { z } from 'zod';
import { CATEGORIES, DECAY_CLASSES, SCOPE_KINDS, type ScopeKind } from '../../core/types.js';
import { parse } from '../../memory/inputs.js';
import { list, num, oneOf, str, time, usageError } from '../args.js';
import type { OptionSpec, OptionValues } from '../spec.js';

export const SCOPE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  scope: { type: 'string', value: 'KIND', help: `${SCOPE_KINDS.join(' | ')} (default: global; --agent alone implies agent, --session implies session)` },
  agent: { type: 'string', value: 'ID', help: 'the agent id of an agent- or session-scoped entry' },
  session: { type: 'string', value: 'ID', help: 'the session id of a session-scoped entry' },
};

export interface ScopeInput {
  readonly scope: ScopeKind;
  readonly scopeAgentId?: string;
  readonly scopeSessionId?: string;
}

/** The scope named by --scope/--agent/--session, in the service's input shape. */
export function scopeInput(opts: OptionValues, command: string): ScopeInput {
  const agent = str(opts, 'agent');
  const session = str(opts, 'session');
  const scope = oneOf(opts, 'scope', SCOPE_KINDS) ?? (session !== undefined ? 'session' : agent !== undefined ? 'agent' : 'global');
  if (scope === 'global' && (agent !== undefined || session !== undefined)) {
    throw usageError('--agent and --session apply only to --scope agent or --scope session', command);
  }
  return { scope, ...(agent !== undefined ? { scopeAgentId: agent } : {}), ...(session !== undefined ? { scopeSessionId: session } : {}) };
}

/**
 * Validate `input` with the service's own schema before the database is opened, so bad input never even
 * creates one. The service validates again; `what` matches its field prefix, so the message is the same.
 */
export function checked<T>(schema: z.ZodType, input: T, what: string): T {
  parse(schema, input, what);
  return input;
}

/** Text from the argument, or from stdin when the argument is "-". */
export async function textArg(arg: string, readStdin: () => Promise<string>): Promise<string> {
  return arg === '-' ? (await readStdin()).replace(/\r?\n$/, '') : arg;
}

/** The fact fields `store` and `edit` share, read from their options (unset options stay undefined). */
export function factFieldOptions(opts: OptionValues) {
  return {
    category: oneOf(opts, 'category', CATEGORIES),
    entity: str(opts, 'entity'),
    tags: list(opts, 'tag'),
    importance: num(opts, 'importance'),
    confidence: num(opts, 'confidence'),
    decayClass: oneOf(opts, 'decay', DECAY_CLASSES),
    expiresAt: time(opts, 'expires'),
  };
}
