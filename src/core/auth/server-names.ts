/**
 * Hosts that clients print in known positions of their output, naming the server they talked to: the
 * name the agent addressed, often with the address it resolved to. Each finder is one linear regex.
 *
 *   ssh    "Host key for db1 has changed", "The authenticity of host 'db1 (10.0.0.5)'", "ssh: connect to host db1 port 22"
 *   psql   connection to server at "db.internal" (10.0.0.5), port 5432 failed
 *   curl   "* Connected to api.example.com (93.184.216.34) port 443", "> Host: api.example.com"
 *   wget   "Connecting to api.example.com (api.example.com)|93.184.216.34|:443..."
 *   git    "fatal: Authentication failed for 'https://git.example.com/o/r.git/'", "Username for 'https://x':"
 *   docker Get "https://registry.example.com/v2/": ..., "login attempt to https://r/v2/ failed", "[docker.io/acme/app]"
 *   gh     "Logged in to github.com", "Failed to log in to github.com"
 *   http   "401 Unauthorized - GET https://registry.npmjs.org/x", "for url: https://...", "request to https://x failed"
 *   kube   "server: https://10.0.0.1:6443" (a kubeconfig shown in the turn)
 *   redis  "Could not connect to Redis at cache1:6379"
 */
import { registryOfImage } from './client-hosts.js';
import { hostOfUrl, isHostLike, normaliseHost, type Candidate } from './target-candidates.js';

const HOST = String.raw`(?:\[[0-9a-z_.:-]{1,253}\](?::\d{1,5})?|[a-z0-9_][a-z0-9_.:-]{0,252})`;
const URL = String.raw`[a-z][a-z0-9+.-]{1,15}:\/\/[^\s'"<>()]{1,500}`;
/** A host name with at least one dot (a bare word after "token for" is prose). */
const DOTTED = String.raw`[a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){1,10}`;

type Kind = 'host' | 'url' | 'image' | 'literal';
/** [regex, how its first group (the name) and second (an address) are read]. */
const FINDERS: ReadonlyArray<readonly [RegExp, Kind]> = [
  [new RegExp(String.raw`Host key for '?(${HOST})'? has changed`, 'gi'), 'host'],
  [new RegExp(String.raw`authenticity of host '(${HOST})(?: \((${HOST})\))?'`, 'gi'), 'host'],
  [new RegExp(String.raw`ssh: connect to host (${HOST}) port`, 'gi'), 'host'],
  [new RegExp(String.raw`connection to server at "(${HOST})"(?: \((${HOST})\))?`, 'gi'), 'host'],
  [new RegExp(String.raw`(?:^|\n)\*?\s{0,4}Connected to (${HOST}) \((${HOST})\)`, 'gi'), 'host'],
  [new RegExp(String.raw`(?:^|\n)Connected to (${HOST})\.?\s*(?:\n|$)`, 'gi'), 'host'],
  [new RegExp(String.raw`(?:^|\n)>?\s{0,4}Host: (${HOST})`, 'gi'), 'host'],
  [new RegExp(String.raw`Connecting to (${HOST}) \((?:${HOST})\)\|(${HOST})\|`, 'gi'), 'host'],
  [new RegExp(String.raw`\blog(?:ged|ging)? ?in to (?:[a-z][a-z0-9+.-]{1,15}:\/\/)?(${HOST})`, 'gi'), 'host'],
  [new RegExp(String.raw`\bPublishing to (${URL})`, 'g'), 'url'],
  [new RegExp(String.raw`Could not connect to \w{1,20} at (${HOST})`, 'gi'), 'host'],
  [new RegExp(String.raw`(?:Authentication failed|Username|Password|unable to access|could not read \w{1,10}) for '(${URL})'`, 'gi'), 'url'],
  [new RegExp(String.raw`\b(?:Get|Head|Post|Put) "(${URL})"`, 'g'), 'url'],
  [new RegExp(String.raw`\b(?:login attempt to|request to|for url:?|error fetching|while fetching) (${URL})`, 'gi'), 'url'],
  [new RegExp(String.raw`\b(?:GET|POST|PUT|PATCH|DELETE|HEAD) (${URL})`, 'g'), 'url'],
  // A kubeconfig cluster: its server, and the cluster's name as an alias (`server: https://10.0.0.1:6443` / `name: k8s-prod`).
  [new RegExp(String.raw`(?:^|\n)\s{0,8}-?\s?server: ["']?(${URL})["']?(?:\s{0,8}\n\s{0,8}name: ([a-z0-9][\w.-]{0,62}))?`, 'gi'), 'url'],
  // composer: The 'https://repo.packagist.com/...' URL required authentication; ansible: `nas | UNREACHABLE! =>`.
  [new RegExp(String.raw`'(${URL})' URL required authentication`, 'gi'), 'url'],
  [new RegExp(String.raw`(?:^|\n)(${HOST}) \| (?:UNREACHABLE|FAILED)!`, 'g'), 'host'],
  // krb5.conf shown in the turn: `kdc = kdc1.example.edu`.
  [new RegExp(String.raw`\b(?:kdc|admin_server)\s{0,3}=\s{0,3}(${HOST})`, 'g'), 'host'],
  // A client's prompt for credentials it could not ask for: pip's "User for pypi.corp.example:".
  [new RegExp(String.raw`\bUser for (${HOST}):`, 'g'), 'host'],
  // A config file shown in the turn: terraform backend `address = "https://..."`, .npmrc `registry=`, pip.conf `index-url =`.
  [new RegExp(String.raw`(?:^|\n)\s{0,12}["']?(?:address|endpoint|url|index-url|index_url|extra-index-url|registry|server|host|base_url|baseUrl|api_url|vault_addr)["']?\s{0,3}[=:]\s{0,3}["']?(${URL})`, 'gi'), 'url'],
  [new RegExp(String.raw`refers to repository \[([^\]\s]{1,300})\]`, 'gi'), 'image'],
  [new RegExp(String.raw`\b(?:token|credentials?|password|passphrase|login) for (${DOTTED})`, 'gi'), 'host'],
  // A host literal in source a tool printed (a traceback line, grep output): smtplib.SMTP("smtp.gmail.com", 587).
  [new RegExp(String.raw`\b(?:SMTP|SMTP_SSL|FTP|FTP_TLS|IMAP4|IMAP4_SSL|POP3|POP3_SSL|connect|create_connection|Redis|StrictRedis|MongoClient|createConnection|createClient|createTransport|initialize|open_connection)\(\s?(?:host=\s?)?["']([^"'\s]{1,300})["']`, 'g'), 'literal'],
  [new RegExp(String.raw`\bhost(?:name)?\s?[=:]\s?["']([^"'\s]{1,253})["']`, 'g'), 'literal'],
];

/** Words that follow "log in to" / "connected to" in prose, never hosts. */
const NOT_NAMES = new Set(['the', 'a', 'an', 'your', 'this', 'that', 'it', 'server', 'host', 'remote', 'registry', 'database', 'account', 'cluster']);

function hostOf(value: string, kind: Kind): string | null {
  if (kind === 'literal') return value.includes('://') ? hostOfUrl(value) : hostOf(value, 'host');
  if (kind === 'url') return hostOfUrl(value);
  if (kind === 'image') return registryOfImage(value);
  const h = normaliseHost(value.replace(/^\[|\](?::\d+)?$/g, '').replace(/:\d{1,5}$/, ''));
  return isHostLike(h) && !NOT_NAMES.has(h) ? h : null;
}

/**
 * Server names in known positions of client output, with the resolved address as an alias when the
 * client printed one. Positions are in the text (plus `offset`).
 */
export function findServerNames(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const [re, kind] of FINDERS) {
    for (const m of text.matchAll(re)) {
      const host = hostOf(m[1] ?? '', kind);
      if (!host) continue;
      const second = m[2] !== undefined ? hostOf(m[2], 'host') : null;
      out.push({ value: host, index: (m.index ?? 0) + offset, weak: false, aliases: second && second !== host ? [second] : [] });
    }
  }
  return out;
}
