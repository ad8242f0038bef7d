/** config check: validate the config that would apply and print it resolved (secrets masked). */
import type { ResolvedConfig } from '../../config/resolve.js';
import type { CommandSpec } from '../spec.js';

export const MASK = '********';

/** The resolved config with every secret replaced by a mask: dashboard.token is never printed. */
export function maskedConfig(c: ResolvedConfig): ResolvedConfig {
  return { ...c, dashboard: { ...c.dashboard, token: c.dashboard.token === null ? null : MASK } };
}

function flatten(value: unknown, prefix: string, out: string[]): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.push(`${prefix} = ${JSON.stringify(value)}`);
  }
  return out;
}

export const configCheckCommand: CommandSpec = {
  name: 'config check',
  summary: 'validate the config (--config PATH, else <data dir>/config.json, else defaults) and print it resolved',
  args: [],
  details: ['Exit 1 with the key path, what was expected and what arrived when it is invalid. dashboard.token is masked.'],
  options: {},
  run({ cli }) {
    const config = maskedConfig(cli.config());
    const { source, ...rest } = config;
    const human = [`config ok: ${source ?? 'defaults (no config file)'}`, ...flatten(rest, '', [])];
    return { human, json: { valid: true, source, config } };
  },
};
