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
	var s string
	var err error
	switch {
	case c.IsEVM():
		s, err = validateEVM(c, addr)
	case c == cashier.ChainTRON:
		if s, err = tron.ValidateAddress(addr); err != nil {
			return "", cashier.Errorf(cashier.EInvalidAddress, "%q is not a valid TRON address: %s", addr, cashier.ErrorMessage(err))
		}
	default:
		return "", cashier.Errorf(cashier.EUnsupported, "network %q is not supported", c)
	}
	if err != nil {
		return "", err
	}
	// Whatever the network's text form, its zero address cannot be paid:
	// the payout contract refuses it as a recipient (and as a paying wallet).
	if a, perr := Parse(c, s); perr != nil || Unpayable(a) {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%s is the %s zero address, which cannot be paid", addr, c)
	}
	return s, nil
}

// Unpayable reports whether a is an address no network can pay: the zero
// address (0x00…00 on Ethereum and Arbitrum, T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb
// on TRON).
func Unpayable(a common.Address) bool { return a == (common.Address{}) }

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

// Parse returns the 20-byte form of s, an address in c's text form:
// base58check on TRON, hex on the EVM networks. It checks the form only,
// not an EIP-55 checksum: it reads addresses the service stored or was
// configured with; those from outside go through Validate.
func Parse(c cashier.Chain, s string) (common.Address, error) {
	if c == cashier.ChainTRON {
		a, err := tron.ParseAddress(s)
		if err != nil {
			return common.Address{}, cashier.Errorf(cashier.EInvalidAddress, "%q is not a TRON address: %v", s, err)
		}
		return a.EVM(), nil
	}
	if !common.IsHexAddress(s) {
		return common.Address{}, cashier.Errorf(cashier.EInvalidAddress, "%q is not an address", s)
	}
	return common.HexToAddress(s), nil
}

// Format writes a 20-byte address in c's text form: base58check on TRON,
// EIP-55 hex on the EVM networks.
func Format(c cashier.Chain, a common.Address) string {
	if c == cashier.ChainTRON {
		return tron.AddressFromEVM(a).String()
	}
	return a.Hex()
}
