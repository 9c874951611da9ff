# Sourced by the scripts that measure a throwaway sandbox (loadtest.sh,
# closedloop.sh, payout-e2e.sh, pay-latency.sh): one way to build the
# binaries, start `cashier sandbox` with the rate limits out of the way,
# wait for it and stop it.
#
#   source scripts/lib/sandbox.sh
#   sandbox_workdir NAME            # $work: a temporary directory, removed on exit (KEEP=1 keeps it)
#   sandbox_build cashier loadgen   # $work/cashier, $work/loadgen (CASHIER, LOADGEN: copy these builds instead)
#   sandbox_start [flags...]        # $pid; SANDBOX_PREFIX=(taskset -c 1) runs it under a prefix
#   port=$(free_port)               # a port of 127.0.0.1 nothing listens on, for a receiver
#
# The sandbox's output goes to $work/sandbox.out and its log to
# $work/sandbox.log; SERVICE_FLAGS adds flags; READY_TIMEOUT (seconds,
# default 120) bounds the wait for "sandbox ready".

pid=""
SANDBOX_PREFIX=(${SANDBOX_PREFIX[@]+"${SANDBOX_PREFIX[@]}"})

sandbox_workdir() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  trap sandbox_cleanup EXIT
}

sandbox_cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}

# sandbox_build NAME...: builds ./cmd/NAME into $work/NAME; an environment
# variable named NAME in capitals (CASHIER, LOADGEN) copies that binary
# instead, to measure another build.
sandbox_build() {
  local name var
  for name in "$@"; do
    var=$(echo "$name" | tr '[:lower:]' '[:upper:]')
    if [ -n "${!var:-}" ]; then cp "${!var}" "$work/$name"; else go build -o "$work/$name" "./cmd/$name"; fi
  done
}

sandbox_start() {
  ${SANDBOX_PREFIX[@]+"${SANDBOX_PREFIX[@]}"} "$work/cashier" sandbox --data "$work/data" --free-ports --log-level warn \
    --rate-per-key 100000000 --rate-per-ip 100000000 --rate-per-endpoint 100000000 ${SERVICE_FLAGS:-} "$@" \
    >"$work/sandbox.out" 2>"$work/sandbox.log" &
  pid=$!
  local deadline=$((SECONDS + ${READY_TIMEOUT:-120}))
  until grep -qs "sandbox ready" "$work/sandbox.log"; do
    kill -0 "$pid" 2>/dev/null || { echo "the sandbox exited:"; cat "$work/sandbox.log"; exit 1; }
    ((SECONDS < deadline)) || { echo "the sandbox was not ready within ${READY_TIMEOUT:-120}s:"; tail -n 50 "$work/sandbox.log"; exit 1; }
    sleep 0.2
  done
  sleep 2 # the dev chains' first blocks
}

# free_port prints a port of 127.0.0.1 that nothing answers on, from a
# random start in the range Linux does not hand out on its own.
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "no free port found" >&2; return 1
}
