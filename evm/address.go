package evm

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
	cashier "github.com/stablecashier/cashier"
)

// ValidateAddress checks an EVM address: "0x" followed by 40 hex digits. An
// all-lowercase or all-uppercase address carries no checksum and is accepted;
// a mixed-case one must match its EIP-55 checksum, which catches most typing
// errors. The zero address is refused. The canonical form is the
// checksummed one.
func ValidateAddress(addr string) (string, error) {
	if len(addr) != 42 || !strings.HasPrefix(addr, "0x") {
		return "", cashier.Errorf(cashier.EInvalidAddress, "address %.50q is not 0x followed by 40 hex digits", addr)
	}
	body := addr[2:]
	for i := 0; i < len(body); i++ {
		if !isHex(body[i]) {
			return "", cashier.Errorf(cashier.EInvalidAddress, "address %q is not 0x followed by 40 hex digits", addr)
		}
	}
	canonical := common.HexToAddress(addr).Hex()
	if body != strings.ToLower(body) && body != strings.ToUpper(body) && canonical != addr {
		return "", cashier.Errorf(cashier.EInvalidAddress, "address %q has a wrong EIP-55 checksum (a mixed-case address must match it exactly)", addr)
	}
	if canonical == zeroAddress {
		// Well formed, but tokens sent there are burnt: never a payee.
		return "", cashier.Errorf(cashier.EInvalidAddress, "address %s is the zero address", addr)
	}
	return canonical, nil
}

var zeroAddress = common.Address{}.Hex()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// parseAddress validates addr and returns it as an address.
func parseAddress(addr string) (common.Address, error) {
	s, err := ValidateAddress(addr)
	if err != nil {
		return common.Address{}, err
	}
	return common.HexToAddress(s), nil
}
