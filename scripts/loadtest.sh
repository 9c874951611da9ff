#!/usr/bin/env bash
# Signed collection creation against the sandbox (embedded SQLite), measured
# with cmd/loadgen (docs/benchmarks.md, "Order creation under load").
#
#   bash scripts/loadtest.sh [loadgen flags...]
#   bash scripts/loadtest.sh --rate 1000 --duration 10s --preconnect 128
#   bash scripts/loadtest.sh --overload 3 --duration 8s --preconnect 128 --every 2s
#   bash scripts/loadtest.sh --clients 32 --duration 10s [--honour-retry-after]
#   SERVICE_FLAGS="--max-wait 1ms" bash scripts/loadtest.sh --clients 128 --duration 10s --create-cpu-us 450
#
# Builds the binaries, starts `cashier sandbox` on a throwaway data
# directory with the rate limits out of the way, runs loadgen with the
# flags given (default: 1,000/s for 10 s), and stops the sandbox. On a
# machine with two or more CPUs the service is pinned to CPU 1 and the
# generator to CPU 0 (taskset), so that they do not compete; PIN=0 leaves
# both unpinned. Run it on an otherwise quiet machine. loadgen is given the
# service's process id (--service-pid) to report its CPU time per create
# and per refusal; SERVICE_FLAGS adds flags to the service, and CASHIER
# names another service binary to measure (an earlier build), LOADGEN a
# loadgen binary (both: nothing is built). WEBHOOKS=1 sets the sandbox's
# webhook URL to a cheap receiver in loadgen, which reports how many
# created orders' webhooks were behind when the load ended.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/sandbox.sh
sandbox_workdir loadtest
sandbox_build cashier loadgen
service=() generator=()
if [ "${PIN:-1}" != 0 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  service=(taskset -c 1) generator=(taskset -c 0)
fi
SANDBOX_PREFIX=(${service[@]+"${service[@]}"})
sandbox_start_measured

[ $# -gt 0 ] || set -- --rate 1000 --duration 10s
echo "== service: ${service[*]:-unpinned}; generator: ${generator[*]:-unpinned}"
${generator[@]+"${generator[@]}"} "$work/loadgen" --sandbox "$work/data/sandbox.json" --service-pid "$pid" ${hooks[@]+"${hooks[@]}"} "$@"
