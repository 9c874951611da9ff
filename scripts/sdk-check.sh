#!/usr/bin/env bash
# The Python, Node and PHP SDKs' own suites (python3 -m unittest, node --test,
# phpunit), unit tests and the merchant program, against a sandbox this
# script starts on free ports and stops. Also checks that the three packages
# carry the service's SDK version (sdk/VERSION). Exits non-zero on any failure.
#
#   scripts/sdk-check.sh                # from the repository root
#   CASHIER_BIN=/path/to/cashier scripts/sdk-check.sh   # skip the build
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

for tool in python3 node php phpunit; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "the SDK suites need $tool: apt-get install -y python3 nodejs php-cli phpunit" >&2
		exit 1
	fi
done

log() { printf '== %s\n' "$*" >&2; }

log "the SDKs carry version $(cat sdk/VERSION)"
want=$(tr -d '[:space:]' <sdk/VERSION)
bad=0
check_version() { # FILE PATTERN: the version as FILE writes it
	if ! grep -qE "$2" "$1"; then
		echo "$1 does not carry version $want" >&2
		bad=1
	fi
}
check_version sdk/python/pyproject.toml "^version = \"$want\"$"
check_version sdk/python/stablecashier/client.py "^VERSION = \"$want\"$"
check_version sdk/node/package.json "^  \"version\": \"$want\",$"
check_version sdk/node/index.js "^const VERSION = '$want';$"
check_version sdk/php/composer.json "^    \"version\": \"$want\",$"
check_version sdk/php/src/Client.php "^    public const VERSION = '$want';$"
[ "$bad" -eq 0 ] || exit 1

source scripts/lib/sandbox.sh
sandbox_workdir sdk-check
if [[ -n "${CASHIER_BIN:-}" ]]; then
	CASHIER=$CASHIER_BIN
else
	log "building the cashier"
fi
sandbox_build cashier
bin="$work/cashier"
data="$work/data"

# The sandbox cashier's webhook URL: a free port each suite's receiver
# listens on in turn.
hook_port=$(free_port)
log "starting a sandbox (webhooks to 127.0.0.1:$hook_port)"
sandbox_start --tron-block-interval 300ms --webhook-url "http://127.0.0.1:$hook_port/hook"

export CASHIER_SANDBOX="$data" CASHIER_BIN="$bin" CASHIER_HOOK_PORT="$hook_port" CASHIER_SDK_REQUIRE_SANDBOX=1
log "Python: python3 -m unittest (sdk/python)"
(cd "$root/sdk/python" && python3 -W error::ResourceWarning -m unittest discover -s tests -t . -v 2>&1)
log "Node: node --test (sdk/node)"
(cd "$root/sdk/node" && node --test test/)
log "PHP: phpunit (sdk/php)"
(cd "$root/sdk/php" && phpunit)
log "the SDKs passed"
