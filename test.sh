#!/usr/bin/env bash
# Runs the whole test suite: formatting, vet, generated-code checks, all Go
# tests, and the race detector on the packages with concurrency.
#
# Two lanes run side by side. The binary's black-box tests (cmd/cashier, on
# SQLite and then on PostgreSQL) spend most of their time waiting on
# processes, dev-chain blocks and leases running out (half a core on
# average), so they run in a background lane, after the contracts' check,
# while the CPU-bound stages run in the foreground. The background lane's
# output is held in a file and printed, whole, when it ends; the script
# fails if a stage of either lane fails, and says which.
set -euo pipefail
cd "$(dirname "$0")"

stage="" # the foreground stage running now, named if it fails
step() { stage="$1"; echo "== $1"; }
bg_pid="" bg_log=""
bg_report() {
  echo "== [background lane: the contracts' check and the binary's tests] output:"
  cat "$bg_log"
}
on_exit() {
  local rc=$?
  if [ -n "$bg_pid" ]; then
    # A foreground stage failed: stop the background lane and show how far
    # it got.
    kill -- -"$bg_pid" 2>/dev/null || true
    wait "$bg_pid" 2>/dev/null || true
    bg_report
    echo "== (the background lane was stopped)"
  fi
  if [ "$rc" -ne 0 ] && [ -n "$stage" ]; then
    echo "FAILED: $stage"
  fi
  [ -z "$bg_log" ] || rm -f "$bg_log"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

for tool in npm chromium zbarimg promtool python3 php phpunit; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "the tests need $tool: apt-get install -y nodejs npm chromium zbar-tools prometheus python3 php-cli phpunit"; exit 1
  fi
done
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "the tests need a PostgreSQL server: apt-get install -y postgresql"; exit 1
fi

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './contracts/node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

export CASHIER_ARTIFACTS="${CASHIER_ARTIFACTS:-$PWD/artifacts}" # page screenshots

# Clef (tools/clef, the pinned go-ethereum) for the binary's test of keys
# held outside the service; a cold build takes minutes.
build_clef=""
if [ -z "${CASHIER_CLEF_BIN:-}" ]; then
  export CASHIER_CLEF_BIN="$(go env GOCACHE)/../cashier-clef/clef"
  build_clef=1
fi

# The background lane: Clef's build beside the contracts' check (one core
# each, for a minute or two), then the binary's tests, first on SQLite,
# then again on PostgreSQL. Its own process group, so that a failure in the
# foreground stops all of it.
bg_log=$(mktemp)
set -m
(
  clef_pid=""
  if [ -n "$build_clef" ]; then
    mkdir -p "$(dirname "$CASHIER_CLEF_BIN")"
    go build -C tools/clef -o "$CASHIER_CLEF_BIN" github.com/ethereum/go-ethereum/cmd/clef >"$CASHIER_CLEF_BIN.log" 2>&1 &
    clef_pid=$!
  fi
  bg_stage="contracts: recompile with the pinned solc and compare with the committed artifacts"
  trap 'rc=$?; [ "$rc" -eq 0 ] || echo "FAILED: $bg_stage"' EXIT
  echo "== $bg_stage"
  (cd contracts && npm ci --no-audit --no-fund --silent)
  (cd contracts/tokens && npm ci --no-audit --no-fund --silent)
  bash contracts/check.sh
  bg_stage="building Clef (tools/clef)"
  if [ -n "$clef_pid" ] && ! wait "$clef_pid"; then
    cat "$CASHIER_CLEF_BIN.log"; exit 1
  fi
  bg_stage="go test ./cmd/cashier/ (the binary's tests on SQLite)"
  echo "== $bg_stage"
  go test -count=1 -timeout 40m ./cmd/cashier/
  bg_stage="the binary's tests again on PostgreSQL"
  echo "== the binary's tests again on PostgreSQL (the API, the CLI, kills, three instances on their own data directories; the 12-kill sweep test, the faulty-provider kill test, the contract deploy and Clef tests, the browser checkout test and the refund test run on SQLite only, for time; the database-restart test runs its own PostgreSQL server on SQLite's run; the user-admin and serve-needs-init tests run the SQLite binary either way, so only there)"
  CASHIER_TEST_DATABASE=postgres go test -count=1 -timeout 40m -skip 'TestSweepsSurviveKills|TestProviderFaultsAndKills|TestContractDeployOnTheBinary|TestClefSignsPayoutsOnTheBinary|TestCheckoutOnBinary|TestRefunds|TestDatabaseRestartUnderLoad|TestUserCommands|TestServeNeedsInit' ./cmd/cashier/
) </dev/null >"$bg_log" 2>&1 &
bg_pid=$!
set +m
echo "== [background lane started: the contracts' check and Clef's build, then go test ./cmd/cashier/ on SQLite and on PostgreSQL; output at the end]"

step "go vet"
go vet ./...

step "go test (every package but cmd/cashier, whose tests run in the background lane)"
go test -count=1 $(go list ./... | grep -v '/cmd/cashier$')

step "the sandbox, black box: build, start, check with real chains, restart, check again"
bash scripts/sandbox-check.sh

step "the SDKs (Python, Node, PHP): their own suites, the merchant program against a sandbox"
bash scripts/sdk-check.sh

step "the load script, briefly (it fails on any create that is not answered right)"
PIN=0 bash scripts/loadtest.sh --rate 200 --duration 1s

step "go test -race (packages with concurrency)"
# The pages' browser tests drive Chromium against the same handlers the
# other http tests call concurrently; under -race they only add minutes.
# So does the orders' 300-step running-totals test, one goroutine of store
# calls that the concurrent orders and store tests cover. All of them run
# in the go test stage above.
go test -count=1 -race -skip '^(TestPagesInBrowser|TestCashierPageInBrowser|TestCashierPageLiveOnChain|TestPayOnce|TestPageStatesScreenshots|TestSDKInBrowser|TestConnectWalletOnPage|TestRunningTotalsMatchRecomputation)$' \
  ./sqlite/... ./sqlstore/... ./postgres/... ./webhook/... ./ratelimit/... ./http/... ./shed/... ./orders/... ./client/... ./evm/... ./devchain/... ./tron/... ./tronnode/... ./sandbox/... ./watch/... ./sweep/... ./payoutexec/... ./lease/... ./app/...
go test -count=1 -race -run 'CSRF|Viewer|Isolation|RateLimited|CookieFlags|Busy' ./dashboard/... # argon2 under -race is slow: the session, limit and busy-refusal paths

step "waiting for the background lane (the contracts' check and the binary's tests)"
bg_rc=0
wait "$bg_pid" || bg_rc=$?
bg_pid=""
bg_report
if [ "$bg_rc" -ne 0 ]; then
  stage="the background lane (see its FAILED line above)"
  exit 1
fi
stage=""
