// Package tron implements cashier.ChainClient for TRON over the full node's
// HTTP API (the /wallet/* endpoints of java-tron and of hosted providers).
//
// Addresses are 21 bytes on TRON: the version byte 0x41 followed by the same
// 20 bytes an EVM address has. Users see them in base58check (T…); the
// client speaks to nodes in hex (41…) with "visible": false throughout, and
// event logs carry the bare 20 bytes. Address converts between all three.
//
// Transactions are built by the node (/wallet/triggersmartcontract) but
// never signed blindly: the client decodes the returned protobuf raw_data,
// checks that it is exactly the call it asked for and that txID is its
// sha256, and only then signs the id locally with secp256k1.
package tron
