#!/usr/bin/env bash
# Throwaway PostgreSQL 15 server for the store tests.
#
#   scripts/pg-test-server.sh start   # idempotent; prints the URL
#   scripts/pg-test-server.sh url     # prints the URL (does not start anything)
#   scripts/pg-test-server.sh stop    # stops the server and removes its directory
#   eval "$(scripts/pg-test-server.sh env)"   # exports CLAWTOOLS_TEST_PG_URL
#
# The server listens on a Unix socket only (no TCP), trusts every local connection, and runs
# with fsync off: it is for tests, never for data. initdb refuses to run as root, so when we
# are root the server runs as the `postgres` user and the directory is handed to it.
# Overridable: CLAWTOOLS_PG_DIR (default /tmp/clawtools-pg), CLAWTOOLS_PG_PORT (55432),
# CLAWTOOLS_PG_BIN (/usr/lib/postgresql/15/bin).
set -euo pipefail

PG_DIR=${CLAWTOOLS_PG_DIR:-/tmp/clawtools-pg}
PG_PORT=${CLAWTOOLS_PG_PORT:-55432}
PG_BIN=${CLAWTOOLS_PG_BIN:-/usr/lib/postgresql/15/bin}
DATA="$PG_DIR/data"
SOCK="$PG_DIR/sock"
LOG="$PG_DIR/server.log"
URL="postgresql:///postgres?host=$SOCK&port=$PG_PORT&user=postgres"

as_pg() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() {
  [[ -f "$DATA/postmaster.pid" ]] && as_pg "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
  if running; then
    echo "$URL"
    return 0
  fi
  mkdir -p "$SOCK"
  if [[ $(id -u) -eq 0 ]]; then
    chown -R postgres: "$PG_DIR"
  fi
  chmod 700 "$PG_DIR"
  if [[ ! -f "$DATA/PG_VERSION" ]]; then
    as_pg "$PG_BIN/initdb" -D "$DATA" -A trust -U postgres --no-sync -E UTF8 >"$PG_DIR/initdb.log" 2>&1 || {
      cat "$PG_DIR/initdb.log" >&2
      exit 1
    }
  fi
  as_pg "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 30 \
    -o "-p $PG_PORT -k $SOCK -c listen_addresses='' -c fsync=off -c max_connections=200" \
    start >/dev/null || {
    cat "$LOG" >&2
    exit 1
  }
  echo "$URL"
}

stop() {
  if running; then
    as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
  fi
  rm -rf "$PG_DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) echo "$URL" ;;
  env) echo "export CLAWTOOLS_TEST_PG_URL='$(start)'" ;;
  *)
    echo "usage: $0 start|stop|url|env" >&2
    exit 2
    ;;
esac
