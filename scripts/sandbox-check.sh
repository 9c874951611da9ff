#!/usr/bin/env bash
# Black-box acceptance check of the sandbox: builds the binaries, starts
# `cashier sandbox` on a fresh data directory, runs sandboxcheck against it,
# stops it with SIGTERM, starts it again on the same directory and checks
# that the state survived. Exits non-zero on any failure.
#
#   scripts/sandbox-check.sh            # from the repository root
#   READY_TIMEOUT=300 scripts/sandbox-check.sh
set -euo pipefail

cd "$(dirname "$0")/.."
READY_TIMEOUT=${READY_TIMEOUT:-120} # seconds to wait for "sandbox ready"
STOP_TIMEOUT=${STOP_TIMEOUT:-30}    # seconds to wait for exit after SIGTERM

work=$(mktemp -d)
data="$work/data"
pid=""
cleanup() {
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		sleep 2
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

log() { printf '== %s\n' "$*" >&2; }

log "building"
go build -o "$work/cashier" ./cmd/cashier
go build -o "$work/sandboxcheck" ./cmd/sandboxcheck

# start LOG: starts the sandbox in the background and waits for it.
start() {
	local stderr="$1"
	"$work/cashier" sandbox --data "$data" --free-ports >"$stderr.out" 2>"$stderr" &
	pid=$!
	local deadline=$((SECONDS + READY_TIMEOUT))
	until [[ -f "$data/sandbox.json" ]] && grep -qs "sandbox ready" "$stderr"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			log "the sandbox exited before it was ready:"
			cat "$stderr" >&2
			exit 1
		fi
		if ((SECONDS >= deadline)); then
			log "the sandbox was not ready within ${READY_TIMEOUT}s:"
			tail -n 50 "$stderr" >&2
			exit 1
		fi
		sleep 0.2
	done
}

# stop: SIGTERM, then require the process to exit cleanly in time.
stop() {
	kill -TERM "$pid"
	local deadline=$((SECONDS + STOP_TIMEOUT))
	while kill -0 "$pid" 2>/dev/null; do
		if ((SECONDS >= deadline)); then
			log "the sandbox did not exit within ${STOP_TIMEOUT}s of SIGTERM"
			exit 1
		fi
		sleep 0.2
	done
	local rc=0
	wait "$pid" || rc=$?
	pid=""
	if ((rc != 0)); then
		log "the sandbox exited with status $rc after SIGTERM"
		exit 1
	fi
}

log "first start"
t0=$SECONDS
start "$work/first.log"
log "ready after $((SECONDS - t0))s"
"$work/sandboxcheck" --data "$data"
stop

log "restart on the same data directory"
t0=$SECONDS
start "$work/second.log"
log "ready after $((SECONDS - t0))s"
"$work/sandboxcheck" --data "$data" --resumed
stop

log "sandbox check passed"
