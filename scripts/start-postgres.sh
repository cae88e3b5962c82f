#!/usr/bin/env bash
# Starts a local PostgreSQL server for the gate's ledger tests and prints the line to eval:
#   eval "$(scripts/start-postgres.sh)"   # sets PALISADE_TEST_PG
# Idempotent: installs Debian's `postgresql` when missing, creates the cluster once, starts it
# only when it is not running, creates the database only when missing. The server listens on
# 127.0.0.1 only, with trust authentication for the one test role: a throwaway test server,
# not a deployment. Progress goes to stderr; stdout holds only the export line.
set -euo pipefail
PORT="${PALISADE_PG_PORT:-54329}"
DATA="${PALISADE_PG_DIR:-${TMPDIR:-/tmp}/palisade-pg}"
ROLE=palisade
DB=palisade

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "start-postgres: installing postgresql" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"

# The server refuses to run as root: run it as the `postgres` user the package creates.
as_server_user() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"
  fi
}

mkdir -p "$DATA"
if [ "$(id -u)" = 0 ]; then chown postgres: "$DATA"; fi
if [ ! -f "$DATA/PG_VERSION" ]; then
  echo "start-postgres: creating a cluster in $DATA" >&2
  as_server_user "'$BIN/initdb' -D '$DATA' -A trust -U $ROLE" >&2
fi
if ! as_server_user "'$BIN/pg_ctl' -D '$DATA' status" >/dev/null 2>&1; then
  echo "start-postgres: starting on 127.0.0.1:$PORT" >&2
  as_server_user "'$BIN/pg_ctl' -D '$DATA' -l '$DATA/server.log' -w \
    -o \"-c listen_addresses=127.0.0.1 -p $PORT -k '$DATA' -c max_connections=200\" start" >&2
fi
if ! "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d postgres -tAc \
     "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$ROLE" "$DB"
fi
echo "export PALISADE_TEST_PG='postgresql://$ROLE@127.0.0.1:$PORT/$DB'"
