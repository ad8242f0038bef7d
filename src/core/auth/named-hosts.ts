/**
 * Hosts a credential fact names (IP addresses and dotted host names), and whether a fact is a credential
 * fact (the spec's recall filter). Used to precompute the auth-failure search embeddings for likely
 * targets, so a failing turn's vector leg rarely waits on the model.
 */
import { findIps, normaliseHost } from './target-candidates.js';

const HOSTNAME = /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}\b/gi;
/** Undotted host names are only taken when hyphenated with a digit or a second word: db-prod, redis-cache-01. */
const SHORT_HOST = /(?<![\w.-])[a-z][a-z0-9]{1,30}(?:-[a-z0-9]{1,30}){1,4}(?![\w.-])/gi;
const CREDENTIAL_TAGS = new Set(['credential', 'ssh', 'token', 'api', 'auth', 'password']);
/** Dotted words that are not hosts (file names and versions look alike). */
const NOT_HOST = /\.(?:txt|md|json|ya?ml|ts|js|py|sh|pem|key|pub|log|conf|cfg|ini|env|toml|lock)$/i;

export function namedHosts(text: string, max = 8): string[] {
  const hosts = new Set<string>();
  for (const c of findIps(text, 0)) hosts.add(c.value);
  for (const m of text.matchAll(HOSTNAME)) {
    const h = normaliseHost(m[0]);
    if (!NOT_HOST.test(h) && /[a-z]/.test(h)) hosts.add(h);
  }
  for (const m of text.matchAll(SHORT_HOST)) hosts.add(m[0].toLowerCase());
  return [...hosts].slice(0, max);
}

export function isCredentialFact(f: { readonly category: string; readonly entity: string | null; readonly tags: readonly string[] }): boolean {
  return f.category === 'technical' || f.entity?.toLowerCase() === 'credentials' || f.tags.some((t) => CREDENTIAL_TAGS.has(t.toLowerCase()));
}
