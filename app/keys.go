package app

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
)

// The service's own keys per network: the signer (EIP-712 payout
// signatures the contract checks), the executor (sends payout transactions
// and pays their gas) and the sweeper (sends deposit sweeps). Each is
// stored sealed under the master key (`cashier key generate|import`) or
// given by the CASHIER_SERVICE_KEYS setting, which wins.

// KeyAddress is the address of key in c's text form.
func KeyAddress(c cashier.Chain, key *ecdsa.PrivateKey) string {
	return address.Format(c, crypto.PubkeyToAddress(key.PublicKey))
}

// NewServiceKey builds the stored form of key for role on c.
func NewServiceKey(c cashier.Chain, role cashier.KeyRole, key *ecdsa.PrivateKey, clock cashier.Clock) (*cashier.ServiceKey, error) {
	if err := checkRole(role); err != nil {
		return nil, err
	}
	return &cashier.ServiceKey{Chain: c, Role: role, Address: KeyAddress(c, key), PrivateKey: crypto.FromECDSA(key), CreatedAt: clock.Now()}, nil
}

func checkRole(role cashier.KeyRole) error {
	for _, r := range cashier.KeyRoles {
		if r == role {
			return nil
		}
	}
	return cashier.Errorf(cashier.EInvalid, "key role must be signer, executor or sweeper, not %q", role)
}

// ParseKeyHex reads a secp256k1 private key written as 64 hex digits
// (0x prefix allowed).
func ParseKeyHex(s string) (*ecdsa.PrivateKey, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "0x")
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return nil, cashier.Errorf(cashier.EInvalid, "a private key is 64 hexadecimal digits")
	}
	k, err := crypto.ToECDSA(b)
	if err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "not a valid secp256k1 private key")
	}
	return k, nil
}

// ParseServiceKeys reads the CASHIER_SERVICE_KEYS setting:
// "CHAIN.ROLE=HEX" entries separated by commas, e.g.
// "ETH.signer=…,ETH.executor=…,TRON.executor=…".
func ParseServiceKeys(s string) (map[cashier.Chain]map[cashier.KeyRole]*ecdsa.PrivateKey, error) {
	out := map[cashier.Chain]map[cashier.KeyRole]*ecdsa.PrivateKey{}
	for _, e := range splitList(s) {
		name, value, ok := strings.Cut(e, "=")
		chainName, role, ok2 := strings.Cut(name, ".")
		if !ok || !ok2 {
			return nil, fmt.Errorf("service keys: entry %q is not CHAIN.ROLE=HEX", redactKey(e))
		}
		c, err := cashier.ParseChain(chainName)
		if err != nil {
			return nil, fmt.Errorf("service keys: %w", err)
		}
		if err := checkRole(cashier.KeyRole(role)); err != nil {
			return nil, fmt.Errorf("service keys: %w", err)
		}
		k, err := ParseKeyHex(value)
		if err != nil {
			return nil, fmt.Errorf("service keys: %s.%s: %w", c, role, err)
		}
		if out[c] == nil {
			out[c] = map[cashier.KeyRole]*ecdsa.PrivateKey{}
		}
		if out[c][cashier.KeyRole(role)] != nil {
			return nil, fmt.Errorf("service keys: %s.%s given twice", c, role)
		}
		out[c][cashier.KeyRole(role)] = k
	}
	return out, nil
}

func redactKey(e string) string {
	if name, _, ok := strings.Cut(e, "="); ok {
		return name + "=…"
	}
	return "…"
}

// ServiceKeys resolves the service's keys: the setting first, then the
// sealed store.
type ServiceKeys struct {
	Store   cashier.Reader
	Setting map[cashier.Chain]map[cashier.KeyRole]*ecdsa.PrivateKey
}

// Key returns role's key on c, ENotFound when neither source has one.
func (s ServiceKeys) Key(ctx context.Context, c cashier.Chain, role cashier.KeyRole) (*ecdsa.PrivateKey, error) {
	if k := s.Setting[c][role]; k != nil {
		return k, nil
	}
	sk, err := s.Store.ServiceKey(ctx, c, role)
	if err != nil {
		return nil, err
	}
	return crypto.ToECDSA(sk.PrivateKey)
}
