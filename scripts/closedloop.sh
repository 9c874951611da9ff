#!/usr/bin/env bash
# Closed-loop saturation against one sandbox, in one sitting
# (docs/benchmarks.md, "Closed-loop saturation").
#
#   bash scripts/closedloop.sh [ROUNDS] [DURATION] [CLIENTS...]
#   bash scripts/closedloop.sh 3 10s 8 32 128
#
# Builds the binaries, starts `cashier sandbox` on a throwaway data
# directory with the rate limits out of the way (SERVICE_FLAGS adds
# flags), and runs ROUNDS rounds; each round runs loadgen --clients N for
# every N given, first with refused creates sent again at once, then
# honouring Retry-After, so that the figures being compared are taken
# minutes apart at most. Service and generator share the machine's cores
# unpinned, as a batch job on the same host would. MODES lists the modes
# of each round (default "once honour"; "drop" gives a refused create up
# and sends the next at once); LOADGEN_FLAGS adds loadgen flags; CASHIER
# names another service binary to measure (an earlier build), LOADGEN a
# loadgen binary (both: nothing is built); WEBHOOKS=1 sets the sandbox's
# webhook URL to a cheap receiver in loadgen, which reports how many
# created orders' webhooks were behind at the end of each run. Each run
# prints created/s, refusals/s, the created's p50/p99 and the service's
# CPU: per create when nothing was refused, and per refusal costing the
# creates at the round's first figure per create (the 8-client run's, when
# nothing was refused).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} duration=${2:-10s}
shift 2 2>/dev/null || shift $#
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(8 32 128)
source scripts/lib/sandbox.sh
sandbox_workdir closedloop
sandbox_build cashier loadgen
sandbox_start_measured

for round in $(seq "$rounds"); do
  createus=
  for mode in ${MODES:-once honour}; do
    case $mode in
      once) flag= ;;
      honour) flag=--honour-retry-after ;;
      drop) flag=--drop-refused ;;
      *) echo "unknown mode $mode (once, honour, drop)"; exit 2 ;;
    esac
    for n in "${clients[@]}"; do
      echo "== round $round, $(uptime | sed 's/.*load/load/')"
      cost=
      [ -n "$createus" ] && cost="--create-cpu-us $createus"
      "$work/loadgen" --sandbox "$work/data/sandbox.json" --service-pid "$pid" --clients "$n" --duration "$duration" $flag $cost ${hooks[@]+"${hooks[@]}"} ${LOADGEN_FLAGS:-} | tee "$work/run.out"
      # The round's first run with nothing refused costs a create, for the
      # refusals of the runs after it.
      [ -n "$createus" ] || createus=$(sed -n 's/.* \([0-9]*\) cpu-µs per create (nothing refused).*/\1/p' "$work/run.out")
      sleep 1
    done
  done
done
