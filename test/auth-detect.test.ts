/** Auth-failure detection, target extraction and hint formatting (pure core, src/core/auth). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import { BUILTIN_PATTERNS, compileCustomPatterns, detect, MAX_SCAN_CHARS, prefilter } from '../src/core/auth/patterns.js';
import { BUILTIN_PATTERN_LIST } from '../src/core/auth/patterns-builtin.js';
import { analyzeTurn } from '../src/core/auth/turn-analysis.js';
import { formatHint, redactSecrets, searchQuery } from '../src/core/auth/hint.js';

/** [family, tool output] — realistic multi-line output of real clients. */
const POSITIVES: ReadonlyArray<readonly [string, string]> = [
  ['ssh', 'OpenSSH_9.2p1 Debian-2+deb12u3, OpenSSL 3.0.15 3 Sep 2024\ndebug1: Authentications that can continue: publickey,password\nroot@10.0.0.5: Permission denied (publickey,password).\n'],
  ['ssh', 'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.'],
  ['ssh', "admin@bastion.example.net's password: \nPermission denied, please try again.\nadmin@bastion.example.net's password: "],
  ['ssh', '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key verification failed.\n'],
  ['ssh', 'Received disconnect from 10.1.2.3 port 22:2: Too many authentication failures\nDisconnected from 10.1.2.3 port 22'],
  ['ssh', 'debug1: Next authentication method: publickey,password\n'],
  ['database', 'psql: error: connection to server at "db.prod" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"\n'],
  ['database', "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)\n"],
  ['database', "Sqlcmd: Error: Microsoft ODBC Driver 18 for SQL Server : Login failed for user 'sa'..\n"],
  ['database', 'MongoServerError: Authentication failed.\n    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:202:30)'],
  ['database', '127.0.0.1:6379> GET foo\n(error) NOAUTH Authentication required.\n'],
  ['database', '(error) WRONGPASS invalid username-password pair or user is disabled.'],
  ['git', "remote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/acme/private.git/'\n"],
  ['git', "Cloning into 'private'...\nfatal: could not read Username for 'https://git.example.com': terminal prompts disabled\n"],
  ['http', '*   Trying 93.184.216.34:443...\n* Connected to api.example.com (93.184.216.34) port 443\n> GET /v1/me HTTP/1.1\n< HTTP/1.1 401 Unauthorized\n< www-authenticate: Bearer\n'],
  ['http', '< HTTP/2 403 \n< content-type: text/html\n'],
  ['http', 'curl: (22) The requested URL returned error: 403\n'],
  ['http', 'AxiosError: Request failed with status code 401\n    at settle (node_modules/axios/lib/core/settle.js:19:12)'],
  ['http', 'requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://api.example.com/v2/items'],
  ['http', 'Error: Forbidden\n    at handler (/srv/app.js:10:5)'],
  ['http', '{"error":"unauthorized","message":"missing credentials"}'],
  ['http', 'Forbidden\n'],
  ['http', 'gh: HTTP 401: Bad credentials (https://api.github.com/graphql)'],
  ['http', 'Response status code does not indicate success: 401 (Unauthorized).'],
  ['http', 'Error: failed to authorize: failed to fetch oauth token: unexpected status: 401 Unauthorized'],
  ['http', 'HTTP/1.1 407 Proxy Authentication Required\nProxy-Authenticate: Basic realm="proxy"'],
  // Anchored by the number alone: the prefilter's numeric pass must run these parts.
  ['http', 'curl: (56) CONNECT tunnel failed, response 407'],
  ['cloud', 'Error making API request.\n\nURL: PUT https://vault.corp.example:8200/v1/kv/data/app\nCode: 403. Errors:\n\n* 1 error occurred:'],
  ['api', 'openai.AuthenticationError: Error code: 401 - Incorrect API key provided: sk-proj-****abcd.'],
  ['api', '{"ok":false,"error":"invalid_auth"}'],
  ['api', 'Error: Invalid API key. Check your dashboard.'],
  ['api', 'Error: token expired at 2024-05-01T10:00:00Z'],
  ['api', 'jwt: token is invalid\n'],
  ['api', 'error: invalid token\n'],
  ['api', '{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}'],
  ['cloud', 'E1122 10:01:02.123456   4242 memcache.go:265] couldn\'t get current server API group list\nerror: You must be logged in to the server (Unauthorized)\n'],
  ['cloud', 'An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.'],
  ['cloud', 'An error occurred (ExpiredToken) when calling the ListBuckets operation: The provided token has expired.'],
  ['cloud', 'ERROR: (gcloud.compute.instances.list) There was a problem refreshing your current auth tokens: Reauthentication required.'],
  ['oauth', "google.auth.exceptions.RefreshError: ('invalid_grant: Token has been expired or revoked.', {'error': 'invalid_grant'})"],
  ['cloud', 'AADSTS700016: Application with identifier \'abc\' was not found in the directory.'],
  ['registry', 'npm error code E401\nnpm error Unable to authenticate, need: Basic realm="GitHub Package Registry"\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log'],
  ['registry', 'npm ERR! code E401\nnpm ERR! 401 Unauthorized - GET https://registry.example.com/pkg - authentication token not provided'],
  ['registry', 'Error response from daemon: Get "https://registry.example.com/v2/": unauthorized: authentication required'],
  ['registry', 'The push refers to repository [docker.io/acme/app]\ndenied: requested access to the resource is denied'],
  ['mail', 'smtplib.SMTPAuthenticationError: (535, b\'5.7.8 Username and Password not accepted.\')\n535 5.7.8 Authentication credentials invalid'],
  ['mail', 'a1 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)'],
  ['ftp', 'Connected to ftp.example.com.\n220 (vsFTPd 3.0.3)\n331 Please specify the password.\n530 Login incorrect.\nLogin failed.'],
  ['directory', 'ldap_bind: Invalid credentials (49)\n\tadditional info: 80090308: LdapErr: DSID-0C09044E'],
  ['oauth', '{"error":"invalid_client","error_description":"Client authentication failed"}'],
  ['oauth', '{"error":"unauthorized_client"}'],
];

/** Ordinary text that mentions the words without an authentication failure. */
const NEGATIVES: readonly string[] = [
  'cat: /etc/shadow: Permission denied',
  "Error: EACCES: permission denied, open '/var/log/app.log'",
  'mkdir: cannot create directory \'/opt/x\': Permission denied',
  'total: 401.00 EUR',
  'GET /health 200 403 ms',
  'listening on port 4013',
  'Eve ate the forbidden fruit.',
  'class UnauthorizedError extends Error {}',
  'if (forbidden) return;',
  'throw new ForbiddenException()',
  'processed 401 records in 403 batches',
  'const forbidden = new Set(); // keys that are forbidden: see docs',
  'http 403 ms p99',
  // Status codes in source code, grep output, test listings and docs tables; rate limits served as 403.
  "src/routes/auth.ts:42:    return res.status(401).json({ error: 'Unauthorized' });",
  "  it('returns 401 Unauthorized without a token', async () => {",
  ' ✓ test/api.test.ts > rejects a viewer with 403 Forbidden (4 ms)',
  '| 401 | invalid token | the bearer token did not verify |',
  'expect(res.status).toBe(403);',
  'HTTP/2 403 \nx-ratelimit-remaining: 0\n{"message":"API rate limit exceeded for 203.0.113.9."}',
  '{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","status":"403"}',
  "$ mosquitto_pub -h broker -t status -m 'HTTP 401 from sensor gateway, retrying'",
  'We discussed authentication and tokens at the meeting; the API is stable.',
];

describe('built-in detection', () => {
  /** One example per built-in pattern id: each must be named by exactly that pattern. */
  const EXAMPLES: Record<string, string> = {
    'ssh-permission-denied': 'root@10.0.0.5: Permission denied (publickey,gssapi-keyex,gssapi-with-mic,password).',
    'ssh-permission-denied-retry': 'Permission denied, please try again.',
    'ssh-publickey-password': 'debug1: Authentications that can continue: publickey,password',
    'ssh-host-key-verification': 'Host key verification failed.',
    'ssh-too-many-failures': 'Received disconnect from 10.1.2.3 port 22:2: Too many authentication failures',
    'postgres-password-failed': 'FATAL:  password authentication failed for user "app"',
    'mysql-access-denied': "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
    'mssql-login-failed': "Login failed for user 'sa'.",
    'mongodb-auth-failed': 'MongoServerError: bad auth : Authentication failed.',
    'redis-noauth': '(error) NOAUTH Authentication required.',
    'auth-failed': 'sshpass: Authentication failed',
    'git-https-auth-failed': "fatal: Authentication failed for 'https://github.com/o/r.git/'",
    'git-no-terminal': "fatal: could not read Password for 'https://bob@git.example.com': No such device or address",
    'http-status-line': '< HTTP/1.1 407 Proxy Authentication Required',
    'http-status-reason': 'GET /admin -> 403 Forbidden',
    'http-status-code': 'Error: Request failed with statusCode=401',
    'http-proxy-auth': 'curl: (56) CONNECT tunnel failed, Proxy Authentication Required',
    'http-word-response': 'error: Unauthorized',
    'http-word-after-label': 'Error: unauthorized',
    'http-word-json': '{"detail": "Forbidden"}',
    'api-invalid-key': 'Error: api_key is invalid',
    'api-token-expired': 'Your access token has expired',
    'api-token-invalid': 'error=invalid_token',
    'api-invalid-auth': '{"ok":false,"error":"invalid_auth"}',
    'api-auth-required': 'authentication required',
    'kubectl-logged-in': 'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
    'aws-token': 'An error occurred (SignatureDoesNotMatch) when calling the GetObject operation',
    'gcloud-reauth': 'Reauthentication failed. cannot prompt during non-interactive execution.',
    'azure-aadsts': 'AADSTS50126: Error validating credentials due to invalid username or password.',
    'npm-e401': 'npm ERR! code E401',
    'docker-denied': 'Error response from daemon: unauthorized: incorrect username or password',
    'smtp-535': '535 5.7.8 Error: authentication failed: authentication failure',
    'imap-authenticationfailed': 'a1 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)',
    'ftp-530': '530 Not logged in.',
    'ldap-invalid-credentials': 'ldap_bind: Invalid credentials (49)',
    'oauth-error': '{"error":"unauthorized_client","error_description":"Client not allowed"}',
    'api-bad-credentials': '{"message": "Bad credentials"}',
    'postgres-no-password': 'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: fe_sendauth: no password supplied',
    'database-permission-denied': 'ERROR:  permission denied for table invoices',
    'redis-noperm': "(error) NOPERM User reporter has no permissions to run the 'set' command",
    'mqtt-not-authorised': 'Connection error: Connection Refused: not authorised.',
    'rsync-auth-failed': '@ERROR: auth failed on module backups',
    'git-http-basic-denied': 'remote: HTTP Basic: Access denied',
    'http-requires-auth': 'Error refreshing state: HTTP remote state endpoint requires auth',
    'api-missing-key': "You didn't provide an API key. You need to provide your API key in an Authorization header.",
    'api-authentication-error': '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    'aws-access-denied': 'An error occurred (AccessDenied) when calling the ListBuckets operation: Access Denied',
    'gcp-denied': 'ERROR: (gcloud.storage.ls) PERMISSION_DENIED: The caller does not have permission',
    'azure-auth-failed': "(AuthorizationFailed) The client 'ci' with object id '1' does not have authorization to perform action 'Microsoft.Resources/subscriptions/read'",
    'vault-denied': 'Error making API request.\n\nURL: GET https://vault.corp.example:8200/v1/secret/data/app\nCode: 403. Errors:\n\n* permission denied',
    'smtp-login-denied': 'curl: (67) Login denied',
    'login-failed': 'X Failed to log in to github.com using token (GH_TOKEN)',
    'api-not-authenticated': '{"detail":"Not authenticated"}',
    'grpc-unauthenticated': 'rpc error: code = Unauthenticated desc = invalid token',
    'kerberos-preauth': 'kinit: Preauthentication failed while getting initial credentials',
    'mysql-command-denied': "ERROR 1142 (42000) at line 1: DELETE command denied to user 'report'@'10.1.2.3' for table `orders`",
    'unable-to-authenticate': 'hcloud: unable to authenticate your API token (unauthorized)',
    'kube-forbidden': 'Error: secrets is forbidden: User "ci-deployer" cannot list resource "secrets" in API group "" in the namespace "payments"',
    'smb-logon-failure': 'session setup failed: NT_STATUS_LOGON_FAILURE',
    'permission-to-view': "remote: The project you were looking for could not be found or you don't have permission to view it.",
    'http-exception-status': "google.api_core.exceptions.PermissionDenied: 403 Permission 'secretmanager.versions.access' denied",
    'credential-prompt-eof': 'User for pypi.corp.example: \nERROR: Exception:\nTraceback (most recent call last):\nEOFError: EOF when reading a line',
    'amqp-access-refused': "pika.exceptions.ProbableAuthenticationError: ConnectionClosedByBroker: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN.'",
  };

  it('every built-in pattern has an example it names, and the prefilter passes it', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(BUILTIN_PATTERNS.map((p) => p.id).sort());
    for (const [id, text] of Object.entries(EXAMPLES)) {
      expect(detect(text, BUILTIN_PATTERNS)?.patternId, text).toBe(id);
      expect(prefilter(text), text).toBe(true);
      // The prefilter is case-insensitive like the patterns.
      expect(prefilter(text.toUpperCase()), text).toBe(true);
    }
  });

  it("each example carries one of its own pattern's anchors (the prefilter's contract, pattern by pattern)", () => {
    for (const [id, text] of Object.entries(EXAMPLES)) {
      const pat = BUILTIN_PATTERN_LIST.find((p) => p.id === id);
      expect(pat?.anchors.some((a) => text.toLowerCase().includes(a)), `${id}: ${text}`).toBe(true);
    }
    for (const [, text] of POSITIVES) {
      const d = detect(text, BUILTIN_PATTERNS);
      const pat = BUILTIN_PATTERN_LIST.find((p) => p.id === d?.patternId);
      expect(pat?.anchors.some((a) => text.toLowerCase().includes(a)), `${d?.patternId}: ${text}`).toBe(true);
    }
  });

  it('every built-in pattern id is in the table of docs/auth-recall.md', () => {
    const doc = readFileSync(new URL('../docs/auth-recall.md', import.meta.url), 'utf8');
    for (const p of BUILTIN_PATTERNS) expect(doc, p.id).toMatch(new RegExp(`^\\| ${p.id} \\|`, 'm'));
  });

  it.each(POSITIVES)('detects a %s failure', (family, text) => {
    const d = detect(text, BUILTIN_PATTERNS);
    expect(d, text).not.toBeNull();
    expect(d?.family, `${d?.patternId} for ${text}`).toBe(family);
    expect(text.slice(d?.index, (d?.index ?? 0) + (d?.match.length ?? 0))).toBe(d?.match);
  });

  it('names the tool family where a tool-specific pattern applies', () => {
    expect(detect(POSITIVES[6]![1], BUILTIN_PATTERNS)?.patternId).toBe('postgres-password-failed');
    expect(detect("fatal: Authentication failed for 'https://x.example/r.git'", BUILTIN_PATTERNS)?.patternId).toBe('git-https-auth-failed');
    expect(detect('a1 NO [AUTHENTICATIONFAILED] bad', BUILTIN_PATTERNS)?.family).toBe('mail');
    expect(detect('root@h: Permission denied (publickey).', BUILTIN_PATTERNS)?.patternId).toBe('ssh-permission-denied');
  });

  it.each(NEGATIVES)('does not fire on %j', (text) => {
    expect(detect(text, BUILTIN_PATTERNS)).toBeNull();
  });

  it('the prefilter never drops a built-in positive', () => {
    for (const [, text] of POSITIVES) expect(prefilter(text), text).toBe(true);
    // Each positive also passes when buried in a large turn.
    const filler = 'INFO request served in 12ms path=/api/items status=200\n'.repeat(1500);
    for (const [, text] of POSITIVES) expect(prefilter(filler + text)).toBe(true);
  });

  it('returns the earliest match by position, ties to the first pattern', () => {
    const d = detect('x\nHTTP/1.1 403 Forbidden\nlater: Permission denied (publickey)', BUILTIN_PATTERNS);
    expect(d?.family).toBe('http');
    expect(d?.index).toBe(2);
  });

  it('finds nothing in 100 KB of ordinary logs', () => {
    const lines = [
      '2024-05-01T10:00:00.123Z INFO  http GET /api/items?page=2 200 12ms bytes=4013',
      '2024-05-01T10:00:00.456Z DEBUG cache hit key=user:42 ttl=300',
      '2024-05-01T10:00:01.001Z WARN  slow query took 403 ms: SELECT * FROM orders WHERE id = $1',
      '2024-05-01T10:00:02.777Z INFO  worker 3 processed 401 jobs (avg 1.25 ms)',
    ];
    let log = '';
    for (let i = 0; log.length < 100_000; i++) log += `${lines[i % lines.length]}\n`;
    expect(detect(log, BUILTIN_PATTERNS)).toBeNull();
  });

  it(`scans only the last MAX_SCAN_CHARS (${MAX_SCAN_CHARS}) characters and reports indexes in the full text`, () => {
    const early = 'Permission denied (publickey).\n' + 'x'.repeat(MAX_SCAN_CHARS);
    expect(detect(early, BUILTIN_PATTERNS)).toBeNull();
    const late = 'y'.repeat(MAX_SCAN_CHARS * 2) + '\nHost key verification failed.';
    const d = detect(late, BUILTIN_PATTERNS);
    expect(d?.index).toBe(MAX_SCAN_CHARS * 2 + 1);
  });
});

describe('hostile input', () => {
  // No timing assertion (bench/ measures speed); these complete well inside the test timeout only
  // because every regex involved is linear and the scan is bounded.
  const N = MAX_SCAN_CHARS * 2;
  const HOSTILE = ['a'.repeat(N), ' '.repeat(N), `Permission denied (${'publickey,'.repeat(N / 10)}`, 'status '.repeat(N / 7),
    '401 '.repeat(N / 4), 'x.'.repeat(N / 2), 'a@'.repeat(N / 2), '1.2.3.'.repeat(N / 6), 'ab:'.repeat(N / 3), 'http://'.repeat(N / 7),
    'for a '.repeat(N / 6), ':'.repeat(N), `eyJ${'a'.repeat(N)}`, 'password: '.repeat(N / 10), 'aB1+'.repeat(N / 4), `-----BEGIN RSA PRIVATE KEY-----${'A'.repeat(N)}`];
  it.each(HOSTILE.map((h) => [JSON.stringify(h.slice(0, 16)), h] as const))('handles %s', (_name, text) => {
    // As a tool result, as the tool call that produced it, and as a prompt: every reader of the turn.
    const segments = [{ role: 'call', text, call: null }, { role: 'result', text, call: text }, { role: 'prompt', text, call: null }] as const;
    expect(() => analyzeTurn(segments, BUILTIN_PATTERNS, true)).not.toThrow();
    expect(typeof redactSecrets(text)).toBe('string');
  });
});

describe('custom patterns', () => {
  it('compile case-insensitively with custom ids', () => {
    const pats = compileCustomPatterns(['login failed', 'denied.*publickey']);
    expect(pats.map((p) => [p.id, p.family])).toEqual([['custom-0', 'custom'], ['custom-1', 'custom']]);
    expect(detect('LOGIN FAILED for bob', pats)?.patternId).toBe('custom-0');
    expect(detect('Access DENIED by server (publickey)', pats)?.patternId).toBe('custom-1');
  });

  function refusal(sources: string[]): MemoryError {
    try {
      compileCustomPatterns(sources);
    } catch (err) {
      expect(err).toBeInstanceOf(MemoryError);
      return err as MemoryError;
    }
    throw new Error(`accepted ${JSON.stringify(sources)}`);
  }

  it('refuses an invalid regex, naming its index and the parse error', () => {
    const err = refusal(['ok', '(unclosed']);
    expect(err.code).toBe('MEM_ERR_CONFIG_INVALID');
    expect(err.message).toContain('plugins.entries.hybrid-mem.config.autoRecall.authFailure.patterns.1');
    expect(err.message).toMatch(/Unterminated group/);
  });

  it.each(['^(a+)+$', '(a|aa)+$', '(.*)*x', '(a*)*', '(a|a)*', '(.*a){12}', '(\\w+\\s?)+$', '.*.*=.*', '(?:x+y?)+z'])('refuses %s as catastrophic backtracking', (src) => {
    const err = refusal(['fine', src]);
    expect(err.code).toBe('MEM_ERR_CONFIG_INVALID');
    expect(err.message).toContain('authFailure.patterns.1');
    expect(err.message).toMatch(/backtrack/);
    expect(err.message).toMatch(/Rewrite/);
  });

  it.each(['login failed', 'denied.*publickey', 'HTTP/\\d\\.\\d 40[13]', '(?:access|permission) denied', 'auth(entication)? failed .{0,40}user', '\\bE40[13]\\b', '(ab)+c', '[a-z]+@[a-z.]+: denied'])('accepts %s', (src) => {
    expect(compileCustomPatterns([src])).toHaveLength(1);
  });
});

describe('target extraction', () => {
  const target = (text: string) => analyzeTurn([{ role: 'result', text, call: null }], BUILTIN_PATTERNS, true).target;

  it('prefers an IP address', () => {
    expect(target(POSITIVES[0]![1])).toEqual({ target: '10.0.0.5', kind: 'ip', aliases: [] });
  });
  it('takes the host of user@host, dropping the user and the port', () => {
    expect(target("ssh -p 2222 Deploy@Bastion.Example.NET.\nDeploy@bastion.example.net: Permission denied (publickey).")).toMatchObject({ target: 'bastion.example.net', kind: 'host' });
    expect(target("admin@bastion.example.net's password: \nPermission denied, please try again.")?.target).toBe('bastion.example.net');
    expect(target('$ scp backup.tgz ops@files.internal:/srv/\nHost key verification failed.')?.target).toBe('files.internal');
  });
  it('does not take an email address in prose as user@host', () => {
    const t = target('Contact bob@example.com if this persists.\nError: Invalid API key for Stripe service');
    expect(t).toEqual({ target: 'stripe', kind: 'service', aliases: [] });
  });
  it('does not take a package@version as user@host', () => {
    const t = target('added lodash@4.17.21 and @scope/pkg@1.2.3\nnpm error code E401\nnpm error 401 Unauthorized - GET https://npm.acme.dev/@scope%2fpkg');
    expect(t).toMatchObject({ target: 'npm.acme.dev', aliases: [] });
  });
  it('takes the URL host, not a documentation link', () => {
    const out = "Cloning into 'repo'...\nremote: Support for password authentication was removed. see https://docs.github.com/en/get-started for more.\nfatal: Authentication failed for 'https://git.acme.io:8443/team/repo.git/'";
    expect(target(out)).toMatchObject({ target: 'git.acme.io', aliases: [] });
    const npm = 'npm error code E401\nnpm error Incorrect or missing password.\nnpm error If you were trying to login, see https://docs.npmjs.com/cli/login\nnpm error GET https://registry.acme.dev/left-pad';
    expect(target(npm)?.target).toBe('registry.acme.dev');
  });
  it('falls back to a service phrase, lower-cased', () => {
    expect(target('Error: token expired for GitHub service')).toEqual({ target: 'github', kind: 'service', aliases: [] });
  });
  it('takes the name the agent addressed, keeping the address it resolved to as an alias', () => {
    expect(target('ssh: connect to host db.prod (10.0.0.5)\nroot@db.prod: Permission denied (publickey).')).toEqual({ target: 'db.prod', kind: 'host', aliases: ['10.0.0.5'] });
    expect(target(POSITIVES[14]![1])).toEqual({ target: 'api.example.com', kind: 'host', aliases: ['93.184.216.34'] });
    expect(target(POSITIVES[6]![1])).toEqual({ target: 'db.prod', kind: 'host', aliases: ['10.0.0.5'] });
  });
  it('finds IPv6 addresses and ignores versions and times', () => {
    expect(target('ssh admin@[2001:db8::7]\nadmin@2001:db8::7: Permission denied (publickey).')?.target).toBe('2001:db8::7');
    expect(target('node v20.11.1.4 at 12:34:56\nError: invalid token')).toBeNull();
  });
  it('ranks a documentation link below a named service', () => {
    expect(target('Error: Invalid API key for the OpenAI service. See https://platform.openai.com/account/api-keys')).toEqual({ target: 'openai', kind: 'service', aliases: [] });
  });
  it("takes a database client's -h host, not MySQL's client address in 'user'@'host'", () => {
    expect(target("$ mysql -h mysql.prod.acme.net -u root -p\nERROR 1045 (28000): Access denied for user 'root'@'10.2.3.4' (using password: YES)"))
      .toEqual({ target: 'mysql.prod.acme.net', kind: 'host', aliases: [] });
    expect(target("ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)")).toBeNull();
  });
  it('pairs hostnames with IPs in ssh known-hosts and wget forms', () => {
    expect(target("Warning: Permanently added 'db.prod,10.0.0.5' (ED25519) to the list of known hosts.\nroot@db.prod: Permission denied (publickey).")).toEqual({ target: 'db.prod', kind: 'host', aliases: ['10.0.0.5'] });
    expect(target('Connecting to example.com (example.com)|93.184.216.34|:443... connected.\nHTTP request sent, awaiting response... 401 Unauthorized')).toEqual({ target: 'example.com', kind: 'host', aliases: ['93.184.216.34'] });
  });
  it('prefers the user@host nearest the failure over an earlier email address', () => {
    expect(target('Please email admin@acme.com.\n$ ssh deploy@web1.acme.net\ndeploy@web1.acme.net: Permission denied (publickey).')?.target).toBe('web1.acme.net');
  });
  it('returns null when nothing names a target', () => {
    expect(target('Forbidden\n')).toBeNull();
  });
});

describe('hint', () => {
  it('has exactly the spec format', () => {
    const hint = formatHint('10.0.0.5', [
      { kind: 'fact', text: 'SSH to 10.0.0.5 as deploy\n  with the key in ~/.ssh/deploy_ed25519' },
      { kind: 'vault', service: 'prod-db', type: 'password' },
    ]);
    expect(hint).toBe([
      '💡 Memory has credentials for `10.0.0.5`:',
      '1. SSH to 10.0.0.5 as deploy with the key in ~/.ssh/deploy_ed25519',
      '2. Credential for `prod-db` (`password`), stored in secure vault, use `credential_get(service=prod-db)` to retrieve.',
    ].join('\n'));
  });
  it('is empty with no items, and clips long lines', () => {
    expect(formatHint('x', [])).toBe('');
    const line = formatHint('x', [{ kind: 'fact', text: 'word '.repeat(100) }]).split('\n')[1] ?? '';
    expect(line.length).toBeLessThanOrEqual(205);
    expect(line.endsWith('…')).toBe(true);
  });
  it('builds the search query from target, aliases and the credential terms', () => {
    expect(searchQuery({ target: '10.0.0.5', kind: 'ip', aliases: ['db.prod'] })).toBe('10.0.0.5 db.prod credential password token key auth');
  });
});

describe('redaction', () => {
  const CANARIES = [
    ['db.prod password: Canary-Pw-7731', 'Canary-Pw-7731'],
    ['the password for db.prod is hunter2canary', 'hunter2canary'],
    ['api_key=canaryKEY123', 'canaryKEY123'],
    ['token: "tok-canary-99"', 'tok-canary-99'],
    ["db_pass = 'canary words here'", 'canary words'],
    ['aws AKIAIOSFODNN7CANARY1 in us-east-1', 'AKIAIOSFODNN7CANARY1'],
    ['use ghp_CanaryCanaryCanaryCanary1234567890', 'ghp_CanaryCanaryCanaryCanary1234567890'],
    ['slack xoxb-1234-5678-CanarySlackToken', 'xoxb-1234-5678-CanarySlackToken'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlY2FuYXJ5', 'eyJzdWIiOiJjYW5hcnkifQ'],
    ['Authorization: Bearer canaryBearerValue123', 'canaryBearerValue123'],
    ['clone https://deploy:CanaryUrlPass@git.acme.io/r.git', 'CanaryUrlPass'],
    ['secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYCANARYKEY stored', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYCANARYKEY'],
    ['key -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAACANARY\n-----END OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAACANARY'],
    // An Azure DevOps PAT (52 characters in one case, base32): no keyword needed.
    ["here's the PAT I'm using: k4dq2x7mzv3rjw6tplb5hyn2cqa7fse4ugo6ixk3wlm5tpza7bq2", 'k4dq2x7mzv3rjw6tplb5hyn2cqa7fse4ugo6ixk3wlm5tpza7bq2'],
    ['TOTP seed JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP7Q2A', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP7Q2A'],
  ] as const;

  it.each(CANARIES)('redacts %j', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
    expect(formatHint('t', [{ kind: 'fact', text }])).not.toContain(secret);
  });

  it('keeps ordinary words and hostnames', () => {
    const text = 'SSH to db.prod.example.com as deploy; the key is in the vault, password rotated monthly, key: ~/.ssh/deploy_ed25519';
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('https://git.acme.io/team/repo.git')).toBe('https://git.acme.io/team/repo.git');
    // The name of a place for secrets is not a secret; a capitalised made-up word still is.
    expect(redactSecrets('the key file lives only in Secret Manager as app-admin-sa')).toBe('the key file lives only in Secret Manager as app-admin-sa');
    expect(redactSecrets('password Hunter2x')).toBe('password [redacted]');
    // Long one-case names that read as words are no secrets.
    for (const text of ['the package is supercalifragilisticexpialidocious2024', 'bucket acmeproductionbackupsarchive2025eu stays']) expect(redactSecrets(text)).toBe(text);
  });
});

describe('redaction of secrets on command lines (turn excerpts hold the failing command)', () => {
  it('redacts options, sshpass, mysql -p, curl -u and environment assignments, keeping the rest', () => {
    const cases: [string, string][] = [
      ['sshpass -p Sup3r-Secret ssh ops@10.0.4.7', 'sshpass -p [redacted] ssh ops@10.0.4.7'],
      ["sshpass -p 'two words' ssh ops@h", 'sshpass -p [redacted] ssh ops@h'],
      ['mysql -h db1 -u root -pHunter2x app', 'mysql -h db1 -u root -p[redacted] app'],
      ['vault login --token=s.Abc123 -method=token', 'vault login --token=[redacted] -method=token'],
      ['psql --password hunter2 -h db', 'psql --password [redacted] -h db'],
      ['curl -u deploy:t0ps3cret https://api.example.com/v1', 'curl -u deploy:[redacted] https://api.example.com/v1'],
      ['PGPASSWORD=hunter2 psql -h db.prod -U app', 'PGPASSWORD=[redacted] psql -h db.prod -U app'],
      ['GITHUB_TOKEN=abc123 gh api /user', 'GITHUB_TOKEN=[redacted] gh api /user'],
      ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI aws s3 ls', 'AWS_SECRET_ACCESS_KEY=[redacted] aws s3 ls'],
    ];
    for (const [text, want] of cases) expect(redactSecrets(text)).toBe(want);
    // Ports, paths and ordinary flags stay as written.
    for (const text of ['ssh -p 2222 ops@h', 'scp -P 2222 a b', 'mkdir -p /var/lib/app', 'docker run -p 8080:80 web', 'mysql -h db1 -u root -p app', 'curl -u deploy https://x']) expect(redactSecrets(text)).toBe(text);
  });
});

describe('redaction of a value right after the word password', async () => {
  const { redactSecrets } = await import('../src/core/auth/redact.js');
  it('masks tokens with digits, symbols or capitals, keeps prose', () => {
    expect(redactSecrets('SSH to 10.0.4.7 uses the ops key; password hunter2')).toBe('SSH to 10.0.4.7 uses the ops key; password [redacted]');
    expect(redactSecrets('the password Tr0ub4dor&3 works')).not.toContain('Tr0ub4dor');
    expect(redactSecrets('password in the team vault')).toBe('password in the team vault');
    expect(redactSecrets('password authentication failed for user')).toBe('password authentication failed for user');
  });
});
