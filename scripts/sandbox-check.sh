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

source scripts/lib/sandbox.sh
sandbox_workdir sandbox-check
data="$work/data"

log() { printf '== %s\n' "$*" >&2; }

log "building"
sandbox_build cashier sandboxcheck

# The sandbox as shipped: its own rate limits and log level.
log "first start"
t0=$SECONDS
sandbox_run first "$data" "sandbox ready"
log "ready after $((SECONDS - t0))s"
"$work/sandboxcheck" --data "$data"
sandbox_stop

log "restart on the same data directory"
t0=$SECONDS
sandbox_run second "$data" "sandbox ready"
log "ready after $((SECONDS - t0))s"
"$work/sandboxcheck" --data "$data" --resumed
sandbox_stop

log "sandbox check passed"
