/**
 * The host a client command addresses, read from its command line the way the client itself reads it:
 * URLs (curl, wget, httpie, git, registries), `[user@]host` and `host:path` (ssh, scp, sftp, rsync),
 * `-h/--host/-H/-S/--server` and connection URIs (psql, mysql, redis-cli, mongosh, sqlcmd, ldapsearch,
 * lftp, mosquitto), image references (docker, podman, helm), `--endpoint-url`, `--registry`,
 * `--index-url`, and the environment variables those clients read (PGHOST, VAULT_ADDR, ...). Pure.
 */
import { clientFamily, type ClientFamily } from './client-families.js';
import type { SimpleCommand } from './shell-words.js';
import { hostOfUrl, isHostLike, normaliseHost } from './target-candidates.js';

/**
 * A host named by a command line. `proxy` marks a proxy the command goes through (a 407 is about it);
 * `implied` a host the command line does not write (docker.io for `docker pull nginx`).
 */
export interface AddressedHost {
  readonly host: string;
  readonly implied?: boolean;
  readonly program: string;
  readonly family: ClientFamily;
  readonly proxy: boolean;
  readonly index: number;
}

/** Options (per program group) whose next word is a value, so it is not taken for a host. */
const SSH_VALUE_OPTS = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-P', '-Q', '-R', '-S', '-W', '-w', '-B']);
const HOST_FLAGS: Readonly<Record<string, readonly string[]>> = {
  database: ['-h', '--host', '--hostname', '-S', '--server'],
  directory: ['-h', '--host'],
  mqtt: ['-h', '--host'],
  mail: ['--server', '-s', '--host'],
  other: ['-connect', '--host', '-h', '-I'],
  mq: ['-b', '--bootstrap-server', '--broker-list', '--brokers', '-s', '--server', '-H', '--host'],
  cloud: ['--server', '-s', '--endpoint-url', '--endpoint', '-address', '--address', '--host', '-H', '--account-name', '--vault-name', '--registry', '--project', '--project_id', '--kube-context'],
  registry: ['--registry', '--index-url', '-i', '--extra-index-url', '--repository-url', '--host', '-H'],
  http: [],
  git: [],
  ssh: [],
  ftp: [],
};
/** Environment variables that name the server for the clients above. */
const HOST_ENV = ['PGHOST', 'MYSQL_HOST', 'REDISCLI_HOST', 'VAULT_ADDR', 'DOCKER_HOST', 'KUBE_SERVER', 'AWS_ENDPOINT_URL', 'CONSUL_HTTP_ADDR', 'NOMAD_ADDR', 'NPM_CONFIG_REGISTRY', 'npm_config_registry', 'PIP_INDEX_URL', 'MONGODB_URI', 'DATABASE_URL', 'REDIS_URL'];
const PROXY_ENV = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

/** A word as a host: a URL's host, `user@host`, `host:port`, `host,port` (sqlcmd), `tcp:host`, or a bare host. */
export function hostOfWord(word: string): string | null {
  const w = word.trim();
  if (w === '') return null;
  if (/^[a-z][a-z0-9+.-]{1,15}:\/\//i.test(w)) return hostOfUrl(w);
  const bare = w.replace(/^tcp:/i, '').replace(/^[^@\s/]{1,64}@/, '').replace(/,\d{1,5}$/, '');
  // An unbracketed IPv6 address (fd00::12) has no port to drop.
  if ((bare.match(/:/g) ?? []).length >= 2 && /^[0-9a-f:.]+$/i.test(bare)) return isHostLike(bare.toLowerCase()) ? bare.toLowerCase() : null;
  // mongo's "rs0/host1:27017,host2:27017": the first member.
  const member = (bare.includes('/') && !bare.startsWith('/') ? bare.slice(bare.indexOf('/') + 1) : bare).split(',')[0] ?? '';
  const host = normaliseHost(member.replace(/:[^:]*$/, (m) => (/^:\d{1,5}$/.test(m) || m === ':' ? '' : m)));
  return isHostLike(host) ? host : null;
}

function push(out: AddressedHost[], c: SimpleCommand, host: string | null, proxy = false, implied = false): void {
  if (host === null || out.some((o) => o.host === host && o.proxy === proxy)) return;
  out.push({ host, program: c.program, family: clientFamily(c.program), proxy, index: c.index, implied });
}

/** The value of `--flag value`, `--flag=value`, `-hvalue` at position i, with the number of words used. */
function flagValue(args: readonly string[], i: number, flags: readonly string[]): string | null {
  const a = args[i] as string;
  for (const f of flags) {
    if (a === f) return args[i + 1] ?? null;
    if (a.startsWith(`${f}=`)) return a.slice(f.length + 1);
    if (f.length === 2 && !f.startsWith('--') && a.startsWith(f) && a.length > 2 && f !== '-s' && f !== '-i') return a.slice(2);
  }
  return null;
}

/** The first argument that is not an option (or an option's value) for ssh-like clients. */
function sshTarget(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (SSH_VALUE_OPTS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return null;
}

/** Hosts of scp/rsync operands: `[user@]host:path`, `host::module`, `rsync://host/`. */
function remoteOperands(c: SimpleCommand, out: AddressedHost[]): void {
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i] as string;
    if (SSH_VALUE_OPTS.has(a) && c.program === 'scp') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    if (/^[a-z][a-z0-9+.-]{1,15}:\/\//i.test(a)) {
      push(out, c, hostOfUrl(a));
      continue;
    }
    const m = /^(?:[^@/\s:]{1,64}@)?(\[[0-9a-f:.]+\]|[^@/\s:]{1,253})::?/i.exec(a);
    if (m && !/^[a-z]:$/i.test(`${m[1]}:`)) push(out, c, hostOfWord(m[1] ?? ''));
  }
}

/** Image reference `registry/ns/image:tag`: the registry when the first part is a host, else docker.io. */
export function registryOfImage(ref: string): string | null {
  const r = ref.replace(/^(?:docker|oci):\/\//, '');
  if (!/^[a-z0-9][\w.:/-]{0,250}(?:@sha256:[0-9a-f]{8,64})?$/i.test(r) || r.startsWith('-')) return null;
  const first = r.split('/')[0] ?? '';
  if (r.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) return hostOfWord(first);
  return /^[a-z0-9]/.test(r) ? 'docker.io' : null;
}

const SMB = new Set(['smbclient', 'smbmap', 'rpcclient', 'mount.cifs', 'mount', 'net']);
const OPERAND_HOST = new Set(['lftp', 'ftp', 'ncftp', 'telnet', 'nc', 'ncat']);
/** Options of HTTP/FTP clients that take no value (every other option is assumed to take the next word). */
const BOOLEAN_OPTS = new Set(['-s', '-S', '-v', '-i', '-I', '-k', '-L', '-f', '-g', '-O', '-N', '-q', '-4', '-6', '-n', '-z', '--silent', '--show-error', '--verbose', '--include', '--head', '--insecure', '--location', '--fail', '--fail-with-body', '--compressed', '--http1.1', '--http2', '--no-progress-meter', '--ignore-stdin', '--check-status', '--print', '--quiet', '--no-check-certificate', '--server-response', '--spider', '--debug', '--json', '--form', '--follow', '--verify=no']);

/** Container CLI options that take no value. */
const CONTAINER_BOOLEAN = new Set(['-d', '-i', '-t', '-q', '-a', '-P', '--rm', '--quiet', '--detach', '--interactive', '--tty', '--privileged', '--all-tags', '--insecure', '--init', '--read-only', '--debug', '--all', '--disable-content-trust']);

const IMAGE_VERBS = new Set(['pull', 'push', 'run', 'create', 'tag', 'inspect', 'copy', 'manifest']);

function registryHosts(c: SimpleCommand, out: AddressedHost[]): void {
  const sub = c.args.find((a) => !a.startsWith('-')) ?? '';
  const container = ['docker', 'podman', 'nerdctl', 'buildah', 'crane', 'skopeo', 'oras', 'helm'].includes(c.program);
  if (container && sub === 'login') {
    const host = c.args.slice(c.args.indexOf('login') + 1).find((a, i, arr) => !a.startsWith('-') && !['-u', '--username', '-p', '--password'].includes(arr[i - 1] ?? ''));
    push(out, c, host ? hostOfWord(host) : 'docker.io', false, !host);
    return;
  }
  if (c.program === 'helm' && sub === 'registry') {
    const host = c.args.slice(c.args.indexOf('login') + 1).find((a) => !a.startsWith('-'));
    if (host) push(out, c, hostOfWord(host));
    return;
  }
  if (container && (IMAGE_VERBS.has(sub) || c.program === 'crane' || c.program === 'skopeo')) {
    const words = c.args.slice(c.args.indexOf(sub) + 1);
    for (let i = 0; i < words.length; i++) {
      const a = words[i] as string;
      if (a.startsWith('-')) {
        if (!a.includes('=') && !CONTAINER_BOOLEAN.has(a) && !/^-[a-zA-Z]{2,}$/.test(a)) i++;
        continue;
      }
      const transport = /^(?:oci|docker):\/\//.test(a);
      if ((c.program === 'skopeo' || c.program === 'crane') && !transport && !a.includes('/')) continue;
      const reg = registryOfImage(a);
      if (reg) {
        push(out, c, reg, false, reg === 'docker.io' && !a.startsWith('docker.io/'));
        if (c.program !== 'skopeo' && c.program !== 'crane') break;
      }
    }
  }
  // npm/pip: `npm config set registry URL`, `pip config set global.index-url URL`.
  if (sub === 'config') {
    const url = c.args.find((a) => /^https?:\/\//i.test(a));
    if (url) push(out, c, hostOfUrl(url));
  }
}

const SCRIPT_RUNNERS = new Set(['python', 'python3', 'node', 'ruby', 'perl', 'php', 'deno', 'bun']);
// A host literal in an inline script: SMTP('mail.example.com', 587), connect(host="db1"), "10.0.0.5".
const QUOTED_HOST = /(?:\bhost(?:name)?\s?[=:]\s?|\b(?:SMTP|SMTP_SSL|FTP|FTP_TLS|IMAP4|IMAP4_SSL|POP3|connect|create_connection|Redis|MongoClient|createConnection|createClient)\(\s?)?(['"])([a-z0-9][a-z0-9.:-]{0,252})\1/gi;

/** Host literals of a `python -c` / `node -e` script: dotted names and addresses, or any value after `host=`. */
function scriptHosts(c: SimpleCommand, out: AddressedHost[]): void {
  const i = c.args.findIndex((a) => a === '-c' || a === '-e' || a === '--eval');
  const script = i >= 0 ? c.args[i + 1] : undefined;
  if (!script) return;
  for (const m of script.matchAll(QUOTED_HOST)) {
    const value = m[2] ?? '';
    const named = m[0].length > value.length + 2;
    if (!named && !/\.[a-z]{2,24}$|^\d{1,3}(?:\.\d{1,3}){3}$/i.test(value)) continue;
    push(out, c, hostOfWord(value));
  }
}

/** ssh-like clients: the destination (`[user@]host`, first operand) and every jump host (`-J`, `ProxyJump`). */
function sshHosts(c: SimpleCommand, out: AddressedHost[]): void {
  if (!['scp', 'rsync', 'sshfs', 'ansible', 'ansible-playbook'].includes(c.program)) {
    const t = sshTarget(c.args);
    if (t) push(out, c, hostOfWord(t));
  }
  // Jump hosts (`-J ops@jump:2222,bastion2`, `-o ProxyJump=...`): each is addressed too; the output says which refused.
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i] as string;
    const jumps = a === '-J' ? c.args[i + 1] : a.startsWith('-J') && a.length > 2 ? a.slice(2) : a === '-o' && /^ProxyJump[= ]/i.test(c.args[i + 1] ?? '') ? (c.args[i + 1] as string).slice(10) : undefined;
    if (jumps) for (const j of jumps.split(',')) push(out, c, hostOfWord(j));
  }
  // ansible's inline inventory (`-i 'nas,web1,'`).
  const inv = c.args.includes('-i') ? c.args[c.args.indexOf('-i') + 1] : undefined;
  if (c.program.startsWith('ansible') && inv?.includes(',')) for (const h of inv.split(',')) push(out, c, hostOfWord(h));
  if (c.program === 'scp' || c.program === 'rsync' || c.program === 'sshfs' || c.program === 'sftp') remoteOperands(c, out);
}

/** SMB shares (`smbclient //nas/backups`, `mount -t cifs //10.0.0.2/share`, `\\\\nas\\share`). */
function smbHosts(c: SimpleCommand, out: AddressedHost[]): void {
  for (const a of c.args) {
    const m = /^(?:\/\/|\\\\)([^/\\\s]{1,253})[/\\]/.exec(a);
    if (m) push(out, c, hostOfWord(m[1] ?? ''));
  }
}

/** kubectl/helm `--context`/`--cluster`/`--kube-context`: a cluster by its kubeconfig name. */
function kubeContext(c: SimpleCommand, out: AddressedHost[]): void {
  const v = c.args.map((a, i) => (/^--(?:kube-)?(?:context|cluster)$/.test(a) ? c.args[i + 1] : /^--(?:kube-)?(?:context|cluster)=/.test(a) ? a.slice(a.indexOf('=') + 1) : undefined)).find(Boolean);
  if (v && /^[a-z0-9][\w.@:-]{0,100}$/i.test(v)) push(out, c, v.toLowerCase());
}

/** `az acr login --name zetabank`: the registry zetabank.azurecr.io. */
function azureRegistry(c: SimpleCommand, out: AddressedHost[]): void {
  if (c.args[0] !== 'acr') return;
  const i = c.args.findIndex((a) => a === '--name' || a === '-n');
  const name = i >= 0 ? c.args[i + 1] : c.args.find((a) => a.startsWith('--name='))?.slice(7);
  if (name && /^[a-z0-9]{1,50}$/i.test(name)) push(out, c, `${name.toLowerCase()}.azurecr.io`);
}

/** kinit's principal `user@REALM`: the realm (lower case) stands for its KDCs. */
function kerberosRealm(c: SimpleCommand, out: AddressedHost[]): void {
  const principal = c.args.find((a) => !a.startsWith('-') && /^[\w.$/-]{1,64}@[A-Za-z0-9.-]{3,253}$/.test(a));
  if (principal) push(out, c, hostOfWord(principal.slice(principal.indexOf('@') + 1).toLowerCase()));
}

/** git's scp-like remotes: git@github.com:org/repo.git (URLs are read by flagHosts). */
function gitRemotes(c: SimpleCommand, out: AddressedHost[]): void {
  for (const a of c.args) {
    const m = /^[\w.-]{1,64}@([\w.-]{1,253}):(?!\/\/)/.exec(a);
    if (m) push(out, c, hostOfWord(m[1] ?? ''));
  }
}

const GENERIC_FLAGS = ['--url', '--endpoint-url', '--server', '--registry', '--index-url', '--address', '-address', '--host', '-connect', '-L'];

/** Proxies (`curl -x`, `wget -e https_proxy=`), host options of the client's family, conninfo words, URLs. */
function flagHosts(c: SimpleCommand, out: AddressedHost[]): void {
  const flags = [...(HOST_FLAGS[clientFamily(c.program)] ?? []), ...GENERIC_FLAGS];
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i] as string;
    if ((c.program === 'curl' && (a === '-x' || a === '--proxy' || a.startsWith('--proxy='))) || (c.program === 'wget' && a.startsWith('-e') && /proxy\s*=/.test(a))) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : c.args[i + 1];
      if (v) push(out, c, hostOfWord(v), true);
      if (!a.includes('=')) i++;
      continue;
    }
    const v = flagValue(c.args, i, flags);
    if (v !== null) {
      push(out, c, hostOfWord(v));
      continue;
    }
    // conninfo words: host=db port=5432 (psql "host=db dbname=x")
    for (const m of a.matchAll(/(?:^|[\s="'])(?:host|hostaddr|server|Server|Data Source|address|endpoint|url)\s?=\s?["']?([^\s;,"']{1,253})/g)) push(out, c, hostOfWord(m[1] ?? ''));
    if (/^[a-z][a-z0-9+.-]{1,15}:\/\//i.test(a)) push(out, c, hostOfUrl(a));
  }
}

/**
 * The scheme-less first operand of HTTP clients (`curl example.com/x`, httpie `http api.example.com/v1`,
 * grpcurl `host:443`) and of ftp/telnet/nc/lftp (`lftp ftp.example.com`); an option's value is never it.
 */
function operandHost(c: SimpleCommand, out: AddressedHost[]): void {
  const http = clientFamily(c.program) === 'http';
  if (out.length > 0 || !(http || OPERAND_HOST.has(c.program))) return;
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i] as string;
    if (a.startsWith('-')) {
      if (!a.includes('=') && !BOOLEAN_OPTS.has(a) && !/^-[a-zA-Z]{2,}$/.test(a)) i++;
      continue;
    }
    if (/^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(a) || (/^[\w-]+(?::=?|==?|@)/.test(a) && !/^[\w.-]+:\d/.test(a))) continue;
    const h = hostOfWord(a.split('/')[0] ?? '');
    if (h && (h.includes('.') || h.includes(':') || h === 'localhost' || !http)) push(out, c, h);
    return;
  }
}

/** The readers that apply to a command, in order: each adds the hosts it finds. */
function readers(c: SimpleCommand): ReadonlyArray<(c: SimpleCommand, out: AddressedHost[]) => void> {
  const fam = clientFamily(c.program);
  return [
    fam === 'ssh' ? sshHosts : null,
    SMB.has(c.program) ? smbHosts : null,
    c.program === 'kubectl' || c.program === 'oc' || c.program === 'helm' ? kubeContext : null,
    c.program === 'git' ? gitRemotes : null,
    c.program === 'az' ? azureRegistry : null,
    c.program === 'kinit' ? kerberosRealm : null,
    fam === 'registry' ? registryHosts : null,
    SCRIPT_RUNNERS.has(c.program) ? scriptHosts : null,
    flagHosts,
    operandHost,
  ].filter((r): r is (c: SimpleCommand, out: AddressedHost[]) => void => r !== null);
}

/**
 * Hosts a simple command addresses, most specific first: the environment it sets (PGHOST, https_proxy,
 * ...), then each reader that applies. Unknown programs still give the URLs among their words and the
 * values of `--host`/`--server`/`--url`/`--endpoint` style options.
 */
export function addressedHosts(c: SimpleCommand): AddressedHost[] {
  const out: AddressedHost[] = [];
  for (const k of HOST_ENV) if (c.env[k]) push(out, c, hostOfWord(c.env[k] as string));
  for (const k of PROXY_ENV) if (c.env[k]) push(out, c, hostOfWord(c.env[k] as string), true);
  for (const read of readers(c)) read(c, out);
  return out;
}
