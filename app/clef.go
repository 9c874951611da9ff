package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/clef"
)

// ExecutorClef is one network's executor held by Clef.
type ExecutorClef struct {
	Endpoint string
	Account  common.Address
}

// ParseExecutorClef reads CASHIER_EXECUTOR_CLEF ("ETH=ENDPOINT,…") and
// CASHIER_EXECUTOR_CLEF_ACCOUNT ("ETH=0xADDRESS,…"): every network named
// in one is named in the other, and only EVM networks (TRON keeps its
// sealed executor key: Clef signs Ethereum transactions only).
func ParseExecutorClef(endpoints, accounts string) (map[cashier.Chain]ExecutorClef, error) {
	pairs := func(s, what string) (map[cashier.Chain]string, error) {
		out, err := chainPairs(s, what)
		if err != nil {
			return nil, err
		}
		for c, v := range out {
			if !c.IsEVM() {
				return nil, fmt.Errorf("%s: Clef signs for EVM networks only; the %s executor stays a sealed key", what, c)
			}
			if v == "" {
				return nil, fmt.Errorf("%s: %s has no value: want CHAIN=VALUE,… with CHAIN ETH or ARB", what, c)
			}
		}
		return out, nil
	}
	eps, err := pairs(endpoints, "executor-clef")
	if err != nil {
		return nil, err
	}
	accs, err := pairs(accounts, "executor-clef-account")
	if err != nil {
		return nil, err
	}
	out := map[cashier.Chain]ExecutorClef{}
	for c, ep := range eps {
		a, ok := accs[c]
		if !ok {
			return nil, fmt.Errorf("executor-clef names %s but executor-clef-account does not: which account of that Clef is the executor?", c)
		}
		if !common.IsHexAddress(a) {
			return nil, fmt.Errorf("executor-clef-account %s: %q is not an address", c, a)
		}
		out[c] = ExecutorClef{Endpoint: ep, Account: common.HexToAddress(a)}
	}
	for c := range accs {
		if _, ok := eps[c]; !ok {
			return nil, fmt.Errorf("executor-clef-account names %s but executor-clef does not: set CASHIER_EXECUTOR_CLEF %s=ENDPOINT", c, c)
		}
	}
	return out, nil
}

// ImportClefSigner records account, an account of the operator's Clef,
// as the merchant's signer on the EVM network c: the service keeps its
// address only and has Clef sign the batches (CASHIER_SIGNER_CLEF). As for
// an imported key, an address that is one of the service's own keys or
// another merchant's signer is refused: it would prove nothing about whose
// a contract is.
func ImportClefSigner(ctx context.Context, st cashier.Store, keys ServiceKeys, merchantID string, c cashier.Chain, account string, clock cashier.Clock) (*cashier.MerchantSigner, error) {
	if !c.IsEVM() {
		return nil, cashier.Errorf(cashier.EInvalid, "a signer held by Clef is for Ethereum and Arbitrum; the %s signer stays a sealed key", c)
	}
	addr, err := address.Validate(c, account)
	if err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "clef account: %v", err)
	}
	if _, err := st.Merchant(ctx, merchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", merchantID, err)
	}
	for _, n := range cashier.Chains {
		for _, r := range cashier.KeyRoles {
			sk, err := keys.Key(ctx, n, r)
			if err == nil && strings.EqualFold(KeyAddress(c, sk), addr) {
				return nil, cashier.Errorf(cashier.EInvalid, "%s is the service's %s key on %s; a merchant signer must be the merchant's alone", addr, r, n)
			}
		}
	}
	for _, n := range cashier.Chains {
		if owner, err := st.SignerOwner(ctx, n, addr); err == nil && owner != merchantID {
			return nil, cashier.Errorf(cashier.EInvalid, "%s is merchant %s's signer on %s", addr, owner, n)
		}
	}
	k := &cashier.MerchantSigner{MerchantID: merchantID, Chain: c, Address: addr, CreatedAt: clock.Now()}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchantSigner(ctx, k) }); err != nil {
		return nil, err
	}
	return k, nil
}

// dialClef connects to a Clef; it answers once it is asked to sign.
func dialClef(ctx context.Context, endpoint string, account common.Address) (*clef.Signer, error) {
	return clef.Dial(ctx, endpoint, account)
}
