#!/usr/bin/env bash
# Signed collection creation on PostgreSQL with 1 and N instances, measured
# with cmd/loadgen (docs/benchmarks.md, "Order creation under load").
#
#   bash scripts/pg-loadtest.sh [instances=3] [rate=1000] [duration=10s]
#
# Starts a throwaway PostgreSQL server (initdb into a temporary directory,
# a free port on 127.0.0.1, settings as shipped), one set of sandbox dev
# chains, and `cashier sandbox --only service` instances on one database
# sharing one master key, each with its own data directory, all serving the
# one demo merchant. The offered rate is split evenly over the instances, one load
# generator each; the figures are printed per instance. Everything started
# is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
instances=${1:-3}
rate=${2:-1000}
duration=${3:-10s}

bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "needs a PostgreSQL server: apt-get install -y postgresql"; exit 1; }
work=$(mktemp -d /tmp/pg-loadtest.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -f "$work/pg/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$work"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as_pg "$bin/initdb" -D "$work/pg" -U postgres -A trust --encoding=UTF8 --locale=C --no-instructions >/dev/null
as_pg "$bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
  -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres bench
export CASHIER_DATABASE_URL="postgres://postgres@127.0.0.1:$port/bench?sslmode=disable"
export CASHIER_MASTER_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')

go build -o "$work/cashier" ./cmd/cashier
go build -o "$work/loadgen" ./cmd/loadgen
limits=(--rate-per-key 100000000 --rate-per-ip 100000000 --rate-per-endpoint 100000000 --log-level warn)

(CASHIER_DATABASE_URL= "$work/cashier" sandbox --only chains --data "$work/chains" --free-ports >"$work/chains.log" 2>&1) &
pids+=($!)
for _ in $(seq 300); do grep -q '"TRON"' "$work/chains/sandbox.json" 2>/dev/null && break; sleep 0.2; done

# The first instance provisions the demo merchant; the others start from
# its sandbox.json (same merchant, keys and contracts) on a port of their own.
for i in $(seq "$instances"); do
  mkdir -p "$work/i$i"
  if [ "$i" = 1 ]; then
    cp "$work/chains/sandbox.json" "$work/i1/sandbox.json"
  else
    sed 's/"baseUrl": "[^"]*"/"baseUrl": ""/' "$work/i1/sandbox.json" >"$work/i$i/sandbox.json"
  fi
  ("$work/cashier" sandbox --only service --data "$work/i$i" --free-ports "${limits[@]}" >"$work/i$i.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 300); do grep -q '"baseUrl": "[^"]' "$work/i$i/sandbox.json" 2>/dev/null && break; sleep 0.2; done
  grep -q '"baseUrl": "[^"]' "$work/i$i/sandbox.json" || { echo "instance $i did not start:"; cat "$work/i$i.log"; exit 1; }
done

load() { # N instances share the rate
  local n=$1 each
  each=$(( rate / n ))
  echo "== $n instance(s), $rate/s offered in total for $duration"
  local lg=()
  for i in $(seq "$n"); do
    "$work/loadgen" --sandbox "$work/i$i/sandbox.json" --rate "$each" --duration "$duration" >"$work/load$n.$i.txt" 2>&1 &
    lg+=($!)
  done
  for p in "${lg[@]}"; do wait "$p"; done
  for i in $(seq "$n"); do echo "-- instance $i"; cat "$work/load$n.$i.txt"; done
}
# figure N WHAT: the figure of WHAT ("created", "errors") of the run with N
# instances, summed over them.
figure() {
  cat "$work"/load"$1".*.txt | sed -n "s/^$2 [0-9]* (\([0-9.]*\)\/s).*/\1/p; s/^$2: \([0-9]*\).*/\1/p" |
    awk '{ s += $1 } END { print s + 0 }'
}
load 1
load "$instances"
one=$(figure 1 created) many=$(figure "$instances" created)
echo "== summary ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "1 instance:  $one created/s, $(figure 1 errors) errors"
echo "$instances instances: $many created/s in all, $(figure "$instances" errors) errors"
awk -v a="$many" -v b="$one" 'BEGIN { printf "ratio: %.2f× one instance'"'"'s created/s\n", (b > 0 ? a / b : 0) }'

