#!/usr/bin/env bash
# How soon a paid order reaches the merchant, on the sandbox with its
# default settings: builds the binaries, starts `cashier sandbox` on a
# throwaway data directory with its webhook URL at a local receiver, then
# runs paylatency: N orders paid one after another, each timed from the
# moment the block holding its payment was made to its SUCCESS webhook.
# Exits non-zero on any failure.
#
#   scripts/pay-latency.sh                     # 50 payments on ETH
#   scripts/pay-latency.sh --n 50 --chain TRON
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/sandbox.sh
sandbox_workdir pay-latency
sandbox_build cashier paylatency
port=$(free_port)
sandbox_start --webhook-url "http://127.0.0.1:$port/hook"
"$work/paylatency" --data "$work/data" --listen "127.0.0.1:$port" "$@"
