/**
 * Name the evidence in a replaced run of tokens: "different port: 5432 vs 6432", "different host:
 * db-1.internal vs db-3.internal", "different name: Acme vs Globex". Null when the run holds no value
 * (a rewording) or the verb allows many values ("likes Python" and "likes Rust").
 */
import type { Token, ValueKind } from './tokens.js';

const LABEL: Readonly<Record<ValueKind, string>> = {
  email: 'e-mail', url: 'URL', ip: 'IP', host: 'host', path: 'path', file: 'file', date: 'date', day: 'day', time: 'time',
  amount: 'amount', version: 'version', number: 'number', id: 'name', word: 'value',
};

const text = (ts: readonly Token[]): string => ts.map((t) => t.raw).join(' ');

/** host:port or ip:port split; a bare host has no port. */
function hostPort(t: Token): { host: string; port: string | null } {
  const m = /^(.*):(\d+)$/.exec(t.norm);
  return m ? { host: m[1] as string, port: m[2] as string } : { host: t.norm, port: null };
}

/**
 * The start of a reason for two differing values: "different host: " (the caller appends the values), or
 * the whole reason when a part differs ("different port: 5432 vs 6432" for host:port values).
 */
export function valueLabel(older: Token, newer: Token, before: Token | null): string {
  if ((older.kind === 'ip' || older.kind === 'host') && older.kind === newer.kind) {
    const x = hostPort(older);
    const y = hostPort(newer);
    if (x.host === y.host && x.port && y.port) return `different port: ${x.port} vs ${y.port}`;
  }
  if (older.kind === 'number' && newer.kind === 'number' && before?.norm === 'port') return `different port: ${older.raw} vs ${newer.raw}`;
  const kind = older.kind === newer.kind ? LABEL[older.kind] : 'value';
  return `different ${kind}: `;
}

/** Words of one run that start the other ("Sam" and "Samuel Park"): a fuller form, not a different value. */
function extends_(x: string, y: string): boolean {
  const [p, q] = x.length <= y.length ? [x, y] : [y, x];
  return q.toLowerCase().startsWith(p.toLowerCase());
}

/**
 * The evidence that two replaced runs (older, newer) are different values of one attribute, or null.
 * `before` is the shared token right before the runs ("port" in "port 5432"); `manyValued` says the verb
 * before them allows several values at once; `verbs` that both statements have a verb found before the runs.
 */
export function describe(older: readonly Token[], newer: readonly Token[], before: Token | null, manyValued: boolean, verbs: boolean): string | null {
  const vo = older.filter((t) => t.kind !== 'word');
  const vn = newer.filter((t) => t.kind !== 'word');
  if (vo.length > 0 && vn.length > 0) {
    // "5 engineers" vs "2 designers": the count of something else
    if (older.some((t) => t.kind === 'word') && newer.some((t) => t.kind === 'word')) return null;
    const head = valueLabel(vo[0] as Token, vn[0] as Token, before);
    return head.endsWith(': ') ? `${head}${text(older)} vs ${text(newer)}` : head;
  }
  // a name with a model number ("ThinkPad X1") against a plain name is still a name; a number against words is another attribute
  const nameLike = (t: Token): boolean => t.kind === 'word' || t.kind === 'id';
  // words alone are weaker evidence than a typed value: both statements must have a verb before them
  if (!verbs || manyValued || !older.every(nameLike) || !newer.every(nameLike)) return null;
  if (extends_(text(older), text(newer))) return null;
  const name = [...older, ...newer].some((t) => t.capital || t.kind === 'id');
  return `different ${name ? 'name' : 'value'}: ${text(older)} vs ${text(newer)}`;
}
