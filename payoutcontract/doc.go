// Package payoutcontract speaks the on-chain protocol of the payout and
// deposit contracts in contracts/src without touching a node: the EIP-712
// digests the service's signer key signs, the 65-byte signatures the
// contract accepts, the call data of both payout functions, decoders for the
// payout events and revert data, and the CREATE2 deposit addresses of
// collection orders.
//
// Both the EVM and the TRON clients use it: the TVM runs the same bytecode
// with the same ABI encoding, and a TRON address is the 20-byte EVM address
// behind a 0x41 byte in base58check. Two things differ on TRON and are
// parameters here: the chain id (what the TVM's CHAINID opcode returns,
// 0x2b6653dc on mainnet) and the CREATE2 prefix byte (0x41 instead of 0xff).
package payoutcontract
