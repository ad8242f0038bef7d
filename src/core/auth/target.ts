/**
 * Target extraction for auth-failure recall (spec "Target extraction and query rules", rule 1, read for
 * real turns; src/core/auth/README.md documents it):
 *
 * 1. The host the agent addressed wins: the host on the command line that produced the failing output
 *    (its tool call, or a `$ ` line before the failure), chosen by the client that matches the failure.
 * 2. Without a command host, the failing text's own candidates, best tier first: a server name in a known
 *    client position > an IP address > the host of user@host > a URL host > 'for <Name> service' / an SDK's
 *    error class > a documentation or account link. Within a tier, the one nearest the failure.
 * 3. A name beats the address it resolved to: when a client printed both, the name is the target and the
 *    IP an alias (both are searched; the header and the counter use the name). An IP the agent addressed
 *    itself (`ssh root@10.0.0.5`) is the target.
 */
import { clientFamily, type ClientFamily } from './client-families.js';
import { addressedHosts, type AddressedHost } from './client-hosts.js';
import type { Detection } from './patterns.js';
import { MAX_SCAN_CHARS } from './patterns.js';
import { findServerNames } from './server-names.js';
import type { SimpleCommand } from './shell-words.js';
import { findBareHosts, findIps, findUrlHosts, findUserHosts, normaliseHost, type Candidate } from './target-candidates.js';

/** What failed: `target` names the hint header, the per-session counter and the search. */
export interface Target {
  readonly target: string;
  readonly kind: 'ip' | 'host' | 'url' | 'service';
  /** Other names of the same target (a hostname and the IP it resolved to); they widen the search only. */
  readonly aliases: readonly string[];
}

/** Candidates are looked for this far either side of the detection first (the failing command's output). */
const NEAR_CHARS = 2_000;

const SERVICE_RE = /\bfor\s+(?:the\s+)?([A-Za-z0-9][\w.-]{0,40}(?:\s[A-Za-z0-9][\w.-]{0,40}){0,2}?)\s+service\b/gi;
// An SDK's typed error names its service: openai.AuthenticationError, anthropic.PermissionDeniedError.
const SDK_ERROR_RE = /(?<![\w.])([a-z][a-z0-9_]{1,30})(?:\.[a-z_][\w]{0,40}){0,4}\.(?:Authentication|PermissionDenied|Unauthorized|Auth|APIStatus|API|SDK)Error\b/g;

// A vendor SDK in a traceback's frames: site-packages/sendgrid/..., node_modules/@anthropic-ai/sdk/...
const SDK_PATH_RE = /(?:site-packages|dist-packages|node_modules|gems)\/(@?[a-z][\w.-]{1,40})(?:\/([a-z][\w.-]{1,40}))?\//gi;
/** Packages every traceback passes through: HTTP clients, runtimes, frameworks; never the service. */
const GENERIC_PACKAGES = new Set(['error', 'errors', 'exceptions', 'models', 'pika', 'kombu', 'amqp', 'aio_pika', 'psycopg', 'psycopg2', 'pymysql', 'mysql', 'redis', 'pymongo', 'motor', 'kafka', 'confluent_kafka', 'aiokafka', 'paramiko', 'fabric', 'ldap3', 'smtplib', 'ftplib', 'grpcio', 'sqlalchemy', 'asyncpg', 'pg', 'mysql2', 'ioredis', 'mongodb', 'mongoose', 'amqplib', 'kafkajs', 'nodemailer', 'ssh2', 'ldapjs', 'winrm', 'pywinrm', 'hvac', 'kubernetes', 'docker', 'requests', 'urllib3', 'httpx', 'httpcore', 'aiohttp', 'anyio', 'asyncio', 'http', 'urllib', 'python_http_client', 'axios', 'node-fetch', 'undici', 'got', 'superagent', 'tslib', 'retry', 'tenacity', 'backoff', 'pydantic', 'google', 'api_core', 'grpc', 'click', 'typer', 'fastapi', 'starlette', 'django', 'flask', 'express', 'pip', '_internal', 'setuptools', 'botocore', 'boto3', 'core', 'sdk', 'lib', 'dist', 'src', 'client', 'common', 'utils']);

/** The vendor of the last non-generic SDK package in a traceback (`@anthropic-ai/sdk` -> anthropic). */
function sdkVendor(m: RegExpMatchArray): string | null {
  const scope = (m[1] ?? '').toLowerCase();
  const name = scope.startsWith('@') ? scope.slice(1) : scope;
  const vendor = name.replace(/^python[-_]/, '').replace(/[-_](?:ai|sdk|api|client|node|python|js|rest|http)$/g, '').replace(/[-_](?:ai|sdk|api)$/g, '');
  // A protocol client's helper package (redis-parser, pg-protocol, mysql2-...) is no vendor either.
  const family = name.split(/[-_.]/)[0] ?? name;
  return vendor.length >= 3 && !GENERIC_PACKAGES.has(vendor) && !GENERIC_PACKAGES.has(name) && !GENERIC_PACKAGES.has(family) ? vendor : null;
}

function findServices(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const re of [SERVICE_RE, SDK_ERROR_RE]) {
    for (const m of text.matchAll(re)) {
      const name = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
      if (name !== '' && !GENERIC_PACKAGES.has(name) && name !== 'self' && name !== 'this') out.push({ value: name, index: (m.index ?? 0) + offset, weak: false, aliases: [] });
    }
  }
  for (const m of text.matchAll(SDK_PATH_RE)) {
    const vendor = sdkVendor(m);
    if (vendor) out.push({ value: vendor, index: (m.index ?? 0) + offset, weak: false, aliases: [] });
  }
  return out;
}

type Tier = readonly [Target['kind'], (text: string, offset: number) => Candidate[]];
const NAMED_TIERS: readonly Tier[] = [
  ['host', findServerNames],
  ['ip', findIps],
  ['host', findUserHosts],
  ['url', (t, o) => findUrlHosts(t, o).filter((c) => !c.weak)],
  ['service', findServices],
  ['host', findBareHosts],
];
/** Documentation and account links: a target only when nothing in the whole turn names another. */
const ALL_TIERS: readonly Tier[] = [...NAMED_TIERS, ['url', findUrlHosts]];

function nearest(cands: readonly Candidate[], at: number): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of cands) if (best === undefined || Math.abs(c.index - at) < Math.abs(best.index - at)) best = c;
  return best;
}

const isIp = (h: string): boolean => /^[\d.]+$/.test(h) || h.includes(':');

/** The best candidate of a text by tier, then nearness; a name paired with an IP wins over the IP. */
function pick(text: string, offset: number, at: number, tiers: readonly Tier[]): Target | null {
  for (const [kind, find] of tiers) {
    const c = nearest(find(text, offset), at);
    if (!c) continue;
    const named = kind === 'ip' ? c.aliases.find((a) => !isIp(a)) : undefined;
    if (named) return { target: named, kind: 'host', aliases: uniqueAliases(named, [c.value, ...c.aliases]) };
    return { target: c.value, kind, aliases: uniqueAliases(c.value, c.aliases) };
  }
  return null;
}

/**
 * The target named by one text, or null. With a detection, candidates within NEAR_CHARS of it are
 * preferred; only when that region names no target is the whole scan window (the last MAX_SCAN_CHARS)
 * used. `docs: false` leaves documentation and account links out (the turn may name the real host elsewhere).
 */
export function extractTarget(text: string, detection: Detection | null, options: { docs?: boolean } = {}): Target | null {
  const tiers = options.docs === false ? NAMED_TIERS : ALL_TIERS;
  const offset = Math.max(0, text.length - MAX_SCAN_CHARS);
  const at = detection ? detection.index : text.length;
  if (detection) {
    const from = Math.max(offset, at - NEAR_CHARS);
    const to = Math.min(text.length, at + detection.match.length + NEAR_CHARS);
    const near = pick(text.slice(from, to), from, at, tiers);
    if (near) return near;
  }
  return pick(text.slice(offset), offset, at, tiers);
}

/** Which client families can print a failure of each detection family. */
const SERVES: Readonly<Record<string, readonly ClientFamily[]>> = {
  ssh: ['ssh', 'git', 'ftp'],
  database: ['database'],
  http: ['http', 'registry', 'cloud', 'git'],
  git: ['git', 'http'],
  registry: ['registry', 'http'],
  mail: ['mail', 'http'],
  ftp: ['ftp', 'http'],
  directory: ['directory'],
  cloud: ['cloud', 'http'],
  mqtt: ['mqtt'],
  api: ['http', 'cloud', 'registry', 'other'],
  oauth: ['http', 'cloud'],
};

/**
 * The target of a failure given the commands that produced it: the host the agent addressed, with the
 * names and addresses the output printed for it as aliases; null when the commands address no host.
 */
export function targetFromCommands(commands: readonly SimpleCommand[], output: string, detection: Detection): Target | null {
  const hosts = commands.flatMap(addressedHosts);
  // A proxy's refusal (407, or a proxy answering for itself) is about the proxy, not the site behind it.
  if (/\b407\b|Proxy Auth/i.test(detection.match) || /Proxy-Authenticate|\b(?:tiny|squid|http-?)proxy\b|\bproxy (?:server|auth)/i.test(output)) {
    const proxy = hosts.find((h) => h.proxy);
    if (proxy) return hostTarget(proxy.host, output, findServerNames(output, 0));
  }
  const direct = hosts.filter((h) => !h.proxy);
  if (direct.length === 0) return null;
  const servers = findServerNames(output, 0);
  const printed = [...servers, ...findUserHosts(output, 0)].map((c) => c.value);
  // A host the command only implies (docker.io for `docker pull nginx`) yields to the endpoint the client printed.
  if (direct.every((h) => h.implied) && printed.length > 0) return hostTarget(printed[0] as string, output, servers);
  const serves = (h: AddressedHost): boolean => (SERVES[detection.family] ?? []).includes(h.family);
  const chosen = direct.find((h) => printed.includes(h.host)) ?? direct.find(serves);
  if (chosen) return hostTarget(chosen.host, output, servers);
  // ssh is a transport here (`ssh web2 'docker compose pull'`): the server the output names, else the inner
  // command's host, else nothing (the failing text decides), never the machine the agent hopped onto.
  if (servers.length > 0) return hostTarget((servers[0] as Candidate).value, output, servers);
  const inner = direct.filter((h) => h.family !== 'ssh');
  const fallback = inner.find((h) => clientFamily(h.program) !== 'other') ?? inner[inner.length - 1];
  return fallback ? hostTarget(fallback.host, output, servers) : null;
}

/** A host the agent addressed, with the addresses the output paired with it as aliases. */
function hostTarget(host: string, output: string, servers: readonly Candidate[]): Target {
  const aliases: string[] = [];
  for (const c of [...servers, ...findIps(output, 0)]) {
    const names = [c.value, ...c.aliases];
    if (names.includes(host)) aliases.push(...names);
  }
  if (isIp(host)) return { target: host, kind: 'ip', aliases: uniqueAliases(host, aliases) };
  // A single resolved address the client printed while connecting ("Trying 10.0.0.5:443...") is the same server.
  const trying = [...output.matchAll(/\bTrying \[?([0-9a-f.:]{3,45})\]?(?::\d+|\.\.\.)/gi)].map((m) => m[1] ?? '');
  if (new Set(trying).size === 1) aliases.push(trying[0] as string);
  return { target: host, kind: 'host', aliases: uniqueAliases(host, aliases) };
}

function uniqueAliases(target: string, aliases: readonly string[]): readonly string[] {
  const out: string[] = [];
  for (const a of aliases) {
    const h = normaliseHost(a);
    if (h !== '' && h !== target && !out.includes(h)) out.push(h);
  }
  return Object.freeze(out);
}
