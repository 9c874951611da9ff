# Sourced by the scripts that start a throwaway sandbox (loadtest.sh,
# closedloop.sh, payout-e2e.sh, pay-latency.sh, sdk-check.sh,
# sandbox-check.sh, pg-loadtest.sh): one way to build the binaries, start
# `cashier sandbox`, wait for it and stop it.
#
#   source scripts/lib/sandbox.sh
#   sandbox_workdir NAME            # $work: a temporary directory, removed on exit (KEEP=1 keeps it)
#   sandbox_build cashier loadgen   # $work/cashier, $work/loadgen (CASHIER, LOADGEN: copy these builds instead)
#   sandbox_start [flags...]        # $pid; SANDBOX_PREFIX=(taskset -c 1) runs it under a prefix
#   sandbox_start_measured [flags...] # the same; WEBHOOKS=1: webhooks to loadgen ($hooks: its flags)
#   port=$(free_port)               # a port of 127.0.0.1 nothing listens on, for a receiver
#
# sandbox_start runs it on $work/data with the rate limits out of the way;
# its output goes to $work/sandbox.out and its log to $work/sandbox.log;
# SERVICE_FLAGS adds flags; READY_TIMEOUT (seconds, default 120) bounds the
# wait for "sandbox ready". For other shapes (settings as shipped, a
# restart on the same data directory, chains and services apart):
#
#   sandbox_run NAME DATA READY [flags...]  # $work/NAME.log shows the line READY; $pid
#   sandbox_stop                    # SIGTERM to $pid; a clean exit within STOP_TIMEOUT (default 30) seconds
#   sandbox_postgres DB             # a throwaway PostgreSQL server; exports CASHIER_DATABASE_URL
#
# Everything started is stopped on exit.

pid=""
pids=()
pg_bin="" pg_data=""
SANDBOX_PREFIX=(${SANDBOX_PREFIX[@]+"${SANDBOX_PREFIX[@]}"})

# The flags that keep the rate limits and the info log out of a measurement.
sandbox_unlimited=(--log-level warn --rate-per-key 100000000 --rate-per-ip 100000000 --rate-per-endpoint 100000000)

sandbox_workdir() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  trap sandbox_cleanup EXIT
}

sandbox_cleanup() {
  local p
  for p in ${pids[@]+"${pids[@]}"}; do
    kill -0 "$p" 2>/dev/null || continue
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  if [ -n "$pg_data" ] && [ -f "$pg_data/postmaster.pid" ]; then
    as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m fast stop >/dev/null 2>&1 || true
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
  # SERVICE_FLAGS is split into words on purpose.
  # shellcheck disable=SC2086
  sandbox_run sandbox "$work/data" "sandbox ready" "${sandbox_unlimited[@]}" ${SERVICE_FLAGS:-} "$@"
  sleep 2 # the dev chains' first blocks
}

# sandbox_start_measured [flags...]: sandbox_start, and with WEBHOOKS set
# the sandbox's webhook URL at a cheap receiver in loadgen on a free port;
# $hooks holds the loadgen flags that start that receiver (empty without
# WEBHOOKS).
sandbox_start_measured() {
  hooks=()
  if [ -n "${WEBHOOKS:-}" ]; then
    local port
    port=$(free_port)
    hooks=(--webhooks "127.0.0.1:$port")
    sandbox_start --webhook-url "http://127.0.0.1:$port/hook" "$@"
  else
    sandbox_start "$@"
  fi
}

# sandbox_run NAME DATA READY [flags...]: starts `cashier sandbox --data
# DATA --free-ports FLAGS` in the background, its output to $work/NAME.out
# and its log to $work/NAME.log, and waits until the log shows the line
# READY ("sandbox ready", or "sandbox chains ready" for --only chains).
# $pid is its process id.
sandbox_run() {
  local name=$1 data=$2 ready=$3
  shift 3
  : >"$work/$name.log" # no line of an earlier run counts
  ${SANDBOX_PREFIX[@]+"${SANDBOX_PREFIX[@]}"} "$work/cashier" sandbox --data "$data" --free-ports "$@" \
    >"$work/$name.out" 2>"$work/$name.log" &
  pid=$!
  pids+=("$pid")
  local deadline=$((SECONDS + ${READY_TIMEOUT:-120}))
  until grep -qs "$ready" "$work/$name.log"; do
    kill -0 "$pid" 2>/dev/null || { echo "the sandbox exited:"; cat "$work/$name.log"; exit 1; }
    ((SECONDS < deadline)) || { echo "the sandbox was not ready within ${READY_TIMEOUT:-120}s:"; tail -n 50 "$work/$name.log"; exit 1; }
    sleep 0.2
  done
}

# sandbox_stop: SIGTERM to $pid, then requires it to exit with status 0
# within STOP_TIMEOUT seconds (default 30).
sandbox_stop() {
  kill -TERM "$pid"
  local deadline=$((SECONDS + ${STOP_TIMEOUT:-30}))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || { echo "the sandbox did not exit within ${STOP_TIMEOUT:-30}s of SIGTERM"; exit 1; }
    sleep 0.2
  done
  local rc=0 p rest=()
  wait "$pid" || rc=$?
  for p in "${pids[@]}"; do [ "$p" = "$pid" ] || rest+=("$p"); done
  pids=(${rest[@]+"${rest[@]}"})
  pid=""
  ((rc == 0)) || { echo "the sandbox exited with status $rc after SIGTERM"; exit 1; }
}

# sandbox_postgres DB: a throwaway PostgreSQL server (initdb into
# $work/pg, a free port on 127.0.0.1, settings as shipped but for 200
# connections) with an empty database DB; exports CASHIER_DATABASE_URL.
sandbox_postgres() {
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  [ -x "$pg_bin/initdb" ] || { echo "needs a PostgreSQL server: apt-get install -y postgresql"; exit 1; }
  [ "$(id -u)" = 0 ] && chown postgres "$work"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  pg_data="$work/pg"
  as_postgres "$pg_bin/initdb" -D "$pg_data" -U postgres -A trust --encoding=UTF8 --locale=C --no-instructions >/dev/null
  as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200" start >/dev/null
  "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$1"
  export CASHIER_DATABASE_URL="postgres://postgres@127.0.0.1:$port/$1?sslmode=disable"
}

# as_postgres runs a PostgreSQL server tool as the user postgres when run
# as root (the server refuses root).
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

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
