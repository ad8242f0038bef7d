/**
 * Finders for target candidates (IP addresses, user@host forms, URL hosts). Each returns positions in
 * the original text so target.ts can prefer the candidate nearest the detected failure. All regexes are
 * linear (bounded repetitions, no nested unbounded quantifiers).
 */

export interface Candidate {
  readonly value: string;
  readonly index: number;
  /** A documentation link: used only when no other URL is found. */
  readonly weak: boolean;
  readonly aliases: readonly string[];
}

/** Lower-case, no brackets, no port, no trailing dot. */
export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(h);
  if (bracketed) return bracketed[1] ?? '';
  if (!h.includes('::') && (h.match(/:/g) ?? []).length === 1) h = h.replace(/:\d*$/, '');
  return h.replace(/\.+$/, '');
}

const HOST_LIKE = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.){0,10}[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Dotted words that are file names, not hosts. */
const FILE_LIKE = /\.(?:txt|md|json|ya?ml|ts|js|mjs|cjs|py|rb|go|rs|java|sh|pem|key|pub|crt|log|conf|cfg|ini|env|toml|lock|sql|gz|tgz|zip|tar|html?|css|csv|xml|git|d|service|sock|pid|bak)$/i;

/** A host name or address as written on a command line: a letter somewhere, not a file name or a version. */
export function isHostLike(host: string): boolean {
  if (host === '' || host.length > 253 || NOT_TARGETS.has(host)) return false;
  if (isIpv4(host) || (host.includes(':') && isIpv6(host))) return true;
  return HOST_LIKE.test(host) && /[a-z]/.test(host) && !FILE_LIKE.test(host) && !SEMVER_LIKE.test(host);
}

function isIpv4(s: string): boolean {
  return IPV4_FULL.test(s);
}

/** The host of a URL (scheme, user:pass@, port and path dropped), or null. */
export function hostOfUrl(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]{1,15}:\/\/(?:[^\s/@'"<>]{1,256}@)?(\[[0-9a-f:.]{2,45}\]|[^\s/:?#'"<>]{1,253})/i.exec(url.trim());
  if (!m) return null;
  const host = normaliseHost(m[1] ?? '');
  return isHostLike(host) ? host : null;
}

const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const IPV4_RE = new RegExp(String.raw`(?<![\w.])${OCTET}(?:\.${OCTET}){3}(?![\w]|\.\d)`, 'g');
const IPV4_FULL = new RegExp(String.raw`^${OCTET}(?:\.${OCTET}){3}$`);
const IPV6_RE = /(?<![\w:.])[0-9a-f]{0,4}:[0-9a-f:]{1,38}(?![\w:.])/gi;
const NOT_TARGETS = new Set(['0.0.0.0', '255.255.255.255', '::']);

function isIpv6(s: string): boolean {
  const parts = s.split('::');
  if (parts.length > 2) return false;
  const groups = parts.flatMap((part) => (part === '' ? [] : part.split(':')));
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return parts.length === 2 ? groups.length <= 7 : groups.length === 8;
}

const LABEL = String.raw`[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?`;
const HOSTNAME = String.raw`(?:${LABEL}\.){0,10}${LABEL}`;
// A hostname written right before the IP it resolved to: "db.prod (10.0.0.5)", "host db.prod [10.0.0.5]",
// "example.com (example.com)|93.184.216.34|", "db.prod/10.0.0.5", "'db.prod,10.0.0.5'".
const PAIRED_BEFORE = new RegExp(String.raw`(?:^|[\s'"(])(${HOSTNAME})\.?["']?(?: \([^()\s]{1,253}\))?[ \t]?[(\[|/,][ \t]?$`, 'i');

function pairedHost(text: string, ipIndex: number): string | null {
  const before = text.slice(Math.max(0, ipIndex - 300), ipIndex);
  const m = PAIRED_BEFORE.exec(before);
  const host = m?.[1];
  if (!host || !/[a-z]/i.test(host)) return null;
  const lead = before.slice(0, m.index + m[0].indexOf(host));
  if (host.includes('.') || /\b(?:host|to)\s*$/i.test(lead)) return host.toLowerCase();
  return null;
}

/** IPv4 and IPv6 addresses (not 0.0.0.0 / :: / broadcast), each with the hostname paired with it, if any. */
export function findIps(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(IPV4_RE)) {
    const ip = m[0];
    const before = text.slice(Math.max(0, (m.index ?? 0) - 9), m.index);
    // MySQL's 'user'@'10.2.3.4' names the client's address, not the server's.
    if (NOT_TARGETS.has(ip) || /\bversion\s?$|\bv$|'@'$/i.test(before)) continue;
    const alias = pairedHost(text, m.index ?? 0);
    out.push({ value: ip, index: (m.index ?? 0) + offset, weak: false, aliases: alias ? [alias] : [] });
  }
  for (const m of text.matchAll(IPV6_RE)) {
    const ip = m[0].toLowerCase();
    if (NOT_TARGETS.has(ip) || !isIpv6(ip)) continue;
    const idx = m.index ?? 0;
    const alias = pairedHost(text, text[idx - 1] === '[' ? idx - 1 : idx);
    out.push({ value: ip, index: idx + offset, weak: false, aliases: alias ? [alias] : [] });
  }
  return out;
}

const USER_HOST_RE = new RegExp(String.raw`(?<![\w.@/+-])([a-z0-9._-]{1,64})@(${HOSTNAME})\.?(?::\d{1,5})?(?![\w@-])`, 'gi');
// `-h host` / `--host=host` on a database or directory client's command line names the server.
const HOST_FLAG_RE = new RegExp(String.raw`(?<=\s)(?:-h|--host(?:name)?)(?:[ =]|(?=[a-z0-9]))(${HOSTNAME})\.?(?![\w-])`, 'gi');
const CLIENT_COMMAND = /\b(?:mysql|mysqldump|mariadb|psql|pg_dump|pg_restore|redis-cli|mongo|mongosh|mongodump|ldapsearch|ldapwhoami|sqlcmd|clickhouse-client)\b/i;
const SSH_CONTEXT = /\b(?:ssh|scp|sftp|rsync|mosh|sshpass|ssh-copy-id|git|ansible)\b/i;
const SSH_LINE = /Permission denied|Authentication failed|Host key verification|password:|publickey|Too many authentication/i;
const LINE_LIMIT = 400;
const SEMVER_LIKE = /^v?\d+(?:\.\d+){0,3}$/;

/** The line around `index`, at most LINE_LIMIT characters either side (keeps scans linear on huge lines). */
function lineAround(text: string, index: number): { before: string; line: string } {
  const head = text.slice(Math.max(0, index - LINE_LIMIT), index);
  const tail = text.slice(index, index + LINE_LIMIT);
  const before = head.slice(head.lastIndexOf('\n') + 1);
  const nl = tail.indexOf('\n');
  return { before, line: before + (nl < 0 ? tail : tail.slice(0, nl)) };
}

/**
 * Hosts of user@host forms, only where the context says SSH (an ssh/scp/sftp/git command before it on
 * the line, "user@host's password:", or an SSH failure line), and the `-h host` of a database client's
 * command. An email address in prose and a package@version (lodash@4.17.21, @scope/pkg@1.2.3) are not
 * user@host. MySQL's 'user'@'host' is not used: that host is the CLIENT as the server saw it.
 */
export function findUserHosts(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(USER_HOST_RE)) {
    const host = (m[2] ?? '').toLowerCase();
    const index = m.index ?? 0;
    if (SEMVER_LIKE.test(host) || !/[a-z]/.test(host)) continue;
    const { before, line } = lineAround(text, index);
    const after = text.slice(index + m[0].length, index + m[0].length + 12);
    if (SSH_CONTEXT.test(before) || /^'s password/i.test(after) || SSH_LINE.test(line)) {
      out.push({ value: normaliseHost(host), index: index + offset, weak: false, aliases: [] });
    }
  }
  for (const m of text.matchAll(HOST_FLAG_RE)) {
    const index = m.index ?? 0;
    const host = normaliseHost(m[1] ?? '');
    if (!/[a-z]/.test(host) || !CLIENT_COMMAND.test(lineAround(text, index).before)) continue;
    out.push({ value: host, index: index + offset, weak: false, aliases: [] });
  }
  return out;
}

const URL_RE = new RegExp(String.raw`\b[a-z][a-z0-9+._-]{1,15}:\/\/(?:[^\s/@'"<>]{1,256}@)?(\[[0-9a-f:.]{2,45}\]|${HOSTNAME})\.?(?::\d{1,5})?`, 'gi');
const DOC_LEAD = /\b(?:see|visit|read|refer to|documentation|docs|more info(?:rmation)?|learn more|details|help|troubleshoot\w*|for more|go to|check|find (?:your|an?|the) [\w -]{0,30}|get (?:your|an?|a new|the) [\w -]{0,30}|create (?:your|an?|a new|the) [\w -]{0,30}|generate (?:your|an?|a new|the) [\w -]{0,30})\b[^\n]{0,40}$|\b(?:at|here):?\s{0,2}[<([]?$|\bhref=["']?$|\bPowered by\b[^\n]{0,60}$/i;
const DOC_HOST = /^(?:docs|doc|help|learn|support|developer|developers|kb|console|dashboard|platform|portal|status|community|forum|blog)\.|^aka\.ms$|^(?:www\.)?(?:npmjs\.com|pypi\.org|stackoverflow\.com)$/;
const DOC_PATH = /^[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/]{1,300}\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:docs?|documentation|help|support|account|settings|api-keys|keys|billing|signup|login|troubleshooting|reference|articles|guides?|learn|blog|faq|package|packages|user\/settings|profile)(?:[/?#.]|$)/i;

/** Hosts of URLs (scheme, credentials, port and path dropped); documentation links are marked weak. */
export function findUrlHosts(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(URL_RE)) {
    const host = normaliseHost(m[1] ?? '');
    if (host === '') continue;
    const index = m.index ?? 0;
    const { before } = lineAround(text, index);
    const weak = DOC_HOST.test(host) || DOC_PATH.test(m[0] + text.slice(index + m[0].length, index + m[0].length + 60)) || DOC_LEAD.test(before.slice(-80));
    out.push({ value: host, index: index + offset, weak, aliases: [] });
  }
  return out;
}

/** Top-level labels of real host names (and the private ones teams use), so a bare dotted word is a host. */
const HOST_TLDS = new Set(('com net org io dev ai co app cloud tech info biz me us uk de fr eu nl se no fi dk ch at be es it pl cz jp cn in br au ca ru ' +
  'gov edu mil int internal local lan corp example test localdomain intranet home arpa').split(' '));
const BARE_HOST_RE = new RegExp(String.raw`(?<![\w.@/:$-])((?:${LABEL}\.){1,10}([a-z]{2,24}))(?![\w(-]|\.[a-z0-9])`, 'g');

/**
 * Host names written bare in text ("in Okta (acme.okta.com)?", "the nas at nas.lan"): dotted, ending in a
 * real or private top-level label, lower case, not a URL's, an email's or a path's part, not a dotted code
 * name (`os.environ`, `org.apache.kafka.Client`). The weakest named candidate.
 */
export function findBareHosts(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(BARE_HOST_RE)) {
    const host = m[1] ?? '';
    if (!HOST_TLDS.has(m[2] ?? '') || FILE_LIKE.test(host) || host !== host.toLowerCase()) continue;
    out.push({ value: normaliseHost(host), index: (m.index ?? 0) + offset, weak: false, aliases: [] });
  }
  return out;
}
