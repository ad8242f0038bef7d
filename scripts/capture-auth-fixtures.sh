#!/usr/bin/env bash
# capture-auth-fixtures.sh - capture REAL client output of authentication failures (and look-alike
# non-failures) as test fixtures for the auth detector (test/auth-fixtures.test.ts).
#
# What it does, in order:
#   1. Installs (apt-get, Debian package names) whatever of these is missing:
#        openssh-server openssh-client sshpass postgresql postgresql-client redis-server redis-tools
#        mariadb-server mariadb-client curl git python3 npm(only if `npm` is absent)
#        wget httpie mosquitto mosquitto-clients rsync tinyproxy vsftpd lftp slapd ldap-utils swaks
#        python3-pip docker-registry skopeo apache2-utils (extended cases)
#      Set SKIP_APT=1 to never call apt-get (cases whose tools are missing are then skipped).
#   2. Makes reversible system changes, all undone on exit (trap):
#        - a local user `hmfixture` (password `right-password`) for sshd - deleted on exit;
#        - an /etc/hosts line `127.0.0.1 db.internal.test  # hybrid-mem-capture` - removed on exit.
#   3. Starts servers, every one bound to 127.0.0.1 only, with data under $STATE (default
#      /tmp/hybrid-mem-auth-capture, wiped at start and end):
#        sshd        127.0.0.1:$SSH_PORT   (default 22)    user hmfixture / right-password
#        PostgreSQL  127.0.0.1:$PG_PORT    (default 5432)  user appuser / right-password, db appdb
#        Redis       127.0.0.1:$REDIS_PORT (default 6379)  requirepass right-password
#        MariaDB     127.0.0.1:$MY_PORT    (default 3306)  user app / right-password
#        python3 http.server 127.0.0.1:$HTTP_PORT (default 8401), inline below: /private/* and
#                    /repo.git/* -> 401 + WWW-Authenticate, /npm/* -> 401 (npm registry style),
#                    /forbidden -> 403, /bytes/N -> 200 with N bytes, / -> 200, anything else -> 404
#      A port already in use aborts the run (override with the *_PORT variables).
#   4. Runs each client (every call bounded by `timeout`) and writes its combined stdout+stderr,
#      exactly as printed, to test/fixtures/auth/<name>.txt (negatives: negative-<name>.txt). The
#      first line of each file is the command line prefixed with "$ ".
#   5. Writes test/fixtures/auth/manifest.json: [{ file, positive, target, tool }].
#   6. Stops every server it started (by pid), removes the user, the hosts line and $STATE.
#
# Extended cases (section 4b; new manifest entries name as target the host the command addressed,
# e.g. db.internal.test even where the client prints the resolved 127.0.0.1):
#   servers: mosquitto (password file, 1883), rsync daemon (module `backups`, auth users, 873),
#            tinyproxy (BasicAuth, 3128), vsftpd (PAM local users = the fixture user, 21), slapd
#            (mdb, dc=corp,dc=example, 389), docker-registry (distribution v2, htpasswd, 5000), an
#            inline python ESMTP responder (AUTH PLAIN/LOGIN; wrong credentials get Postfix's
#            "535 5.7.8 Error: authentication failed" line, 587); PostgreSQL gets roles `blocked`
#            (pg_hba reject) and `analyst` (no pg_hba entry for db analytics), a table `payroll` and
#            schema `audit` appuser may not read; Redis gets an ACL user `reader` (get/ping on cache:*);
#            the HTTP server answers /locked.git with 403 and /simple/ (pip index) with 401.
#   psql      fe_sendauth: no password supplied (IP and alias), pg_hba.conf rejects connection,
#             no pg_hba.conf entry, permission denied for table / for schema; negative: relation missing
#   redis-cli NOPERM for a command and for a key (ACL user); negative: an allowed GET
#   ssh       REMOTE HOST IDENTIFICATION HAS CHANGED (Host key for X has changed); sshpass with a bare
#             "Permission denied, please try again." (host only on the command line); scp, sftp -b and
#             rsync -e ssh with "Permission denied (publickey,password)"
#   wget      401 "Username/Password Authentication Failed." (verbose via alias, -nv via IP); proxy
#             "Proxy tunneling failed: Proxy Authentication Required"
#   httpie    --check-status 401 (body + "http: ... HTTP 401 Unauthorized"), --print=hb 403; negative 404
#   git       clone answered 403 ("The requested URL returned error: 403")
#   pip       index with wrong credentials: "401 Error, Credentials not correct for ..."
#   mosquitto mosquitto_pub "Connection Refused: not authorised.", mosquitto_sub -V mqttv5 "Not
#             authorized"; negatives: connection refused, a successful publish of a "401" message
#   rsync     daemon "@ERROR: auth failed on module backups"; negative: "Unknown module"
#   curl      proxy CONNECT "CONNECT tunnel failed, response 407"; plain-HTTP request through the
#             proxy (tinyproxy answers 401 + WWW-Authenticate); SMTP AUTH "(67) Login denied";
#             FTP "(67) Access denied: 530"; negative: request through the proxy with right credentials
#   python3   smtplib.SMTPAuthenticationError (535, ...), ftplib.error_perm: 530 Login incorrect;
#             negative: a successful smtplib login + send whose subject mentions 401/403
#   swaks     AUTH LOGIN transcript ending "*** No authentication type succeeded"
#   lftp      "Login failed: 530 Login incorrect."
#   ldap      ldapsearch/ldapwhoami "ldap_bind: Invalid credentials (49)", anonymous ldapadd
#             "Strong(er) authentication required (8)"; negative: "No such object (32)"
#   skopeo    inspect/copy "unauthorized: authentication required" (image reference names the
#             registry), login "invalid username/password"; negative: "manifest unknown" with good creds
#
# Must run as root (user/hosts changes, sshd on port 22). Re-runnable: every run starts from scratch
# and overwrites the fixtures; only time stamps / temp paths in tool output change between runs.
#
# Usage: scripts/capture-auth-fixtures.sh        (from anywhere; writes into the repo it lives in)

set -uo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$REPO/test/fixtures/auth"
STATE="${STATE:-/tmp/hybrid-mem-auth-capture}"
SSH_PORT="${SSH_PORT:-22}"
PG_PORT="${PG_PORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
MY_PORT="${MY_PORT:-3306}"
HTTP_PORT="${HTTP_PORT:-8401}"
ALIAS_HOST="db.internal.test"
HOSTS_MARK="# hybrid-mem-capture"
FIX_USER="hmfixture"
GOOD_PW="right-password"
BAD_PW="wrong-password"
T="timeout 20"

log() { printf '[capture] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root"

# ---------------------------------------------------------------------------------------------------
# cleanup: stop only what this script started (pid files under $STATE), undo system changes
# ---------------------------------------------------------------------------------------------------
stop_pidfile() {
  local f="$1"
  [ -f "$f" ] || return 0
  local pid; pid="$(head -n1 "$f" 2>/dev/null | tr -dc 0-9)"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

cleanup() {
  log "cleanup"
  if [ -d "$STATE/pg" ] && [ -f "$STATE/pg/postmaster.pid" ]; then
    runuser -u postgres -- /usr/lib/postgresql/*/bin/pg_ctl -D "$STATE/pg" -m fast -w -t 20 stop >/dev/null 2>&1 || true
  fi
  for f in "$STATE"/*.pid; do [ -e "$f" ] && stop_pidfile "$f"; done
  if grep -q -- "$HOSTS_MARK" /etc/hosts 2>/dev/null; then
    # write in place (no rename): /etc/hosts may be a bind mount
    grep -v -- "$HOSTS_MARK" /etc/hosts > "$STATE.hosts.tmp" && cat "$STATE.hosts.tmp" > /etc/hosts
    rm -f "$STATE.hosts.tmp"
  fi
  if id "$FIX_USER" >/dev/null 2>&1; then userdel "$FIX_USER" >/dev/null 2>&1 || true; fi
  rm -rf "$STATE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# a previous interrupted run: stop its servers, wipe its state
cleanup
mkdir -p "$STATE" "$OUT"
chmod 755 "$STATE"

# ---------------------------------------------------------------------------------------------------
# 1. packages
# ---------------------------------------------------------------------------------------------------
need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have sshd || [ -x /usr/sbin/sshd ] || need_pkgs+=(openssh-server)
have ssh || need_pkgs+=(openssh-client)
have sshpass || need_pkgs+=(sshpass)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_pkgs+=(postgresql)
have psql || need_pkgs+=(postgresql-client)
have redis-server || need_pkgs+=(redis-server)
have redis-cli || need_pkgs+=(redis-tools)
have mariadbd || [ -x /usr/sbin/mariadbd ] || need_pkgs+=(mariadb-server)
have mariadb || need_pkgs+=(mariadb-client)
have curl || need_pkgs+=(curl)
have git || need_pkgs+=(git)
have python3 || need_pkgs+=(python3)
have npm || need_pkgs+=(npm)
# second round of clients/servers (see "Extended cases" in the header)
have wget || need_pkgs+=(wget)
have http || need_pkgs+=(httpie)
have mosquitto || [ -x /usr/sbin/mosquitto ] || need_pkgs+=(mosquitto)
have mosquitto_pub || need_pkgs+=(mosquitto-clients)
have rsync || need_pkgs+=(rsync)
have tinyproxy || [ -x /usr/bin/tinyproxy ] || need_pkgs+=(tinyproxy)
have vsftpd || [ -x /usr/sbin/vsftpd ] || need_pkgs+=(vsftpd)
have lftp || need_pkgs+=(lftp)
[ -x /usr/sbin/slapd ] || need_pkgs+=(slapd)
have ldapsearch || need_pkgs+=(ldap-utils)
have swaks || need_pkgs+=(swaks)
python3 -m pip --version >/dev/null 2>&1 || need_pkgs+=(python3-pip)
have docker-registry || need_pkgs+=(docker-registry)
have skopeo || need_pkgs+=(skopeo)
have htpasswd || need_pkgs+=(apache2-utils)
if [ "${#need_pkgs[@]}" -gt 0 ] && [ "${SKIP_APT:-0}" != 1 ]; then
  log "apt-get install ${need_pkgs[*]}"
  # policy-rc.d in containers keeps the packaged services from starting; we start our own instances
  timeout 600 apt-get update -qq >/dev/null 2>&1 || log "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q "${need_pkgs[@]}" >"$STATE/apt.log" 2>&1 \
    || log "apt-get install failed (see output above); continuing with what is there"
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$SSH_PORT" "$PG_PORT" "$REDIS_PORT" "$MY_PORT" "$HTTP_PORT"; do
  port_free "$p" || die "127.0.0.1:$p is already in use; set the matching *_PORT variable"
done
wait_port() { # port, seconds
  local i; for i in $(seq 1 $(( $2 * 10 ))); do port_free "$1" || return 0; sleep 0.1; done
  return 1
}

# ---------------------------------------------------------------------------------------------------
# capture helpers
# ---------------------------------------------------------------------------------------------------
MANIFEST_ROWS=()
# capture <file-stem> <positive:true|false> <target|-> <tool> <command string> [extra manifest JSON members]
capture() {
  local stem="$1" positive="$2" target="$3" tool="$4" cmd="$5" extra="${6:-}"
  local file="$stem.txt"
  {
    printf '$ %s\n' "$cmd"
    (cd "$STATE/work" && $T bash -c "$cmd" </dev/null 2>&1)
  } > "$OUT/$file"
  local rc=$?
  local tjson='null'; [ "$target" != "-" ] && tjson="\"$target\""
  [ -n "$extra" ] && extra="$extra, "
  MANIFEST_ROWS+=("  { \"file\": \"$file\", \"positive\": $positive, \"target\": $tjson, $extra\"tool\": \"$tool\" }")
  log "captured $file ($(($(wc -l < "$OUT/$file") - 1)) lines)"
  return $rc
}
mkdir -p "$STATE/work"

# remove fixtures of a previous run so a case that no longer works here does not linger
rm -f "$OUT"/*.txt "$OUT/manifest.json"

# ---------------------------------------------------------------------------------------------------
# 2. reversible system changes
# ---------------------------------------------------------------------------------------------------
useradd -M -d /nonexistent -s /bin/sh "$FIX_USER" || die "useradd failed"
echo "$FIX_USER:$GOOD_PW" | chpasswd || die "chpasswd failed"
printf '127.0.0.1 %s  %s\n' "$ALIAS_HOST" "$HOSTS_MARK" >> /etc/hosts

# ---------------------------------------------------------------------------------------------------
# 3. servers
# ---------------------------------------------------------------------------------------------------
# --- HTTP (python, inline) ---
cat > "$STATE/http_server.py" <<'PY'
import http.server, json, sys

class H(http.server.BaseHTTPRequestHandler):
    server_version = "fixture-http/1.0"
    sys_version = ""

    def _send(self, code, body, ctype="text/plain; charset=utf-8", extra=()):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self):
        p = self.path
        if p.startswith("/private") or p.startswith("/repo.git"):
            self._send(401, "Unauthorized\n", extra=[("WWW-Authenticate", 'Basic realm="fixture"')])
        elif p.startswith("/npm/"):
            self._send(401, json.dumps({"error": "Unauthorized"}) + "\n", "application/json",
                       extra=[("WWW-Authenticate", 'Basic realm="npm registry"')])
        elif p.startswith("/simple/"):
            self._send(401, "Unauthorized\n", extra=[("WWW-Authenticate", 'Basic realm="package index"')])
        elif p.startswith("/locked.git"):
            self._send(403, "Forbidden\n")
        elif p.startswith("/forbidden"):
            self._send(403, "Forbidden\n")
        elif p.startswith("/bytes/"):
            n = int(p.rsplit("/", 1)[1] or "0")
            self._send(200, "x" * n)
        elif p == "/":
            self._send(200, "<html><body><h1>It works</h1><p>status page: all systems normal</p></body></html>\n",
                       "text/html; charset=utf-8")
        else:
            self._send(404, "Not Found\n")

    do_HEAD = do_GET

    def log_message(self, *a):
        pass

http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$STATE/http_server.py" "$HTTP_PORT" >/dev/null 2>&1 &
echo $! > "$STATE/http.pid"
wait_port "$HTTP_PORT" 10 || die "http server did not start"
HTTP_OK=1

# --- sshd ---
SSH_OK=0
if [ -x /usr/sbin/sshd ]; then
  mkdir -p /run/sshd && chmod 755 /run/sshd
  ssh-keygen -q -t ed25519 -N '' -f "$STATE/ssh_host_ed25519_key" </dev/null >/dev/null
  cat > "$STATE/sshd_config" <<EOF
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $STATE/ssh_host_ed25519_key
PidFile $STATE/sshd.pid
PubkeyAuthentication yes
PasswordAuthentication yes
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin no
AllowUsers $FIX_USER
LogLevel ERROR
EOF
  if /usr/sbin/sshd -f "$STATE/sshd_config" -E "$STATE/sshd.log" && wait_port "$SSH_PORT" 10; then SSH_OK=1
  else log "sshd did not start: $(cat "$STATE/sshd.log" 2>/dev/null)"; fi
fi

# --- PostgreSQL ---
PG_OK=0
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)"
if [ -n "$PGBIN" ]; then
  mkdir -p "$STATE/pg" && chown postgres: "$STATE/pg"
  printf '%s\n' "$GOOD_PW" > "$STATE/pgpw" && chown postgres: "$STATE/pgpw"
  if runuser -u postgres -- "$PGBIN/initdb" -D "$STATE/pg" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        --pwfile="$STATE/pgpw" >"$STATE/initdb.log" 2>&1 \
     && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$STATE/pg" -l "$STATE/pg/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $STATE/pg" start >/dev/null 2>&1; then
    runuser -u postgres -- psql -h "$STATE/pg" -p "$PG_PORT" -U postgres -q \
      -c "CREATE ROLE appuser LOGIN PASSWORD '$GOOD_PW'" -c "CREATE DATABASE appdb OWNER appuser" >/dev/null 2>&1 \
      && PG_OK=1
  else log "postgres did not start: $(tail -5 "$STATE/initdb.log" "$STATE/pg/server.log" 2>/dev/null)"; fi
fi

# --- Redis ---
REDIS_OK=0
if have redis-server; then
  mkdir -p "$STATE/redis" && chown redis: "$STATE/redis" 2>/dev/null
  if redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --requirepass "$GOOD_PW" --daemonize yes \
       --dir "$STATE/redis" --pidfile "$STATE/redis.pid" --logfile "$STATE/redis.log" --save '' --appendonly no \
       >/dev/null 2>&1 && wait_port "$REDIS_PORT" 10; then REDIS_OK=1
  else log "redis did not start"; fi
fi

# --- MariaDB ---
MY_OK=0
if [ -x /usr/sbin/mariadbd ] && have mariadb-install-db; then
  mkdir -p "$STATE/mysql" && chown mysql: "$STATE/mysql"
  if mariadb-install-db --user=mysql --datadir="$STATE/mysql" --auth-root-authentication-method=socket \
       --skip-test-db >"$STATE/mysql-install.log" 2>&1; then
    /usr/sbin/mariadbd --user=mysql --datadir="$STATE/mysql" --bind-address=127.0.0.1 --port="$MY_PORT" \
      --socket="$STATE/mysql/mysql.sock" --pid-file="$STATE/mysql/mariadbd.pid" --skip-name-resolve \
      --log-error="$STATE/mysql/server.err" >/dev/null 2>&1 &
    echo $! > "$STATE/mariadb.pid"   # files under $STATE/mysql must be writable by user mysql
    if wait_port "$MY_PORT" 30 && $T mariadb --socket="$STATE/mysql/mysql.sock" -u root \
         -e "CREATE USER 'app'@'%' IDENTIFIED BY '$GOOD_PW'; CREATE DATABASE appdb; GRANT ALL ON appdb.* TO 'app'@'%';" \
         >/dev/null 2>&1; then MY_OK=1
    else log "mariadb did not start: $(tail -5 "$STATE/mysql/server.err" 2>/dev/null)"; fi
  else log "mariadb-install-db failed: $(tail -5 "$STATE/mysql-install.log")"; fi
fi

# ---------------------------------------------------------------------------------------------------
# 4. captures
# ---------------------------------------------------------------------------------------------------
SSHO="-F /dev/null -o UserKnownHostsFile=/dev/null"
[ "$SSH_PORT" = 22 ] && SP="" || SP="-p $SSH_PORT "
[ "$PG_PORT" = 5432 ] && PGP="" || PGP="-p $PG_PORT "
[ "$REDIS_PORT" = 6379 ] && RP="" || RP="-p $REDIS_PORT "
[ "$MY_PORT" = 3306 ] && MP="" || MP="-P $MY_PORT "
H="127.0.0.1:$HTTP_PORT"
: > "$STATE/work/empty_known_hosts"

if [ "$SSH_OK" = 1 ]; then
  capture ssh-batchmode-denied true 127.0.0.1 ssh \
    "ssh ${SP}$SSHO -o BatchMode=yes -o StrictHostKeyChecking=no $FIX_USER@127.0.0.1 true"
  capture ssh-batchmode-denied-alias true "$ALIAS_HOST" ssh \
    "ssh ${SP}$SSHO -o BatchMode=yes -o StrictHostKeyChecking=no deploy@$ALIAS_HOST uptime"
  capture ssh-wrong-password true 127.0.0.1 ssh \
    "sshpass -p $BAD_PW ssh ${SP}$SSHO -o StrictHostKeyChecking=no -o PreferredAuthentications=password $FIX_USER@127.0.0.1 true"
  capture ssh-wrong-password-alias true "$ALIAS_HOST" ssh \
    "sshpass -p $BAD_PW ssh ${SP}$SSHO -o StrictHostKeyChecking=no -o PreferredAuthentications=password -o NumberOfPasswordPrompts=1 $FIX_USER@$ALIAS_HOST true"
  capture ssh-host-key-unknown true "$ALIAS_HOST" ssh \
    "ssh ${SP}-F /dev/null -o UserKnownHostsFile=empty_known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes $FIX_USER@$ALIAS_HOST true"
  capture negative-ssh-success false - ssh \
    "sshpass -p $GOOD_PW ssh ${SP}$SSHO -o StrictHostKeyChecking=no -o PreferredAuthentications=password $FIX_USER@127.0.0.1 'echo connected as \$(id -un)'"
  capture negative-ssh-connection-refused false - ssh \
    "ssh -p 2 $SSHO -o BatchMode=yes -o ConnectTimeout=5 $FIX_USER@127.0.0.1 true"
fi

if [ "$PG_OK" = 1 ]; then
  capture psql-wrong-password true 127.0.0.1 psql \
    "PGPASSWORD=$BAD_PW psql -h 127.0.0.1 ${PGP}-U appuser -d appdb -c 'select 1'"
  capture psql-wrong-password-alias true 127.0.0.1 psql \
    "psql 'postgresql://appuser:$BAD_PW@$ALIAS_HOST:$PG_PORT/appdb' -c 'select 1'" "\"aliases\": [\"$ALIAS_HOST\"]"
  capture negative-psql-success false - psql \
    "PGPASSWORD=$GOOD_PW psql -h 127.0.0.1 ${PGP}-U appuser -d appdb -c \"select 'password authentication is configured' as note, 401 as code\""
  capture negative-psql-connection-refused false - psql \
    "PGPASSWORD=$GOOD_PW psql -h 127.0.0.1 -p 2 -U appuser -d appdb -c 'select 1'"
fi

if [ "$REDIS_OK" = 1 ]; then
  capture redis-wrongpass true 127.0.0.1 redis-cli \
    "redis-cli -h 127.0.0.1 ${RP}--user default --pass $BAD_PW ping"
  capture redis-noauth true 127.0.0.1 redis-cli \
    "redis-cli -h 127.0.0.1 ${RP}set session:42 active"
  capture negative-redis-success false - redis-cli \
    "redis-cli -h 127.0.0.1 ${RP}--no-auth-warning -a $GOOD_PW ping"
fi

if [ "$MY_OK" = 1 ]; then
  capture mysql-access-denied true 127.0.0.1 mysql \
    "mysql -h 127.0.0.1 ${MP}-u app -p$BAD_PW appdb -e 'select 1'"
  capture mysql-access-denied-alias true "$ALIAS_HOST" mariadb \
    "mariadb -h $ALIAS_HOST ${MP}-u app -p$BAD_PW -e 'show databases'"
  capture negative-mysql-unknown-table false - mysql \
    "mysql -h 127.0.0.1 ${MP}-u app -p$GOOD_PW appdb -e 'select * from sessions'"
fi

if [ "$HTTP_OK" = 1 ]; then
  capture curl-401 true 127.0.0.1 curl "curl -sS -i http://$H/private/report.json"
  capture curl-401-alias true "$ALIAS_HOST" curl "curl -sS -i -u admin:$BAD_PW http://$ALIAS_HOST:$HTTP_PORT/private/"
  capture curl-403 true 127.0.0.1 curl "curl -sS -i http://$H/forbidden/admin"
  capture curl-fail-401 true 127.0.0.1 curl "curl -sS --fail http://$H/private/report.json"
  capture git-clone-no-prompt true 127.0.0.1 git \
    "GIT_TERMINAL_PROMPT=0 git clone http://$H/repo.git repo-a"
  capture git-clone-bad-credentials true "$ALIAS_HOST" git \
    "GIT_TERMINAL_PROMPT=0 git clone http://deploy:$BAD_PW@$ALIAS_HOST:$HTTP_PORT/repo.git repo-b"
  if have npm; then
    printf '//127.0.0.1:%s/npm/:_authToken=npm_badtoken0000000000000000000000000000\n' "$HTTP_PORT" > "$STATE/work/npmrc"
    capture npm-e401 true 127.0.0.1 npm \
      "npm view left-pad --registry http://$H/npm/ --userconfig ./npmrc --cache ./npm-cache --fetch-retries=0 --no-update-notifier"
  fi
  capture negative-curl-404 false - curl "curl -sS -i http://$H/docs/missing-page"
  capture negative-curl-200 false - curl "curl -sS -i http://$H/"
  capture negative-curl-timing false - curl \
    "for n in 401 403 4013; do curl -sS -o /dev/null -w \"GET /bytes/\$n -> %{http_code}, %{size_download} bytes, connect 0.000403s\\n\" http://$H/bytes/\$n; done"
  capture negative-git-clone-not-found false - git \
    "GIT_TERMINAL_PROMPT=0 git clone http://$H/missing.git repo-c"
fi

# file-permission errors, as an unprivileged user
capture negative-file-permission false - cat "su nobody -s /bin/sh -c 'cat /root/.bashrc'"
capture negative-mkdir-permission false - mkdir "su nobody -s /bin/sh -c 'mkdir /root/cache'"

# prose and numbers that only look like failures (text produced by real programs, contents chosen)
capture negative-log-forbidden false - python3 \
  "python3 -c \"import logging; logging.basicConfig(format='%(asctime)s %(levelname)s %(name)s: %(message)s', level=logging.INFO); log = logging.getLogger('deploy'); log.info('changes to the schema are forbidden during the freeze window, queueing migration 0403'); log.info('retrying in 401 ms')\""
capture negative-ping-like false - printf \
  "printf 'PING 10.0.0.7 (10.0.0.7) 56(84) bytes of data.\\n64 bytes from 10.0.0.7: icmp_seq=1 ttl=64 time=401 ms\\n64 bytes from 10.0.0.7: icmp_seq=2 ttl=64 time=403 ms\\n\\n--- 10.0.0.7 ping statistics ---\\n2 packets transmitted, 2 received, 0%% packet loss, time 1001ms\\nrtt min/avg/max/mdev = 401.112/402.056/403.001/0.944 ms\\n'"
capture negative-time-output false - bash \
  "TIMEFORMAT='real %3R s'; time sleep 0.403; echo 'processed 401 records, 403 bytes written'"

# ---------------------------------------------------------------------------------------------------
# 4b. extended cases: more servers (each on 127.0.0.1 only, skipped when its port is taken or its
#     package is missing) and their clients. See "Extended cases" in the header.
# ---------------------------------------------------------------------------------------------------
MQTT_PORT="${MQTT_PORT:-1883}"
RSYNC_PORT="${RSYNC_PORT:-873}"
PROXY_PORT="${PROXY_PORT:-3128}"
FTP_PORT="${FTP_PORT:-21}"
LDAP_PORT="${LDAP_PORT:-389}"
SMTP_PORT="${SMTP_PORT:-587}"
REG_PORT="${REG_PORT:-5000}"
port_or_skip() { port_free "$1" && return 0; log "127.0.0.1:$1 is in use; skipping $2"; return 1; }

# --- PostgreSQL: no password, pg_hba reject / no entry, missing privileges ---
if [ "$PG_OK" = 1 ]; then
  PGQ="runuser -u postgres -- psql -h $STATE/pg -p $PG_PORT -U postgres -q -v ON_ERROR_STOP=1"
  $PGQ -c "CREATE ROLE blocked LOGIN PASSWORD '$GOOD_PW'" \
       -c "CREATE ROLE analyst LOGIN PASSWORD '$GOOD_PW'" >/dev/null 2>&1
  $PGQ -d appdb -c "CREATE TABLE payroll (id int, amount numeric)" -c "CREATE SCHEMA audit" \
       -c "CREATE TABLE audit.events (id int)" >/dev/null 2>&1
  HBA="$STATE/pg/pg_hba.conf"
  { printf 'host all blocked 127.0.0.1/32 reject\n'
    sed 's#^host\s\+all\s\+all\s\+127\.0\.0\.1/32#host appdb,postgres all 127.0.0.1/32#' "$HBA"; } > "$HBA.new" \
    && cat "$HBA.new" > "$HBA" && rm -f "$HBA.new"
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$STATE/pg" reload >/dev/null 2>&1; sleep 1

  capture psql-no-password true 127.0.0.1 psql \
    "psql -h 127.0.0.1 ${PGP}-U appuser -d appdb -w -c 'select 1'"
  capture psql-no-password-alias true "$ALIAS_HOST" psql \
    "psql -w -h $ALIAS_HOST ${PGP}-U appuser appdb -c '\\dt'"
  capture psql-hba-reject true "$ALIAS_HOST" psql \
    "PGPASSWORD=$GOOD_PW psql -h $ALIAS_HOST ${PGP}-U blocked -d appdb -c 'select 1'"
  capture psql-hba-no-entry true "$ALIAS_HOST" psql \
    "psql 'postgresql://analyst:$GOOD_PW@$ALIAS_HOST:$PG_PORT/analytics?sslmode=disable' -c 'select count(*) from events'"
  capture psql-permission-denied-table true "$ALIAS_HOST" psql \
    "PGPASSWORD=$GOOD_PW psql -h $ALIAS_HOST ${PGP}-U appuser -d appdb -c 'select sum(amount) from payroll'"
  capture psql-permission-denied-schema true 127.0.0.1 psql \
    "PGPASSWORD=$GOOD_PW psql -h 127.0.0.1 ${PGP}-U appuser -d appdb -c 'select count(*) from audit.events'"
  capture negative-psql-relation-missing false - psql \
    "PGPASSWORD=$GOOD_PW psql -h $ALIAS_HOST ${PGP}-U appuser -d appdb -c 'select * from payrol'"
fi

# --- Redis ACL: a user without the command / key permission ---
if [ "$REDIS_OK" = 1 ]; then
  $T redis-cli -h 127.0.0.1 ${RP}--no-auth-warning -a "$GOOD_PW" ACL SETUSER reader on '>reader-pass' '~cache:*' '+get' '+ping' >/dev/null 2>&1
  capture redis-noperm-command true "$ALIAS_HOST" redis-cli \
    "redis-cli -h $ALIAS_HOST ${RP}--user reader --pass reader-pass set cache:home '<html>'"
  capture redis-noperm-key true 127.0.0.1 redis-cli \
    "redis-cli -u redis://reader:reader-pass@127.0.0.1:$REDIS_PORT get session:42"
  capture negative-redis-acl-allowed false - redis-cli \
    "redis-cli -h $ALIAS_HOST ${RP}--no-auth-warning --user reader --pass reader-pass get cache:home"
fi

# --- SSH: changed host key, bare "Permission denied" (sshpass), scp/sftp/rsync over ssh ---
if [ "$SSH_OK" = 1 ]; then
  ssh-keygen -q -t ed25519 -N '' -f "$STATE/other_host_key" </dev/null >/dev/null
  printf '%s %s\n' "$ALIAS_HOST" "$(cut -d' ' -f1,2 "$STATE/other_host_key.pub")" > "$STATE/work/changed_known_hosts"
  capture ssh-host-key-changed true "$ALIAS_HOST" ssh \
    "ssh ${SP}-F /dev/null -o UserKnownHostsFile=changed_known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes $FIX_USER@$ALIAS_HOST true"
  capture ssh-sshpass-bare-denied true "$ALIAS_HOST" ssh \
    "sshpass -p $BAD_PW ssh -o LogLevel=ERROR ${SP}$SSHO -o StrictHostKeyChecking=no -o PreferredAuthentications=password deploy@$ALIAS_HOST uptime"
  : > "$STATE/work/dump.sql"
  capture scp-denied true "$ALIAS_HOST" scp \
    "scp ${SP:+-P $SSH_PORT }$SSHO -o StrictHostKeyChecking=no -o BatchMode=yes dump.sql $FIX_USER@$ALIAS_HOST:/tmp/"
  capture sftp-denied true 127.0.0.1 sftp \
    "echo 'put dump.sql' | sftp ${SP:+-P $SSH_PORT }$SSHO -o StrictHostKeyChecking=no -o BatchMode=yes -b - backup@127.0.0.1"
  if have rsync; then
    mkdir -p "$STATE/work/build" && echo ok > "$STATE/work/build/index.html"
    capture rsync-ssh-denied true "$ALIAS_HOST" rsync \
      "rsync -az -e 'ssh ${SP}$SSHO -o StrictHostKeyChecking=no -o BatchMode=yes' build/ deploy@$ALIAS_HOST:/srv/www/"
  fi
fi

# --- HTTP clients: wget, httpie, git 403, pip index 401 ---
if [ "$HTTP_OK" = 1 ]; then
  have wget && capture wget-401 true "$ALIAS_HOST" wget \
    "wget --user=admin --password=$BAD_PW http://$ALIAS_HOST:$HTTP_PORT/private/report.json"
  have wget && capture wget-401-quiet true 127.0.0.1 wget \
    "wget -nv -O report.json http://$H/private/report.json"
  have http && capture httpie-401 true "$ALIAS_HOST" httpie \
    "http --ignore-stdin --check-status -a admin:$BAD_PW GET http://$ALIAS_HOST:$HTTP_PORT/private/metrics"
  have http && capture httpie-403-headers true 127.0.0.1 httpie \
    "http --ignore-stdin --print=hb GET http://$H/forbidden/admin Authorization:'Bearer expired-token'"
  capture git-clone-403 true "$ALIAS_HOST" git \
    "GIT_TERMINAL_PROMPT=0 git clone http://ci:$BAD_PW@$ALIAS_HOST:$HTTP_PORT/locked.git"
  if python3 -m pip --version >/dev/null 2>&1; then
    capture pip-index-401 true "$ALIAS_HOST" pip \
      "python3 -m pip download --isolated --trusted-host $ALIAS_HOST --no-deps --disable-pip-version-check --no-cache-dir --retries 0 --index-url http://ci:$BAD_PW@$ALIAS_HOST:$HTTP_PORT/simple/ -d dl requests==2.31.0"
  fi
  have http && capture negative-httpie-404 false - httpie \
    "http --ignore-stdin --check-status GET http://$H/api/v1/users/401"
fi

# --- mosquitto (MQTT) with a password file ---
MQ_OK=0
if [ -x /usr/sbin/mosquitto ] && have mosquitto_passwd && port_or_skip "$MQTT_PORT" mosquitto; then
  $T mosquitto_passwd -b -c "$STATE/mosquitto.passwd" sensor "$GOOD_PW" >/dev/null 2>&1
  chown mosquitto: "$STATE/mosquitto.passwd" 2>/dev/null; chmod 600 "$STATE/mosquitto.passwd"
  cat > "$STATE/mosquitto.conf" <<EOF
listener $MQTT_PORT 127.0.0.1
allow_anonymous false
password_file $STATE/mosquitto.passwd
persistence false
log_dest stderr
EOF
  # foreground + $! (its pid_file would be written after it drops to user mosquitto)
  /usr/sbin/mosquitto -c "$STATE/mosquitto.conf" >"$STATE/mosquitto.log" 2>&1 &
  echo $! > "$STATE/mosquitto.pid"
  if wait_port "$MQTT_PORT" 10; then MQ_OK=1
  else log "mosquitto did not start: $(tail -3 "$STATE/mosquitto.log")"; fi
fi
[ "$MQTT_PORT" = 1883 ] && MQP="" || MQP="-p $MQTT_PORT "
if [ "$MQ_OK" = 1 ]; then
  capture mosquitto-pub-not-authorised true "$ALIAS_HOST" mosquitto_pub \
    "mosquitto_pub -h $ALIAS_HOST ${MQP}-u sensor -P $BAD_PW -t plant/line1/temp -m 21.5"
  capture mosquitto-sub-v5-not-authorized true 127.0.0.1 mosquitto_sub \
    "mosquitto_sub -h 127.0.0.1 ${MQP}-V mqttv5 -t 'plant/#' -C 1 -W 5"
  capture negative-mosquitto-connection-refused false - mosquitto_pub \
    "mosquitto_pub -h 127.0.0.1 -p 2 -u sensor -P $GOOD_PW -t plant/line1/temp -m 21.5"
  capture negative-mosquitto-pub-ok false - mosquitto_pub \
    "mosquitto_pub -d -h $ALIAS_HOST ${MQP}-u sensor -P $GOOD_PW -t plant/line1/status -m 'HTTP 401 from sensor gateway, retrying'"
fi

# --- rsync daemon with an authenticated module ---
RS_OK=0
if have rsync && port_or_skip "$RSYNC_PORT" "rsync daemon"; then
  mkdir -p "$STATE/rsync-backups" && echo "nightly" > "$STATE/rsync-backups/README"
  printf 'backup:%s\n' "$GOOD_PW" > "$STATE/rsyncd.secrets" && chmod 600 "$STATE/rsyncd.secrets"
  cat > "$STATE/rsyncd.conf" <<EOF
pid file = $STATE/rsyncd.pid
address = 127.0.0.1
port = $RSYNC_PORT
use chroot = no
[backups]
  path = $STATE/rsync-backups
  auth users = backup
  secrets file = $STATE/rsyncd.secrets
  read only = yes
EOF
  if rsync --daemon --config="$STATE/rsyncd.conf" && wait_port "$RSYNC_PORT" 10; then RS_OK=1
  else log "rsync daemon did not start"; fi
fi
[ "$RSYNC_PORT" = 873 ] && RSP="" || RSP=":$RSYNC_PORT"
if [ "$RS_OK" = 1 ]; then
  capture rsync-daemon-auth-failed true "$ALIAS_HOST" rsync \
    "RSYNC_PASSWORD=$BAD_PW rsync -av rsync://backup@$ALIAS_HOST$RSP/backups/ ./restore/"
  capture negative-rsync-unknown-module false - rsync \
    "RSYNC_PASSWORD=$GOOD_PW rsync -av rsync://backup@127.0.0.1$RSP/backup/ ./restore/"
fi

# --- tinyproxy with basic auth (proxy 407) ---
PX_OK=0
if [ -x /usr/bin/tinyproxy ] && port_or_skip "$PROXY_PORT" tinyproxy; then
  cat > "$STATE/tinyproxy.conf" <<EOF
User nobody
Group nogroup
Port $PROXY_PORT
Listen 127.0.0.1
Timeout 10
MaxClients 20
BasicAuth proxyuser $GOOD_PW
ConnectPort $HTTP_PORT
ConnectPort 443
EOF
  /usr/bin/tinyproxy -d -c "$STATE/tinyproxy.conf" >"$STATE/tinyproxy.log" 2>&1 &
  echo $! > "$STATE/tinyproxy.pid"
  if wait_port "$PROXY_PORT" 10; then PX_OK=1; else log "tinyproxy did not start: $(tail -3 "$STATE/tinyproxy.log")"; fi
fi
if [ "$PX_OK" = 1 ]; then
  capture curl-proxy-connect-407 true 127.0.0.1 curl \
    "curl -sS -x http://127.0.0.1:$PROXY_PORT https://127.0.0.1:$HTTP_PORT/"
  capture curl-proxy-auth-alias true "$ALIAS_HOST" curl \
    "curl -sS -i --proxy-user proxyuser:$BAD_PW -x http://$ALIAS_HOST:$PROXY_PORT http://127.0.0.1:$HTTP_PORT/"
  have wget && capture wget-proxy-407 true "$ALIAS_HOST" wget \
    "https_proxy=http://$ALIAS_HOST:$PROXY_PORT wget --no-check-certificate https://127.0.0.1:$HTTP_PORT/"
  capture negative-curl-proxy-ok false - curl \
    "curl -sS --proxy-user proxyuser:$GOOD_PW -x http://127.0.0.1:$PROXY_PORT http://127.0.0.1:$HTTP_PORT/"
fi

# --- SMTP: a small responder (python, inline) speaking ESMTP with AUTH PLAIN/LOGIN; it accepts
#     mailer / right-password and answers every other AUTH with Postfix's 535 line ---
SM_OK=0
if port_or_skip "$SMTP_PORT" "smtp responder"; then
  cat > "$STATE/smtp_server.py" <<'PY'
import base64, socketserver, sys
GOOD = ("mailer", sys.argv[2])
class S(socketserver.StreamRequestHandler):
    def out(self, line): self.wfile.write(line.encode() + b"\r\n"); self.wfile.flush()
    def inp(self): return self.rfile.readline(4096).decode("latin-1").rstrip("\r\n")
    def check(self, user, pw):
        if (user, pw) == GOOD: self.authed = True; self.out("235 2.7.0 Authentication successful")
        else: self.out("535 5.7.8 Error: authentication failed: authentication failure")
    def handle(self):
        self.authed = False
        self.out("220 mail.fixture.test ESMTP Postfix (Debian/GNU)")
        while True:
            line = self.inp()
            if not line and self.rfile.closed: return
            cmd = line.split(" ", 1)[0].upper()
            arg = line[len(cmd):].strip()
            if cmd == "EHLO": self.out("250-mail.fixture.test"); self.out("250-SIZE 10240000"); self.out("250-AUTH PLAIN LOGIN"); self.out("250 8BITMIME")
            elif cmd == "HELO": self.out("250 mail.fixture.test")
            elif cmd == "AUTH":
                parts = arg.split(" ")
                mech = parts[0].upper()
                try:
                    if mech == "PLAIN":
                        if len(parts) > 1: data = parts[1]
                        else: self.out("334 "); data = self.inp()
                        _, u, p = base64.b64decode(data).decode().split("\0")
                        self.check(u, p)
                    elif mech == "LOGIN":
                        if len(parts) > 1: u = base64.b64decode(parts[1]).decode()
                        else: self.out("334 VXNlcm5hbWU6"); u = base64.b64decode(self.inp()).decode()
                        self.out("334 UGFzc3dvcmQ6"); p = base64.b64decode(self.inp()).decode()
                        self.check(u, p)
                    else: self.out("504 5.5.4 Unsupported authentication mechanism")
                except Exception: self.out("501 5.5.2 Syntax error in parameters")
            elif cmd == "MAIL":
                self.out("250 2.1.0 Ok" if self.authed else "530 5.7.0 Authentication required")
            elif cmd == "RCPT": self.out("250 2.1.5 Ok" if self.authed else "554 5.7.1 Relay access denied")
            elif cmd == "DATA":
                self.out("354 End data with <CR><LF>.<CR><LF>")
                while self.inp() != ".": pass
                self.out("250 2.0.0 Ok: queued as 4F2A91C0D3")
            elif cmd == "RSET": self.out("250 2.0.0 Ok")
            elif cmd == "NOOP": self.out("250 2.0.0 Ok")
            elif cmd == "QUIT": self.out("221 2.0.0 Bye"); return
            elif not line: return
            else: self.out("502 5.5.2 Error: command not recognized")
socketserver.ThreadingTCPServer.allow_reuse_address = True
socketserver.ThreadingTCPServer(("127.0.0.1", int(sys.argv[1])), S).serve_forever()
PY
  python3 "$STATE/smtp_server.py" "$SMTP_PORT" "$GOOD_PW" >/dev/null 2>&1 &
  echo $! > "$STATE/smtp.pid"
  if wait_port "$SMTP_PORT" 10; then SM_OK=1; else log "smtp responder did not start"; fi
fi
if [ "$SM_OK" = 1 ]; then
  printf 'From: alerts@fixture.test\r\nTo: ops@fixture.test\r\nSubject: nightly report\r\n\r\nall green\r\n' > "$STATE/work/mail.txt"
  capture curl-smtp-login-denied true "$ALIAS_HOST" curl \
    "curl -sS smtp://$ALIAS_HOST:$SMTP_PORT --mail-from alerts@fixture.test --mail-rcpt ops@fixture.test -u mailer:$BAD_PW -T mail.txt"
  capture python-smtplib-535 true "$ALIAS_HOST" python3 \
    "python3 -c \"import smtplib; s = smtplib.SMTP('$ALIAS_HOST', $SMTP_PORT, timeout=10); s.login('mailer', '$BAD_PW'); s.sendmail('alerts@fixture.test', ['ops@fixture.test'], 'Subject: test\\n\\nhi')\""
  have swaks && capture swaks-auth-failed true 127.0.0.1 swaks \
    "swaks --server 127.0.0.1:$SMTP_PORT --from alerts@fixture.test --to ops@fixture.test --auth LOGIN --auth-user mailer --auth-password $BAD_PW --timeout 10"
  capture negative-python-smtplib-sent false - python3 \
    "python3 -c \"import smtplib; s = smtplib.SMTP('127.0.0.1', $SMTP_PORT, timeout=10); print(s.login('mailer', '$GOOD_PW')); print(s.sendmail('alerts@fixture.test', ['ops@fixture.test'], 'Subject: 401 and 403 counts\\n\\nforbidden: 0')); s.quit()\""
fi

# --- vsftpd (local users via PAM: the fixture user) ---
FTP_OK=0
if [ -x /usr/sbin/vsftpd ] && port_or_skip "$FTP_PORT" vsftpd; then
  mkdir -p "$STATE/ftp-empty" && chmod 755 "$STATE/ftp-empty"
  cat > "$STATE/vsftpd.conf" <<EOF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$FTP_PORT
background=NO
anonymous_enable=NO
local_enable=YES
write_enable=NO
pam_service_name=vsftpd
secure_chroot_dir=$STATE/ftp-empty
seccomp_sandbox=NO
isolate=NO
isolate_network=NO
pasv_address=127.0.0.1
pasv_min_port=40000
pasv_max_port=40100
EOF
  /usr/sbin/vsftpd "$STATE/vsftpd.conf" >"$STATE/vsftpd.log" 2>&1 &
  echo $! > "$STATE/vsftpd.pid"
  if wait_port "$FTP_PORT" 10; then FTP_OK=1; else log "vsftpd did not start: $(tail -3 "$STATE/vsftpd.log")"; fi
fi
[ "$FTP_PORT" = 21 ] && FP="" || FP=":$FTP_PORT"
if [ "$FTP_OK" = 1 ]; then
  have lftp && capture lftp-login-incorrect true "$ALIAS_HOST" lftp \
    "lftp -u $FIX_USER,$BAD_PW -e 'set net:max-retries 1; set net:reconnect-interval-base 1; ls; bye' ftp://$ALIAS_HOST$FP"
  capture curl-ftp-530 true 127.0.0.1 curl \
    "curl -sS ftp://$FIX_USER:$BAD_PW@127.0.0.1$FP/exports/"
  capture python-ftplib-530 true "$ALIAS_HOST" python3 \
    "python3 -c \"from ftplib import FTP; f = FTP(); f.connect('$ALIAS_HOST', ${FTP_PORT}, timeout=10); f.login('$FIX_USER', '$BAD_PW'); print(f.nlst())\""
fi

# --- slapd (OpenLDAP) with a small mdb database ---
LDAP_OK=0
if [ -x /usr/sbin/slapd ] && port_or_skip "$LDAP_PORT" slapd; then
  mkdir -p "$STATE/ldap"
  cat > "$STATE/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile $STATE/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
suffix "dc=corp,dc=example"
rootdn "cn=admin,dc=corp,dc=example"
rootpw $GOOD_PW
directory $STATE/ldap
access to * by dn.exact="cn=admin,dc=corp,dc=example" write by * read
EOF
  if /usr/sbin/slapd -f "$STATE/slapd.conf" -h "ldap://127.0.0.1:$LDAP_PORT/" >"$STATE/slapd.log" 2>&1 && wait_port "$LDAP_PORT" 10; then
    printf 'dn: dc=corp,dc=example\nobjectClass: dcObject\nobjectClass: organization\ndc: corp\no: corp\n' \
      | $T ldapadd -x -H "ldap://127.0.0.1:$LDAP_PORT" -D "cn=admin,dc=corp,dc=example" -w "$GOOD_PW" >/dev/null 2>&1
    LDAP_OK=1
  else log "slapd did not start: $(tail -3 "$STATE/slapd.log")"; fi
fi
[ "$LDAP_PORT" = 389 ] && LP="" || LP=":$LDAP_PORT"
if [ "$LDAP_OK" = 1 ]; then
  capture ldapsearch-invalid-credentials true "$ALIAS_HOST" ldapsearch \
    "ldapsearch -x -H ldap://$ALIAS_HOST$LP -D 'cn=admin,dc=corp,dc=example' -w $BAD_PW -b 'dc=corp,dc=example' '(uid=jdoe)'"
  capture ldapwhoami-invalid-credentials true 127.0.0.1 ldapwhoami \
    "ldapwhoami -x -H ldap://127.0.0.1$LP -D 'uid=svc-jenkins,ou=services,dc=corp,dc=example' -w $BAD_PW"
  printf 'dn: ou=people,dc=corp,dc=example\nobjectClass: organizationalUnit\nou: people\n' > "$STATE/work/people.ldif"
  capture ldapadd-anonymous-strong-auth true "$ALIAS_HOST" ldapadd \
    "ldapadd -x -H ldap://$ALIAS_HOST$LP -f people.ldif"
  capture negative-ldapsearch-no-such-object false - ldapsearch \
    "ldapsearch -x -LLL -H ldap://127.0.0.1$LP -b 'ou=forbidden,dc=corp,dc=example' '(cn=*)'"
fi

# --- container registry (Debian docker-registry = distribution v2, htpasswd auth) + skopeo ---
REG_OK=0
if have docker-registry && have htpasswd && port_or_skip "$REG_PORT" docker-registry; then
  htpasswd -Bbn ci "$GOOD_PW" > "$STATE/registry.htpasswd" 2>/dev/null
  mkdir -p "$STATE/registry"
  cat > "$STATE/registry.yml" <<EOF
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $STATE/registry
http:
  addr: 127.0.0.1:$REG_PORT
auth:
  htpasswd:
    realm: fixture-registry
    path: $STATE/registry.htpasswd
EOF
  docker-registry serve "$STATE/registry.yml" >"$STATE/registry.log" 2>&1 &
  echo $! > "$STATE/registry.pid"
  if wait_port "$REG_PORT" 15; then REG_OK=1; else log "docker-registry did not start: $(tail -3 "$STATE/registry.log")"; fi
fi
if [ "$REG_OK" = 1 ] && have skopeo; then
  echo '{}' > "$STATE/work/auth.json"
  capture skopeo-inspect-unauthorized true "$ALIAS_HOST" skopeo \
    "REGISTRY_AUTH_FILE=./auth.json skopeo inspect --tls-verify=false docker://$ALIAS_HOST:$REG_PORT/team/api:1.4"
  capture skopeo-login-invalid true 127.0.0.1 skopeo \
    "skopeo login --authfile ./auth.json --tls-verify=false -u ci -p $BAD_PW 127.0.0.1:$REG_PORT"
  capture skopeo-copy-bad-creds true "$ALIAS_HOST" skopeo \
    "skopeo copy --src-tls-verify=false --src-creds ci:$BAD_PW docker://$ALIAS_HOST:$REG_PORT/team/worker:2.0 dir:./worker"
  capture negative-skopeo-manifest-unknown false - skopeo \
    "skopeo inspect --tls-verify=false --creds ci:$GOOD_PW docker://127.0.0.1:$REG_PORT/team/api:1.4"
fi

# ---------------------------------------------------------------------------------------------------
# 5. manifest
# ---------------------------------------------------------------------------------------------------
{
  echo "["
  for i in "${!MANIFEST_ROWS[@]}"; do
    if [ "$i" -lt $(( ${#MANIFEST_ROWS[@]} - 1 )) ]; then echo "${MANIFEST_ROWS[$i]},"; else echo "${MANIFEST_ROWS[$i]}"; fi
  done
  echo "]"
} > "$OUT/manifest.json"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$OUT/manifest.json" || die "manifest.json is not valid JSON"
log "wrote ${#MANIFEST_ROWS[@]} fixtures + manifest.json to $OUT"
