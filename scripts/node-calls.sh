#!/usr/bin/env bash
# Node requests per block on an idle sandbox: starts `cashier sandbox` on
# a throwaway data directory, lets it settle, then reads its metrics
# (cashier_chain_node_requests_total and cashier_chain_head) twice,
# DURATION seconds apart, and prints each network's requests per block
# made meanwhile. Public providers count requests, so the watcher's path
# is measured with nothing else to do. CASHIER names another service
# binary to measure (an earlier build).
#
#   bash scripts/node-calls.sh [DURATION]     # default 60
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60}
source scripts/lib/sandbox.sh
sandbox_workdir node-calls
sandbox_build cashier
mport=$(free_port)
sandbox_start --metrics-addr "127.0.0.1:$mport"
sleep 5 # the first rounds catch up from the chains' start

# sample prints "CHAIN REQUESTS HEAD" per network.
sample() {
  curl -fsS "http://127.0.0.1:$mport/metrics" | awk '
    /^cashier_chain_node_requests_total\{/ { match($0, /chain="[^"]*"/); c = substr($0, RSTART+7, RLENGTH-8); req[c] += $NF }
    /^cashier_chain_head\{/ { match($0, /chain="[^"]*"/); c = substr($0, RSTART+7, RLENGTH-8); head[c] = $NF }
    END { for (c in head) printf "%s %d %d\n", c, req[c], head[c] }' | sort
}
before=$(sample)
sleep "$duration"
after=$(sample)
echo "== node requests per block over ${duration}s on an idle sandbox ($(uptime | sed 's/.*load/load/'))"
join <(echo "$before") <(echo "$after") | awk '{
  blocks = $5 - $3; reqs = $4 - $2
  if (blocks > 0) printf "%-8s %6d requests %5d blocks %6.2f per block\n", $1, reqs, blocks, reqs / blocks
  else printf "%-8s %6d requests, no new block\n", $1, reqs }'
