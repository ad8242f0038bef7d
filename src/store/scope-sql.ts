/**
 * Turns the pure visibility rule (src/core/scope.ts) into a SQL predicate, so filtering happens inside
 * the query and never after the fact. The test suite checks it against `isVisible` on random data.
 */
import type { Visibility } from '../core/scope.js';

export interface SqlFragment {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

/** A predicate over columns `<alias>.scope_kind`, `.scope_agent`, `.scope_session`. */
export function scopeSql(v: Visibility, alias = 'f'): SqlFragment {
  if (v.all) return { sql: '1', params: [] };
  const params: string[] = [];
  const ors = [`${alias}.scope_kind = 'global'`];
  if (v.agentIds === 'any') ors.push(`${alias}.scope_kind = 'agent'`);
  else if (v.agentIds.length > 0) {
    ors.push(`(${alias}.scope_kind = 'agent' AND ${alias}.scope_agent IN (${v.agentIds.map(() => '?').join(',')}))`);
    params.push(...v.agentIds);
  }
  if (v.sessionIds === 'any') ors.push(`${alias}.scope_kind = 'session'`);
  else if (v.sessionIds.length > 0) {
    ors.push(`(${alias}.scope_kind = 'session' AND ${alias}.scope_session IN (${v.sessionIds.map(() => '?').join(',')}))`);
    params.push(...v.sessionIds);
  }
  return { sql: `(${ors.join(' OR ')})`, params };
}
