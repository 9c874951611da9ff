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

source scripts/lib/sandbox.sh
sandbox_workdir pg-loadtest
sandbox_postgres bench
export CASHIER_MASTER_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
sandbox_build cashier loadgen

CASHIER_DATABASE_URL= sandbox_run chains "$work/chains" "sandbox chains ready" --only chains

# The first instance provisions the demo merchant; the others start from
# its sandbox.json (same merchant, keys and contracts) on a port of their own.
for i in $(seq "$instances"); do
  mkdir -p "$work/i$i"
  if [ "$i" = 1 ]; then
    cp "$work/chains/sandbox.json" "$work/i1/sandbox.json"
  else
    sed 's/"baseUrl": "[^"]*"/"baseUrl": ""/' "$work/i1/sandbox.json" >"$work/i$i/sandbox.json"
  fi
  sandbox_run "i$i" "$work/i$i" "sandbox ready" --only service "${sandbox_unlimited[@]}"
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

