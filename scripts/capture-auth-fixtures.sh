#!/usr/bin/env bash
# capture-auth-fixtures.sh - capture REAL client output of authentication failures (and look-alike
# non-failures) as test fixtures for the auth detector (test/auth-fixtures.test.ts).
#
# What it does, in order:
#   1. Installs (apt-get, Debian package names) whatever of these is missing:
#        openssh-server openssh-client sshpass postgresql postgresql-client redis-server redis-tools
#        mariadb-server mariadb-client curl git python3 npm(only if `npm` is absent)
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
# capture <file-stem> <positive:true|false> <target|-> <tool> <command string>
capture() {
  local stem="$1" positive="$2" target="$3" tool="$4" cmd="$5"
  local file="$stem.txt"
  {
    printf '$ %s\n' "$cmd"
    (cd "$STATE/work" && $T bash -c "$cmd" </dev/null 2>&1)
  } > "$OUT/$file"
  local rc=$?
  local tjson='null'; [ "$target" != "-" ] && tjson="\"$target\""
  MANIFEST_ROWS+=("  { \"file\": \"$file\", \"positive\": $positive, \"target\": $tjson, \"tool\": \"$tool\" }")
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
  capture psql-wrong-password-alias true "$ALIAS_HOST" psql \
    "psql 'postgresql://appuser:$BAD_PW@$ALIAS_HOST:$PG_PORT/appdb' -c 'select 1'"
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
