#!/usr/bin/env bash
# Rebuilds the real token artifacts (Tether's source with solc 0.4.18,
# Circle's published artifacts) into a scratch directory and fails when the
# result differs from the committed build/; then checks that the TetherToken
# compiled from the vendored source is the code deployed on Ethereum mainnet
# (mainnet.js). Run after `npm ci` here.
set -euo pipefail
cd "$(dirname "$0")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node --no-warnings build.js "$tmp" >/dev/null
if ! diff -r build "$tmp"; then
	echo "contracts/tokens/build is stale: run node contracts/tokens/build.js and commit the result" >&2
	exit 1
fi
echo "contracts/tokens/build matches the vendored source and the pinned package"
node --no-warnings mainnet.js "$tmp/TetherToken.json"
