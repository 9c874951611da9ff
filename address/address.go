// Package address validates and canonicalizes addresses per network, for
// every place an address enters the service (payout recipients, allowance
// wallets, contract registration). It holds no keys and makes no calls.
package address

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// Validator implements orders.Addresses.
type Validator struct{}

// ValidateAddress returns the canonical form of addr on c: EIP-55 checksummed
// hex on Ethereum and Arbitrum, base58check on TRON. A mixed-case EVM address
// must carry a correct EIP-55 checksum; all-lower or all-upper hex is taken
// as unchecksummed. The zero address is refused everywhere.
func (Validator) ValidateAddress(c cashier.Chain, addr string) (string, error) {
	return Validate(c, addr)
}

// Validate is ValidateAddress as a function.
func Validate(c cashier.Chain, addr string) (string, error) {
	switch {
	case c.IsEVM():
		return validateEVM(c, addr)
	case c == cashier.ChainTRON:
		s, err := tron.ValidateAddress(addr)
		if err != nil {
			return "", cashier.Errorf(cashier.EInvalidAddress, "%q is not a valid TRON address: %v", addr, err)
		}
		return s, nil
	}
	return "", cashier.Errorf(cashier.EUnsupported, "network %q is not supported", c)
}

func validateEVM(c cashier.Chain, addr string) (string, error) {
	if !strings.HasPrefix(addr, "0x") || !common.IsHexAddress(addr) {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%q is not a valid %s address (0x followed by 40 hex digits)", addr, c)
	}
	a := common.HexToAddress(addr)
	body := addr[2:]
	mixed := strings.ToLower(body) != body && strings.ToUpper(body) != body
	if mixed && a.Hex() != addr {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%q has a wrong EIP-55 checksum", addr)
	}
	if a == (common.Address{}) {
		return "", cashier.Errorf(cashier.EInvalidAddress, "the zero address cannot be used")
	}
	return a.Hex(), nil
}
