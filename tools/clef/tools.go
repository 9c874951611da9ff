//go:build tools

// Package clef pins go-ethereum's Clef for the tests of package clef and
// for operators: v1.17.3 is the last go-ethereum release that ships
// cmd/clef (the service itself uses the version in the root go.mod).
//
//	go build -C tools/clef -o clef github.com/ethereum/go-ethereum/cmd/clef
package clef

import _ "github.com/ethereum/go-ethereum/cmd/clef"
