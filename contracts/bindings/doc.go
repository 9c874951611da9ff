// Package bindings holds the generated Go bindings (abigen v2) of the
// contracts in contracts/src, built from the committed artifacts in
// contracts/build. Regenerate with contracts/generate.sh; the package's
// test fails when the committed bindings drift from the artifacts.
package bindings
