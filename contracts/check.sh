#!/usr/bin/env bash
# Recompiles the contracts with the pinned solc-js into a scratch directory
# and fails when the result differs from the committed build/ artifacts.
# CI runs it after `npm ci`; the Go bindings are checked by the Go tests.
set -euo pipefail
cd "$(dirname "$0")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node build.js "$tmp" >/dev/null
if ! diff -r build "$tmp"; then
	echo "contracts/build is stale: run contracts/generate.sh and commit the result" >&2
	exit 1
fi
echo "contracts/build matches the sources"

# The real token contracts (Tether's vendored source, Circle's package).
bash tokens/check.sh
