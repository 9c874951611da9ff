#!/usr/bin/env bash
# Runs the whole test suite: formatting, vet, generated-code checks, all Go
# tests, and the race detector on the packages with concurrency.
set -euo pipefail
cd "$(dirname "$0")"

for tool in npm chromium zbarimg promtool; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "the tests need $tool: apt-get install -y nodejs npm chromium zbar-tools prometheus"; exit 1
  fi
done
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "the tests need a PostgreSQL server: apt-get install -y postgresql"; exit 1
fi

# Clef (tools/clef, the pinned go-ethereum) for the tests of keys held
# outside the service: built in the background while formatting, vet and
# the contracts are checked; a cold build takes minutes.
if [ -z "${CASHIER_CLEF_BIN:-}" ]; then
  export CASHIER_CLEF_BIN="$(go env GOCACHE)/../cashier-clef/clef"
  mkdir -p "$(dirname "$CASHIER_CLEF_BIN")"
  go build -C tools/clef -o "$CASHIER_CLEF_BIN" github.com/ethereum/go-ethereum/cmd/clef > "$CASHIER_CLEF_BIN.log" 2>&1 &
  clef_build=$!
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './contracts/node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== contracts: recompile with the pinned solc and compare with the committed artifacts"
(cd contracts && npm ci --no-audit --no-fund --silent)
(cd contracts/tokens && npm ci --no-audit --no-fund --silent)
bash contracts/check.sh

if [ -n "${clef_build:-}" ] && ! wait "$clef_build"; then
  echo "building Clef failed:"; cat "$CASHIER_CLEF_BIN.log"; exit 1
fi

echo "== go test"
export CASHIER_ARTIFACTS="${CASHIER_ARTIFACTS:-$PWD/artifacts}" # page screenshots
go test -count=1 ./...

echo "== the binary's tests again on PostgreSQL (the API, the CLI, kills, three instances on their own data directories; the 12-kill sweep test, the faulty-provider kill test, the contract deploy and Clef tests, the browser checkout test and the refund test run on SQLite only, for time; the database-restart test runs its own PostgreSQL server in the stage above)"
CASHIER_TEST_DATABASE=postgres go test -count=1 -skip 'TestSweepsSurviveKills|TestProviderFaultsAndKills|TestContractDeployOnTheBinary|TestClefSignsPayoutsOnTheBinary|TestCheckoutOnBinary|TestRefunds|TestDatabaseRestartUnderLoad' ./cmd/cashier/

echo "== the sandbox, black box: build, start, check with real chains, restart, check again"
bash scripts/sandbox-check.sh

echo "== the load script, briefly (it fails on any create that is not answered right)"
PIN=0 bash scripts/loadtest.sh --rate 200 --duration 1s

echo "== go test -race (packages with concurrency)"
# The pages' browser tests drive Chromium against the same handlers the
# other http tests call concurrently; under -race they only add minutes.
go test -count=1 -race -skip '^(TestPagesInBrowser|TestCashierPageInBrowser|TestCashierPageLiveOnChain|TestPayOnce|TestPageStatesScreenshots|TestSDKInBrowser|TestConnectWalletOnPage)$' \
  ./sqlite/... ./sqlstore/... ./postgres/... ./webhook/... ./ratelimit/... ./http/... ./orders/... ./client/... ./evm/... ./devchain/... ./tron/... ./sandbox/... ./watch/... ./sweep/... ./payoutexec/... ./lease/... ./app/...
go test -count=1 -race -run 'CSRF|Viewer|Isolation|RateLimited|CookieFlags|Busy' ./dashboard/... # argon2 under -race is slow: the session, limit and busy-refusal paths
