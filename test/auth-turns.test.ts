/**
 * Auth-failure recall on whole agent turns (issue 15): the target is the host the agent addressed, read
 * from the tool call, a command line in the prompt or an earlier message; the hint lists the credential
 * facts that help log in to it, however memory names the host. Real SQLite, real recall worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_PATTERNS } from '../src/core/auth/patterns.js';
import { analyzeTurn } from '../src/core/auth/turn-analysis.js';
import { MemoryService } from '../src/memory/service.js';
import { AuthRecallHook } from '../src/recall/hook.js';
import { turnSegments } from '../src/recall/turn.js';
import { tempHome, type TestHome } from './helpers.js';

/** The target (and aliases) the turn reader finds, without the store. */
function read(prompt: string, messages: unknown[]): { detected: string | null; target: string | null; aliases: readonly string[] } {
  const r = analyzeTurn(turnSegments({ prompt, messages }), BUILTIN_PATTERNS, true);
  return { detected: r.detection?.patternId ?? null, target: r.target?.target ?? null, aliases: r.target?.aliases ?? [] };
}

/** An OpenClaw-style exec call and its result. */
const exec = (id: string, command: string, output: string): unknown[] => [
  { role: 'assistant', content: [{ type: 'toolCall', id, name: 'exec', arguments: { command } }] },
  { role: 'toolResult', toolCallId: id, toolName: 'exec', content: [{ type: 'text', text: output }] },
];

describe('target: the host the agent addressed', () => {
  it('reads the host from the tool call when the output names none (OpenClaw, OpenAI, Anthropic, Responses shapes)', () => {
    const cmd = 'curl -sS -u deploy:$PW https://artifacts.corp.example:8443/api/v1/upload';
    const out = '401 Unauthorized';
    expect(read('', exec('c1', cmd, out)).target).toBe('artifacts.corp.example');
    expect(read('', [
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: cmd }) } }] },
      { role: 'tool', tool_call_id: 'a', content: out },
    ]).target).toBe('artifacts.corp.example');
    expect(read('', [
      { role: 'assistant', content: [{ type: 'text', text: 'Uploading.' }, { type: 'tool_use', id: 't', name: 'bash', input: { command: cmd } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: out }] }] },
    ]).target).toBe('artifacts.corp.example');
    expect(read('', [{ type: 'function_call', call_id: 'r', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', cmd] }) }, { type: 'function_call_output', call_id: 'r', output: out }]).target)
      .toBe('artifacts.corp.example');
  });

  it('matches a result to its own call when several ran', () => {
    const messages = [
      { role: 'assistant', content: [{ type: 'toolCall', id: 'a', name: 'exec', arguments: { command: 'ssh deploy@web1.corp.example uptime' } }, { type: 'toolCall', id: 'b', name: 'exec', arguments: { command: 'psql -h pg-analytics.corp.example -U reporter -c "select 1"' } }] },
      { role: 'toolResult', toolCallId: 'a', content: ' 10:01:02 up 3 days' },
      { role: 'toolResult', toolCallId: 'b', content: 'psql: error: FATAL:  password authentication failed for user "reporter"' },
    ];
    expect(read('', messages)).toMatchObject({ detected: 'postgres-password-failed', target: 'pg-analytics.corp.example' });
  });

  it('parses the common clients: ssh -p, scp, rsync, mysql -h, redis-cli, mongosh URIs, sqlcmd -S, ldapsearch -H, mosquitto -h, docker images, --endpoint-url', () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['ssh -p 2222 -i ~/.ssh/id_ed25519 admin@bastion.corp.example', 'Permission denied (publickey).', 'bastion.corp.example'],
      ['scp -P 2222 build.tgz ops@files01:/srv/drop/', 'ops@files01: Permission denied (publickey,password).', 'files01'],
      ['RSYNC_PASSWORD=x rsync -av rsync://backup@nas.corp.example/backups/ ./restore/', '@ERROR: auth failed on module backups', 'nas.corp.example'],
      ['mysql -h mysql-primary.corp.example -u app -p', "ERROR 1045 (28000): Access denied for user 'app'@'10.9.8.7' (using password: YES)", 'mysql-primary.corp.example'],
      ['redis-cli -h cache-01.corp.example -p 6380 --user reporter --pass x SET k v', "(error) NOPERM User reporter has no permissions to run the 'set' command", 'cache-01.corp.example'],
      ['mongosh "mongodb://app@mongo-a.corp.example:27017/app?authSource=admin"', 'MongoServerError: Authentication failed.', 'mongo-a.corp.example'],
      ['sqlcmd -S tcp:mssql.corp.example,1433 -U sa -P x -Q "select 1"', "Login failed for user 'sa'.", 'mssql.corp.example'],
      ["ldapsearch -x -H ldaps://ldap.corp.example -D 'cn=admin,dc=corp' -w x", 'ldap_bind: Invalid credentials (49)', 'ldap.corp.example'],
      ['mosquitto_pub -h mqtt.plant.example -u sensor -P x -t t -m 1', 'Connection error: Connection Refused: not authorised.', 'mqtt.plant.example'],
      ['docker pull registry.corp.example:5000/team/api:1.4', 'Error response from daemon: no basic auth credentials', 'registry.corp.example'],
      ['aws s3 ls --endpoint-url https://minio.corp.example:9000', 'An error occurred (AccessDenied) when calling the ListBuckets operation: Access Denied', 'minio.corp.example'],
      ['PGHOST=pg.corp.example psql -U app', 'psql: error: connection to server at "pg.corp.example" (10.1.1.5), port 5432 failed: fe_sendauth: no password supplied', 'pg.corp.example'],
      ['git clone git@gitlab.corp.example:team/repo.git', 'git@gitlab.corp.example: Permission denied (publickey).', 'gitlab.corp.example'],
      ['npm publish --registry https://npm.corp.example/', 'npm error code E401\nnpm error Unable to authenticate, need: Basic realm="npm"', 'npm.corp.example'],
    ];
    for (const [cmd, out, want] of cases) expect(read('', exec('x', cmd, out)).target, cmd).toBe(want);
  });

  it('keeps the name the agent used, with the address it resolved to as an alias', () => {
    const r = read('', exec('p', 'psql -h db-prod.internal -U app appdb', 'psql: error: connection to server at "db-prod.internal" (10.20.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"'));
    expect(r).toMatchObject({ target: 'db-prod.internal', aliases: ['10.20.0.5'] });
    const curl = read('', exec('c', 'curl -v https://api.internal.example/v1/me', '*   Trying 10.3.3.3:443...\n* Connected to api.internal.example (10.3.3.3) port 443\n< HTTP/1.1 401 Unauthorized'));
    expect(curl).toMatchObject({ target: 'api.internal.example', aliases: ['10.3.3.3'] });
    // An address the agent typed itself is the target.
    expect(read('', exec('s', 'ssh root@10.0.4.7', 'root@10.0.4.7: Permission denied (publickey).')).target).toBe('10.0.4.7');
  });

  it('never takes a documentation, account or registry web page when the turn names the service host', () => {
    const openai = "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.'}}";
    expect(read('', exec('o', 'curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"', openai)).target).toBe('api.openai.com');
    expect(read('', exec('o', 'python3 summarize.py', openai)).target).toBe('openai');
    const gh = '{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}';
    expect(read('', exec('g', 'curl -H "Authorization: token $GH" https://api.github.com/user', gh)).target).toBe('api.github.com');
    const npm = 'npm error code E401\nnpm error 401 Unauthorized - GET https://npm.corp.example/@acme%2fui - authentication token not provided\nnpm error see https://www.npmjs.com/package/@acme/ui and https://docs.npmjs.com/cli/login';
    expect(read('', exec('n', 'npm install', npm)).target).toBe('npm.corp.example');
  });

  it('takes bare host names in known positions', () => {
    const changed = '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key for build01 has changed and you have requested strict checking.\nHost key verification failed.';
    expect(read('', [{ role: 'tool', content: changed }]).target).toBe('build01');
    expect(read('', [{ role: 'tool', content: 'X Failed to log in to github.example.com using token (GH_TOKEN)\n- The token in GH_TOKEN is invalid.' }]).target).toBe('github.example.com');
    expect(read('', [{ role: 'tool', content: 'The push refers to repository [ghcr.example.com/acme/app]\ndenied: requested access to the resource is denied' }]).target).toBe('ghcr.example.com');
  });

  it('reads a command line written only in the prompt', () => {
    const r = read('Please run `psql -h reports-db.corp.example -U analyst sales` and fix whatever fails.', [{ role: 'tool', content: 'FATAL:  password authentication failed for user "analyst"' }]);
    expect(r.target).toBe('reports-db.corp.example');
    expect(read('ssh deploy@web7.corp.example and restart nginx', [{ role: 'tool', content: 'Permission denied, please try again.' }]).target).toBe('web7.corp.example');
  });

  it('falls back to the newest earlier message that names a host, and reads a kubeconfig shown in the turn', () => {
    const messages = [...exec('a', 'ssh admin@bastion.corp.example uptime', 'admin@bastion.corp.example: Permission denied (publickey).'), ...exec('b', './deploy.sh', 'Authentication failed')];
    expect(read('try again', messages).target).toBe('bastion.corp.example');
    const kube = [{ role: 'tool', content: 'apiVersion: v1\nclusters:\n- cluster:\n    server: https://k8s-prod.corp.example:6443\n  name: prod' }, ...exec('k', 'kubectl get pods', 'error: You must be logged in to the server (Unauthorized)')];
    expect(read('', kube).target).toBe('k8s-prod.corp.example');
  });

  it('reads bracketed host:port, config files shown in the turn, credential prompts and implied registries', () => {
    expect(read('', [{ role: 'tool', content: 'Host key for [git.acme.io]:2222 has changed and you have requested strict checking.\nHost key verification failed.' }]).target).toBe('git.acme.io');
    const tf = [{ role: 'tool', content: 'terraform {\n  backend "http" {\n    address = "https://state.acme.io/v1/stacks/net"\n  }\n}' }, ...exec('t', 'terraform init', 'Error refreshing state: HTTP remote state endpoint requires auth')];
    expect(read('', tf).target).toBe('state.acme.io');
    expect(read('', exec('p', 'pip install acme-utils', 'Looking in indexes: https://pypi.org/simple\nUser for pkgs.acme.io: \nERROR: Exception:\nTraceback (most recent call last):\nEOFError: EOF when reading a line'))).toMatchObject({ detected: 'credential-prompt-eof', target: 'pkgs.acme.io' });
    expect(read('', exec('d', 'docker pull acme/worker:2', 'Error response from daemon: Head "https://registry-1.docker.io/v2/acme/worker/manifests/2": unauthorized: incorrect username or password')).target).toBe('registry-1.docker.io');
  });

  it("names an SDK's vendor from its error class or its frames when the turn names no host", () => {
    const trace = 'Traceback (most recent call last):\n  File "/app/send.py", line 9, in <module>\n    sg.send(message)\n  File "/app/.venv/lib/python3.11/site-packages/mailjet_rest/client.py", line 88, in send\n    raise ApiError(r)\n  File "/app/.venv/lib/python3.11/site-packages/requests/models.py", line 1021, in raise_for_status\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized';
    expect(read('', exec('s', 'python3 send.py', trace)).target).toBe('mailjet');
    const js = 'AuthenticationError: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}\n    at APIError.generate (/app/node_modules/@mistral-ai/sdk/error.js:41:20)';
    expect(read('', exec('n', 'node agent.js', js)).target).toBe('mistral');
  });

  it('reads jump hosts, IPv6, ansible inventories, SMB shares, Kafka brokers, gRPC targets and kubectl contexts', () => {
    expect(read('', exec('j', 'ssh -J ops@jump:2222 deploy@app-3 uptime', 'ops@jump: Permission denied (publickey,password).')).target).toBe('jump');
    expect(read('', exec('j', 'ssh -J ops@jump deploy@app-3 uptime', 'deploy@app-3: Permission denied (publickey).')).target).toBe('app-3');
    expect(read('', exec('6', 'ssh -p 2222 admin@fd00::12 zpool status', 'admin@fd00::12: Permission denied (publickey).')).target).toBe('fd00::12');
    expect(read('', exec('a', "ansible all -i 'nas,' -m ping", 'nas | UNREACHABLE! => {\n    "msg": "Failed to connect to the host via ssh: deploy@nas: Permission denied (publickey,password)."\n}')).target).toBe('nas');
    expect(read('', exec('s', "smbclient //files02/backups -U 'CORP\\\\backup' -c ls", 'session setup failed: NT_STATUS_LOGON_FAILURE'))).toMatchObject({ detected: 'smb-logon-failure', target: 'files02' });
    expect(read('', exec('k', 'kcat -P -b kafka-1.stream.example:9094 -t orders -X sasl.username=svc', '% ERROR: Local: Authentication failure: sasl_ssl://kafka-1.stream.example:9094/bootstrap: SASL authentication error')).target).toBe('kafka-1.stream.example');
    expect(read('', exec('g', 'grpcurl -H "authorization: Bearer $T" ledger.example.net:443 ledger.v1.Ledger/List', 'ERROR:\n  Code: Unauthenticated\n  Message: invalid token'))).toMatchObject({ detected: 'grpc-unauthenticated', target: 'ledger.example.net' });
    expect(read('', exec('c', 'kubectl --context k8s-eu get nodes', 'error: You must be logged in to the server (the server has asked for the client to provide credentials)')).target).toBe('k8s-eu');
  });

  it('takes a host the user named in prose when nothing else names one, and never a "Powered by" link', () => {
    expect(read('How many users are in Okta (acme.okta.com)?', exec('n', 'node scripts/users.mjs', 'Error: Okta 401 Unauthorized: {"errorCode": "E0000011", "errorSummary": "Invalid token provided"}')).target).toBe('acme.okta.com');
    const jetty = '<title>Error 401 Unauthorized</title>\n<hr/><a href="https://eclipse.org/jetty">Powered by Jetty:// 10.0.20</a>';
    expect(read('', [...exec('a', 'curl -s -u bot:$PW https://ci.example.net:8443/job/x/build', '401'), ...exec('b', 'curl -s -u bot:$PW "$CI_URL/job/x/build"', jetty)]).target).toBe('ci.example.net');
  });

  it('reads the command inside docker exec / run', () => {
    expect(read('', exec('d', 'docker exec -i mssql-tools /opt/mssql-tools18/bin/sqlcmd -S sql-fin.example.net,1433 -U etl -Q "select 1"', "Login failed for user 'etl'.")).target).toBe('sql-fin.example.net');
  });

  it('reads docker compose exec, az acr login, and a proxy the environment names for a 407', () => {
    expect(read('', exec('r', 'docker compose exec -T api redis-cli -h redis del flags', 'NOAUTH Authentication required.')).target).toBe('redis');
    expect(read('', exec('a', 'az acr login --name shipyard', "ERROR: Please run 'az login' to setup account.")).target).toBe('shipyard.azurecr.io');
    const env = [...exec('e', 'env | grep -i _proxy', 'https_proxy=http://svc@egress.example.net:3128\nno_proxy=localhost'), ...exec('c', 'curl -sS https://www.example.org/rates.xml', 'curl: (56) CONNECT tunnel failed, response 407')];
    expect(read('', env).target).toBe('egress.example.net');
  });

  it('reads a terminal transcript the agent wrote in its own message, kinit realms, and an SDK pointed at a proxy', () => {
    const transcript = { role: 'assistant', content: 'Here is the output:\n\n```\n$ redis-cli -h 10.12.8.40 llen queue:grading\nNOAUTH Authentication required.\n```' };
    expect(read('', [transcript]).target).toBe('10.12.8.40');
    expect(read('', [{ role: 'assistant', content: 'An expired token gets 401 Unauthorized, by design.' }]).detected).toBeNull();
    expect(read('', exec('k', 'kinit jdoe@CS.EXAMPLE.EDU', 'Password for jdoe@CS.EXAMPLE.EDU: \nkinit: Preauthentication failed while getting initial credentials'))).toMatchObject({ detected: 'kerberos-preauth', target: 'cs.example.edu' });
    const sdk = [...exec('e', 'env | grep OPENAI', 'OPENAI_BASE_URL=https://llm-proxy.example.edu/v1\nOPENAI_API_KEY=sk-***'), ...exec('p', 'python3 eval.py', "Traceback (most recent call last):\n  File \"/x/site-packages/openai/_base_client.py\", line 1047\nopenai.AuthenticationError: Error code: 401 - {'error': {'message': 'Authentication Error, Invalid proxy server token passed'}}")];
    expect(read('', sdk).target).toBe('llm-proxy.example.edu');
  });

  it('ssh is a transport: the inner command or the server the output names, never the hop', () => {
    expect(read('', exec('p', "ssh deploy@web1.example.net 'PGPASSWORD=$(cat ~/.pg_ro) psql -h 10.30.0.20 -U ro -d shop -c \"select 1\"'", 'ERROR:  permission denied for table orders')).target).toBe('10.30.0.20');
    expect(read('', exec('d', "ssh deploy@web2.example.net 'cd /srv/app && docker compose pull api'", 'Error response from daemon: Head "https://registry.example.net:5000/v2/app/manifests/1.8": no basic auth credentials')).target).toBe('registry.example.net');
    const sdk = "Traceback (most recent call last):\n  File \"/srv/copy/.venv/lib/python3.12/site-packages/openai/_base_client.py\", line 1047\nopenai.AuthenticationError: Error code: 401 - {'error': {'code': 'invalid_api_key'}}";
    expect(read('', exec('o', "ssh deploy@worker1.example.net 'cd /srv/copy && python generate.py'", sdk)).target).toBe('openai');
  });

  it('a proxy refusal names the proxy', () => {
    expect(read('', exec('p', 'curl -x http://proxy.corp.example:3128 https://example.org/', 'curl: (56) CONNECT tunnel failed, response 407')).target).toBe('proxy.corp.example');
    expect(read('', exec('p', 'https_proxy=http://squid.corp.example:3128 wget https://example.org/', 'Proxy tunneling failed: Proxy Authentication RequiredUnable to establish SSL connection.')).target).toBe('squid.corp.example');
  });
});

describe('detection in context', () => {
  it('a bare Permission denied after ssh/scp/sftp/rsync is an SSH failure; after cat or open() it is not', () => {
    expect(read('', exec('s', 'sshpass -p x ssh deploy@web3.corp.example', 'Permission denied')).detected).toBe('ssh-permission-denied-bare');
    expect(read('', exec('c', 'cat /etc/shadow', 'cat: /etc/shadow: Permission denied')).detected).toBeNull();
    expect(read('', exec('c', "python3 -c \"open('/root/x')\"", "PermissionError: [Errno 13] Permission denied: '/root/x'")).detected).toBeNull();
    expect(read('', exec('s', 'scp notes.txt ops@files01:/etc/', 'scp: /etc/notes.txt: Permission denied')).detected).toBeNull();
  });

  it('status codes in code, grep output, test titles and docs tables, and 403 rate limits, are not failures', () => {
    expect(read('', exec('g', 'grep -rn "401" src/', "src/routes/auth.ts:42:    return res.status(401).json({ error: 'Unauthorized' });")).detected).toBeNull();
    expect(read('', exec('t', 'npx vitest run', " ✓ test/auth.test.ts > returns 401 Unauthorized without a token (12 ms)\n ✓ test/auth.test.ts > returns 403 Forbidden for viewers (3 ms)")).detected).toBeNull();
    expect(read('What do these mean?\n| 401 | invalid token |\n| 403 | Forbidden |', []).detected).toBeNull();
    expect(read('', exec('r', 'gh api repos/acme/app/issues', 'HTTP 403: API rate limit exceeded for user ID 1. (https://api.github.com/repos/acme/app/issues)')).detected).toBeNull();
    expect(read('', exec('c', 'sed -n 10,16p app/deps.py', '    if not user:\n        raise HTTPException(\n            status_code=status.HTTP_401_UNAUTHORIZED,\n            detail="Authentication required",\n        )')).detected).toBeNull();
    expect(read('', exec('c', 'cat docs/errors.md', '## Errors\n\n- `401 Unauthorized`: the token is missing or expired\n- `403 Forbidden`: the token lacks the scope')).detected).toBeNull();
    expect(read('', exec('c', 'sed -n 1,4p CHANGELOG.md', '## 2.4.1\n- Fix: the trigger no longer reports `401 Unauthorized` after a token rotation\n- Docs: `Permission denied (publickey)` on jump hosts')).detected).toBeNull();
    const diff = 'diff --git a/src/auth.ts b/src/auth.ts\n@@ -18,4 +18,4 @@\n-      return res.status(401).send("Unauthorized");\n+      throw new HttpError(401, "Unauthorized: missing bearer token");';
    expect(read('', exec('d', 'git diff main -- src/auth.ts', diff)).detected).toBeNull();
    // A failure the agent already got past: the retry to the same host succeeded.
    const retry = [...exec('a', 'psql -h pg-main.example.net -U app -c "select 1"', 'psql: error: FATAL:  password authentication failed for user "app"'), ...exec('b', 'PGPASSWORD=$RIGHT psql -h pg-main.example.net -U app -c "select 1"', ' ?column? \n----------\n        1\n(1 row)')];
    expect(read('', retry).detected).toBeNull();
    // A bare status after an HTTP client is a failure; the same number after another command is not.
    expect(read('', exec('c', "curl -s -o /dev/null -w '%{http_code}' -X POST https://ci.example.net/job/x/build", '401'))).toMatchObject({ detected: 'http-bare-status', target: 'ci.example.net' });
    expect(read('', exec('w', 'wc -l access.log', '401')).detected).toBeNull();
    // The retry ran the same client (no host on its command line) and got through.
    const npm = [...exec('a', 'npm ci', 'npm error code E401\nnpm error 401 Unauthorized - GET https://npm.example.net/@x%2fui'), ...exec('b', 'export NPM_TOKEN=$(vault kv get -field=token secret/npm) && npm ci', 'added 1184 packages in 38s')];
    expect(read('', npm).detected).toBeNull();
    // A service's logs show its traffic, not the agent's failure; ssh refusing the agent is still one.
    const logs = 'May 14 04:52:40 app12 statements[3190]: WARN upstream pdf-renderer returned 403 Forbidden for /render/batch/0452, will retry';
    expect(read('', exec('j', "ssh deploy@app12 'journalctl -u statements --no-pager | tail -40'", logs)).detected).toBeNull();
    expect(read('', exec('j', "ssh dba@db07 'sudo tail -n 50 /var/log/postgresql/main.log'", 'dba@db07: Permission denied (publickey).')).target).toBe('db07');
    // A changelog's list items and a terraform plan's assignments quote failures.
    expect(read('', exec('c', 'sed -n 1,12p CHANGELOG.md', '# Changelog\n\n## 2.3.1\n\n### Fixed\n- Authentication failed messages from Harbor are shown verbatim.')).detected).toBeNull();
    expect(read('', exec('t', 'terraform plan -no-color', '  ~ resource "aws_iam_policy" "w" {\n      + Sid      = "DenyDelete"  # AccessDenied for deletes')).detected).toBeNull();
    // A retry later in the same transcript block, and a terraform plan's numeric assignment.
    const block = { role: 'assistant', content: 'Done; the first attempt used a stale token:\n\n```\n$ vercel deploy --token "$T"\nError: The specified token is not valid. Use `vercel login` to generate a new token.\n$ export T=$(op read op://x/token)\n$ vercel deploy --token "$T"\nProduction: https://shop.example.app [12s]\n```' };
    expect(read('', [block]).detected).toBeNull();
    expect(read('', exec('t', 'terraform plan', '              + response {\n                  + status_code  = 403\n                }')).detected).toBeNull();
    // A question in the user's words reports nothing.
    expect(read('Should the API answer 401 or 403 for an expired token?', []).detected).toBeNull();
    // A retry shown in the same transcript message that got through.
    const retried = { role: 'assistant', content: '```\n$ docker login registry.example.edu -u me\nError response from daemon: Get "https://registry.example.edu/v2/": unauthorized: authentication required\n```\n\n```\n$ docker login registry.example.edu -u robot\nLogin Succeeded\n```' };
    expect(read('', [retried]).detected).toBeNull();
    // The agent's own prose is not a failure.
    expect(read('', [{ role: 'assistant', content: 'If the token is wrong the API answers 401 Unauthorized.' }]).detected).toBeNull();
  });
});

describe('the hint: credential facts that help log in, however memory names the host', () => {
  let home: TestHome;
  let svc: MemoryService;
  let hook: AuthRecallHook;
  afterEach(async () => {
    await hook?.close();
    await svc?.close();
    home?.cleanup();
  });

  it('finds facts filed under the short name, the FQDN or the paired IP, and leaves out facts that only share the host name', async () => {
    home = tempHome({});
    svc = MemoryService.open({ config: home.config, env: home.env });
    hook = new AuthRecallHook(svc, home.config, { detectTimeoutMs: 5000 });
    const short = svc.memoryStore({ text: 'db-prod: app user is "app", password in the vault under db-prod', category: 'technical' }).fact;
    const ip = svc.memoryStore({ text: 'Postgres superuser login on 10.20.0.5 uses the postgres role and a client certificate', category: 'technical', tags: ['password'] }).fact;
    svc.memoryStore({ text: 'db-prod.internal resolves to 10.20.0.5', category: 'fact' });
    const eviction = svc.memoryStore({ text: 'db-prod.internal runs with 3 replicas and autovacuum tuned', category: 'technical' }).fact;
    const turn = { sessionId: 's', messages: exec('p', 'psql -h db-prod.internal -U app appdb', 'psql: error: connection to server at "db-prod.internal" port 5432 failed: FATAL:  password authentication failed for user "app"') };
    const r = await hook.evaluate(turn);
    expect(r).toMatchObject({ detected: true, target: 'db-prod.internal' });
    expect(r.factIds).toEqual(expect.arrayContaining([short.id, ip.id]));
    expect(r.factIds).not.toContain(eviction.id);
    expect(r.hint?.split('\n')[0]).toBe('💡 Memory has credentials for `db-prod.internal`:');
  });
});
