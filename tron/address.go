package tron

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

// AddressPrefix is the version byte of every TRON mainnet (and testnet)
// account and contract address.
const AddressPrefix = 0x41

// Address is a TRON address without its version byte: the 20 bytes the
// TVM, event logs and EVM tooling work with.
type Address [20]byte

// ParseAddress accepts the base58check form (T…, 34 characters) or the hex
// form (41… with 42 hex digits, optionally 0x-prefixed) and rejects anything
// else: a wrong checksum, length or version byte is an error, never a guess.
func ParseAddress(s string) (Address, error) {
	var a Address
	switch {
	case len(s) == 34 && s[0] == 'T':
		payload, err := base58CheckDecode(s)
		if err != nil {
			return a, fmt.Errorf("tron address %q: %w", s, err)
		}
		if len(payload) != 21 || payload[0] != AddressPrefix {
			return a, fmt.Errorf("tron address %q: not a 0x41-prefixed 21-byte address", s)
		}
		copy(a[:], payload[1:])
		return a, nil
	case len(s) == 42 || (len(s) == 44 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"))):
		h := s
		if len(h) == 44 {
			h = h[2:]
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			return a, fmt.Errorf("tron address %q: %w", s, err)
		}
		if b[0] != AddressPrefix {
			return a, fmt.Errorf("tron address %q: version byte %#x, want 0x41", s, b[0])
		}
		copy(a[:], b[1:])
		return a, nil
	}
	return a, fmt.Errorf("tron address %q: want base58check T… (34 characters) or hex 41… (42 digits)", s)
}

// MustParseAddress is ParseAddress for constants; it panics on error.
func MustParseAddress(s string) Address {
	a, err := ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}

// AddressFromEVM reinterprets an EVM address as a TRON address.
func AddressFromEVM(e common.Address) Address { return Address(e) }

// AddressFromLog parses the bare 40-digit hex a node puts in log.address.
func AddressFromLog(s string) (Address, error) {
	var a Address
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 20 {
		return a, fmt.Errorf("log address %q: want 20 bytes of hex", s)
	}
	copy(a[:], b)
	return a, nil
}

// PubkeyToAddress derives the address of a secp256k1 key exactly as on
// Ethereum (last 20 bytes of keccak256 of the uncompressed point).
func PubkeyToAddress(pub []byte) (Address, error) {
	k, err := crypto.UnmarshalPubkey(pub)
	if err != nil {
		return Address{}, err
	}
	return Address(crypto.PubkeyToAddress(*k)), nil
}

// Bytes21 is the address with its version byte, as protobuf fields carry it.
func (a Address) Bytes21() []byte {
	b := make([]byte, 21)
	b[0] = AddressPrefix
	copy(b[1:], a[:])
	return b
}

// String is the base58check form, the one users see.
func (a Address) String() string { return base58CheckEncode(a.Bytes21()) }

// Hex is the 42-digit hex form with the 41 prefix, as nodes take it with
// "visible": false.
func (a Address) Hex() string { return hex.EncodeToString(a.Bytes21()) }

// EVM is the same 20 bytes as an EVM address, for ABI encoding.
func (a Address) EVM() common.Address { return common.Address(a) }

// IsZero reports whether a is the all-zero address.
func (a Address) IsZero() bool { return a == Address{} }

// ValidateAddress is the ChainClient check: only the base58check form is
// accepted from users (hex is for nodes), and the canonical form is returned.
// The zero address (T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb) is refused: tokens
// cannot be sent there (the payout contract refuses it as a recipient).
func ValidateAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) != 34 || s[0] != 'T' {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%q is not a TRON address (base58check, T…, 34 characters)", s)
	}
	a, err := ParseAddress(s)
	if err != nil {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%q is not a valid TRON address: checksum or version byte is wrong", s)
	}
	if a.IsZero() {
		return "", cashier.Errorf(cashier.EInvalidAddress, "%s is the TRON zero address, which cannot be paid", s)
	}
	return a.String(), nil
}
