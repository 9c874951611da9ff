#!/usr/bin/env bash
# Rebuilds the contract artifacts (build/*.json) with the pinned solc-js and
# regenerates the Go bindings in bindings/ with the pinned abigen (v2).
# Run from anywhere after `npm ci` in contracts/.
set -euo pipefail
cd "$(dirname "$0")"

node build.js build

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -f bindings/*.gen.go
for artifact in build/*.json; do
	name=$(basename "$artifact" .json)
	# abigen takes the ABI as compact JSON and the creation code without 0x;
	# bindings_test.go feeds the library the same inputs.
	node -e '
		const a = require(process.argv[1]);
		const fs = require("fs");
		fs.writeFileSync(process.argv[2], JSON.stringify(a.abi));
		fs.writeFileSync(process.argv[3], a.bin.replace(/^0x/, ""));
	' "./$artifact" "$tmp/$name.abi" "$tmp/$name.bin"
	lower=$(echo "$name" | tr '[:upper:]' '[:lower:]')
	go tool abigen --v2 --abi "$tmp/$name.abi" --bin "$tmp/$name.bin" \
		--pkg bindings --type "$name" --out "bindings/$lower.gen.go"
done
echo "bindings regenerated"
