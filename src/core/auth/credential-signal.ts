/**
 * Which stored facts can help an agent log in to a failing target (issue 15, items 6 and 7):
 *
 * - The names a credential fact may file the target under (`hostVariants`): the target and its aliases
 *   (the resolved IP, the name it resolved from) first; then the host's short name (`db-prod` for
 *   `db-prod.internal`) and, for a public API host with a generic first label, its domain's name
 *   (`openai` for `api.openai.com`).
 * - How strongly a fact speaks of authenticating (`credentialSignal`): words of logging in (password, key,
 *   token, user, login, certificate, a vault pointer, ...) and the credential tags and entity. A fact with
 *   no signal at all (a cache eviction policy, a node count) is not a credential hint, even when it
 *   passes the spec's filter (category technical) and names the host.
 */
import { tokenize } from '../text.js';

/** First labels that say what a host does, not which host it is: `api.openai.com` is "openai". */
const GENERIC_LABELS = new Set(['api', 'www', 'app', 'web', 'mail', 'smtp', 'imap', 'git', 'registry', 'login', 'auth', 'sso', 'portal', 'console', 'admin', 'ftp', 'ldap', 'vpn', 'proxy', 'db', 'cdn', 'static', 'docs', 'hub', 'cloud', 'id', 'accounts', 'gateway', 'secure', 'dev', 'prod', 'staging', 'test', 'internal', 'corp', 'local', 'localhost', 'npm', 'pypi', 'docker', 'index', 'upload', 'repo', 'ci', 'k8s', 'kube', 'data', 'files', 'backup', 'cache', 'redis', 'mq', 'broker']);
/** Labels that never name an organisation, even right under a public top-level domain. */
const ROLE_LABELS = new Set(['api', 'www', 'app', 'web', 'mail', 'login', 'auth', 'sso', 'portal', 'console', 'admin', 'cdn', 'static', 'docs', 'cloud', 'id', 'accounts', 'gateway', 'secure', 'dev', 'test', 'internal', 'corp', 'local', 'example', 'co', 'com', 'net', 'org']);
/** Top-level domains after which the label before is an organisation's name (`openai.com`, `github.io`). */
const PUBLIC_TLDS = new Set(['com', 'net', 'org', 'io', 'dev', 'ai', 'co', 'app', 'cloud', 'tech', 'so', 'sh', 'us', 'eu', 'uk', 'de', 'fr', 'me', 'xyz']);

const isIp = (h: string): boolean => /^\d{1,3}(?:\.\d{1,3}){3}$/.test(h) || (h.includes(':') && /^[0-9a-f:.]+$/i.test(h));

export interface HostVariants {
  /** The target and its aliases: a fact naming any of these is about the target. */
  readonly exact: readonly string[];
  /** Shorter names of the same host: searched too, ranked below exact matches. */
  readonly short: readonly string[];
  /** The words of all these names: they say which host, not how to log in (`vault` in vault.corp.example). */
  readonly words: ReadonlySet<string>;
}

/** Cloud API domains and the provider a credential fact names instead (`bigquery.googleapis.com` -> gcp). */
const PROVIDER_DOMAINS: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/(?:^|\.)(?:googleapis\.com|google\.com|gcr\.io|pkg\.dev)$/, ['gcp', 'google cloud', 'gcloud']],
  [/(?:^|\.)(?:amazonaws\.com|aws\.amazon\.com)$/, ['aws', 'amazon']],
  [/(?:^|\.)(?:azure\.com|windows\.net|azure\.net|azurecr\.io|microsoftonline\.com)$/, ['azure']],
];

export function hostVariants(target: string, aliases: readonly string[]): HostVariants {
  const exact = [...new Set([target, ...aliases].map((h) => h.toLowerCase()).filter((h) => h !== ''))];
  const short = new Set<string>();
  for (const h of exact) {
    // A vendor's package name often carries a suffix its facts do not: mistralai -> mistral, togetherai -> together.
    const vendor = /^([a-z][a-z0-9]{4,30}?)(?:ai|io|hq|labs|sdk)$/.exec(h)?.[1];
    if (vendor && !h.includes('.')) short.add(vendor);
    if (isIp(h) || !h.includes('.')) continue;
    const labels = h.split('.');
    const first = labels[0] as string;
    if (!GENERIC_LABELS.has(first) && first.length >= 3) short.add(first);
    const tld = labels[labels.length - 1] as string;
    const org = labels[labels.length - 2];
    // Under a public top-level domain the label before it is the organisation's name (pypi, openai, github).
    if (labels.length >= 2 && PUBLIC_TLDS.has(tld) && org && org.length >= 3 && !ROLE_LABELS.has(org)) short.add(org);
  }
  for (const h of exact) for (const [re, names] of PROVIDER_DOMAINS) if (re.test(h)) for (const n of names) short.add(n);
  for (const e of exact) short.delete(e);
  const words = new Set([...exact, ...short].flatMap((h) => tokenize(h)));
  return { exact, short: [...short], words };
}

/** Words that speak of authenticating, stemmed loosely by prefix. */
const SIGNAL_WORDS = ['password', 'passwd', 'passphrase', 'pwd', 'credential', 'creds', 'secret', 'token', 'apikey', 'key', 'keyfile', 'user', 'username', 'usernames', 'login', 'logins', 'logon', 'signin', 'auth', 'authenticate', 'authentication', 'authenticates', 'certificate', 'cert', 'certs', 'pem', 'rsa', 'ed25519', 'ecdsa', 'id_rsa', 'id_ed25519', 'pubkey', 'publickey', 'vault', 'bearer', 'oauth', 'sso', 'saml', 'mfa', '2fa', 'totp', 'otp', 'htpasswd', 'kubeconfig', 'pat', 'account', 'iam', 'sasl', 'kerberos', 'keytab', 'principal', 'binddn', 'keychain', 'keyring', 'credential_get'];
const SIGNALS = new Set(SIGNAL_WORDS);
const CREDENTIAL_TAGS = new Set(['credential', 'credentials', 'ssh', 'token', 'api', 'auth', 'password']);

type FactLike = { readonly text: string; readonly entity: string | null; readonly tags: readonly string[]; readonly vaultService?: string | null };

/**
 * How much a fact speaks of authenticating: 0 = not at all (left out of a hint). Credential tags and the
 * Credentials entity count 2, each distinct signal word 1 (not the words of the host's own names:
 * `vault.corp.example` says which host, not how to log in), a vault pointer 3. `words`: the fact text's
 * tokens, when the caller has them.
 */
export function credentialSignal(f: FactLike, hostWords: ReadonlySet<string> = new Set(), words: readonly string[] = tokenize(f.text)): number {
  let score = f.vaultService ? 3 : 0;
  if (f.entity?.toLowerCase() === 'credentials') score += 2;
  if (f.tags.some((t) => CREDENTIAL_TAGS.has(t.toLowerCase()))) score += 2;
  for (const w of new Set(words)) if (SIGNALS.has(w) && !hostWords.has(w)) score += 1;
  // "API key", "ssh key", "private key", "access key": the pair is a strong sign on its own.
  if (/\b(?:api|ssh|private|access|secret|deploy|signing)[ _-]?keys?\b/i.test(f.text)) score += 1;
  if (/\b[A-Z][A-Z0-9]*_(?:TOKEN|KEY|PASSWORD|PASS|SECRET|PAT|CREDENTIALS?)\b/.test(f.text)) score += 2;
  return score;
}

const DOTTED_HOST = /\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+\b/gi;
const padded = (host: string): string => ` ${tokenize(host).join(' ')} `;

/**
 * Where a candidate goes in a hint, lower first, or null when it is left out: facts naming the target (or
 * an alias) exactly, then those naming only a short name, then those found by meaning alone; within each,
 * facts that clearly speak of logging in (signal >= 2) before weaker ones. No credential signal: left out.
 * The fact is tokenized once.
 */
export function hintRank(f: FactLike, variants: HostVariants): number | null {
  const words = tokenize(f.text);
  // Words of a host name the fact writes (vault.internal.lan) say which host, not how to log in.
  const signal = credentialSignal(f, variants.words, tokenize(f.text.replace(DOTTED_HOST, ' ')));
  if (signal === 0) return null;
  const have = ` ${[...words, ...tokenize(`${f.entity ?? ''} ${f.tags.join(' ')}`)].join(' ')} `;
  const names = (hosts: readonly string[]): boolean => hosts.some((h) => h !== '' && padded(h) !== '  ' && have.includes(padded(h)));
  const tier = names(variants.exact) ? 0 : names(variants.short) ? 2 : 4;
  return tier + (signal >= 2 ? 0 : 1);
}
