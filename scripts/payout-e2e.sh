#!/usr/bin/env bash
# Payouts and their webhooks, end to end on the sandbox: builds the
# binaries, starts `cashier sandbox` on a throwaway data directory with its
# webhook URL at a local receiver and the rate limits out of the way, then
# runs payoute2e: N payouts created through the API (allowance mode, or
# --mode balance), the time to every SUCCESS status and to every SUCCESS
# webhook, the lag of every webhook from its status change, and every
# recipient checked on chain. Exits non-zero on any failure.
#
#   scripts/payout-e2e.sh                 # N=1000
#   scripts/payout-e2e.sh --n 400 --concurrency 16
#   scripts/payout-e2e.sh --n 10000 --batch 100 --mode balance
set -euo pipefail

cd "$(dirname "$0")/.."
READY_TIMEOUT=${READY_TIMEOUT:-180}
source scripts/lib/sandbox.sh
sandbox_workdir payout-e2e
sandbox_build cashier payoute2e
port=$("$work/payoute2e" --free-port)
sandbox_start --webhook-url "http://127.0.0.1:$port/hook"

args=("$@")
if [[ " ${args[*]-} " == *" --mode balance "* ]]; then
  # Balance-mode payouts wait for an operator's review by default: the
  # measured merchant's rule is set to pay them without one.
  merchant=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["merchantId"])' "$work/data/sandbox.json")
  "$work/cashier" payout policy --data "$work/data" --merchant "$merchant" --mode never >/dev/null
fi
[[ " ${args[*]-} " == *" --n "* ]] || args+=(--n 1000)
"$work/payoute2e" --data "$work/data" --listen "127.0.0.1:$port" "${args[@]}"
