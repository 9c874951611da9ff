// Package tronnode is an in-process stand-in for a TRON full node: it
// serves the subset of the /wallet HTTP API that package tron uses, with
// the JSON shapes java-tron returns, and executes contracts on the
// go-ethereum EVM.
//
// It is faithful where a client can tell: transactions are built as
// protobuf raw_data whose sha256 is the txID, broadcast re-encodes the
// submitted raw_data JSON, checks the signature against the owner, the
// reference block (TaPoS), expiration and duplicates, and blocks carry
// TRON-style ids (number in the first 8 bytes). Energy is burned from the
// owner's TRX at the configured price within fee_limit, bandwidth comes
// from a daily free allowance or is burned. What it does not model is
// listed in docs/tron.md.
//
// State lives in memory; with a data directory every funding and every
// produced block is appended to a journal that is replayed on Open, so a
// restarted node has the same chain, ids and balances.
package tronnode
