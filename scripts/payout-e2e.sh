#!/usr/bin/env bash
# Payouts and their webhooks, end to end on the sandbox: builds the
# binaries, starts `cashier sandbox` on a throwaway data directory with its
# webhook URL at a local receiver and the rate limits out of the way, then
# runs payoute2e: N allowance-mode payouts created through the API, the
# time to every SUCCESS status and to every SUCCESS webhook, the lag of
# every webhook from its status change, and every recipient checked on
# chain. Exits non-zero on any failure.
#
#   scripts/payout-e2e.sh                 # N=1000
#   scripts/payout-e2e.sh --n 400 --concurrency 16
set -euo pipefail

cd "$(dirname "$0")/.."
READY_TIMEOUT=${READY_TIMEOUT:-180}

work=$(mktemp -d)
pid=""
cleanup() {
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/cashier" ./cmd/cashier
go build -o "$work/payoute2e" ./cmd/payoute2e
port=$("$work/payoute2e" --free-port)

"$work/cashier" sandbox --data "$work/data" --free-ports --log-level warn \
	--webhook-url "http://127.0.0.1:$port/hook" \
	--rate-per-key 100000000 --rate-per-ip 100000000 --rate-per-endpoint 100000000 \
	>"$work/sandbox.out" 2>"$work/sandbox.log" &
pid=$!
deadline=$((SECONDS + READY_TIMEOUT))
until grep -qs "sandbox ready" "$work/sandbox.log"; do
	kill -0 "$pid" 2>/dev/null || { echo "the sandbox exited:"; cat "$work/sandbox.log"; exit 1; }
	((SECONDS < deadline)) || { echo "the sandbox was not ready within ${READY_TIMEOUT}s"; tail -n 50 "$work/sandbox.log"; exit 1; }
	sleep 0.2
done

args=("$@")
[[ " ${args[*]-} " == *" --n "* ]] || args+=(--n 1000)
"$work/payoute2e" --data "$work/data" --listen "127.0.0.1:$port" "${args[@]}"
