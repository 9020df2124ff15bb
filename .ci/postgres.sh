#!/usr/bin/env bash
# Start a throw-away PostgreSQL 15 server on 127.0.0.1 for the test suite and print the URL to
# export as YARNLOG_TEST_PG_URL. Installs the server from the OS packages if it is missing.
# PostgreSQL refuses to run as root, so the server runs as the unprivileged 'postgres' user.
# 'postgres.sh stop' stops the server this script started on the same port.
set -euo pipefail
PORT="${YARNLOG_PG_PORT:-55432}"
STATE="/tmp/yarnlog-pg-$PORT.datadir"
as_db_user() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
if [ "${1:-}" = stop ]; then
  [ -f "$STATE" ] || exit 0
  DATA=$(cat "$STATE")
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  as_db_user "'$PGBIN/pg_ctl' -D '$DATA' -m fast stop >/dev/null" || true
  rm -rf "$DATA" "$STATE"
  exit 0
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  else
    echo "PostgreSQL is not installed and this user cannot install it" >&2; exit 1
  fi
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
# A port something already listens on (a leftover server) is skipped for the next free one.
for _ in $(seq 1 20); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || break
  PORT=$((PORT + 1))
done
STATE="/tmp/yarnlog-pg-$PORT.datadir"
DATA=$(mktemp -d /tmp/yarnlog-pg.XXXXXX)
echo "$DATA" > "$STATE"
[ "$(id -u)" = 0 ] && chown postgres "$DATA"
as_db_user "'$PGBIN/initdb' -D '$DATA' -A trust -U postgres >/dev/null"
as_db_user "'$PGBIN/pg_ctl' -D '$DATA' -l '$DATA/server.log' -w -o \"-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" start >/dev/null"
"$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE yarnlog_test" >&2
echo "postgresql://postgres@127.0.0.1:$PORT/yarnlog_test"
