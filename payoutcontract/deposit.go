package payoutcontract

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// CREATE2 address prefix bytes: EVM chains hash 0xff ++ deployer ++ salt ++
// keccak256(initCode); TRON's TVM uses 0x41 in place of 0xff.
const (
	Create2PrefixEVM  byte = 0xff
	Create2PrefixTRON byte = 0x41
)

// DepositSalt is the CREATE2 salt of a collection order's deposit address:
// keccak256 of the order id. The id must be unique per deposit factory,
// which serves one merchant.
func DepositSalt(orderID string) [32]byte {
	return crypto.Keccak256Hash([]byte(orderID))
}

// ProxyInitCode is the EIP-1167 minimal proxy creation code the deposit
// factory deploys for implementation (55 bytes).
func ProxyInitCode(implementation common.Address) []byte {
	code := make([]byte, 0, 55)
	code = append(code, common.FromHex("3d602d80600a3d3981f3363d3d373d3d3d363d73")...)
	code = append(code, implementation[:]...)
	code = append(code, common.FromHex("5af43d82803e903d91602b57fd5bf3")...)
	return code
}

// DepositAddress computes, without a node, the deposit address that the
// factory's addressOf(salt) returns and where sweep deploys the proxy.
// implementation is the factory's implementation(); on TRON it is not the
// EVM CREATE address, so read it once from the factory. prefix is
// Create2PrefixEVM or Create2PrefixTRON; the result is the 20-byte address
// (on TRON, prepend 0x41 for the base58check form).
func DepositAddress(prefix byte, factory, implementation common.Address, salt [32]byte) common.Address {
	codeHash := crypto.Keccak256(ProxyInitCode(implementation))
	h := crypto.Keccak256([]byte{prefix}, factory[:], salt[:], codeHash)
	return common.BytesToAddress(h[12:])
}
