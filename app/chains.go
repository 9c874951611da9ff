package app

import (
	"context"
	"fmt"
	"math/big"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
)

// Deposits derives collection deposit addresses from the merchant's deposit
// factory on the order's network (a field of the merchant's payout contract
// there), entirely off chain.
type Deposits struct {
	Store    cashier.Reader
	Registry *cashier.Registry
}

// DepositAddress implements orders.Deposits.
func (d Deposits) DepositAddress(ctx context.Context, m *cashier.Merchant, c cashier.Chain, orderID string) (string, error) {
	ks, err := d.Store.ContractsByMerchant(ctx, m.ID)
	if err != nil {
		return "", err
	}
	for _, k := range ks {
		if k.Chain != c || k.Status != cashier.ContractActive || k.DepositFactory == "" {
			continue
		}
		n, ok := d.Registry.Network(c)
		if !ok {
			return "", cashier.Errorf(cashier.EUnsupported, "network %s is not supported", c)
		}
		return DepositAddress(c, n.Create2Prefix, k.DepositFactory, k.DepositImplementation, orderID)
	}
	return "", cashier.Errorf(cashier.EUnsupported, "collections on %s are not set up for this merchant (no deposit factory)", c)
}

// DepositAddress computes the CREATE2 deposit address of orderID for a
// factory and its implementation, in the network's text form. prefix is
// the network's CREATE2 prefix byte (the factory's create2Prefix()).
func DepositAddress(c cashier.Chain, prefix byte, factory, implementation, orderID string) (string, error) {
	f, err := address.Parse(c, factory)
	if err != nil {
		return "", err
	}
	impl, err := address.Parse(c, implementation)
	if err != nil {
		return "", err
	}
	if prefix != payoutcontract.Create2PrefixEVM && prefix != payoutcontract.Create2PrefixTRON {
		return "", cashier.Errorf(cashier.EInternal, "network %s has no valid CREATE2 prefix (0x%02x)", c, prefix)
	}
	return address.Format(c, payoutcontract.DepositAddress(prefix, f, impl, payoutcontract.DepositSalt(orderID))), nil
}

// Funds reads the funding sources of payouts from the chain clients.
type Funds struct {
	Clients map[cashier.Chain]cashier.ChainClient
}

func (f Funds) client(c cashier.Chain) (cashier.ChainClient, error) {
	cl, ok := f.Clients[c]
	if !ok {
		return nil, cashier.Errorf(cashier.EUnsupported, "payouts on %s are not configured (no node)", c)
	}
	return cl, nil
}

// ContractBalance implements orders.Funds.
func (f Funds) ContractBalance(ctx context.Context, c cashier.Chain, token, contract string) (*big.Int, error) {
	cl, err := f.client(c)
	if err != nil {
		return nil, err
	}
	return cl.TokenBalance(ctx, token, contract)
}

// WalletFunds implements orders.Funds: owner's balance and the allowance
// owner granted the contract, read in real time (funding rule 2).
func (f Funds) WalletFunds(ctx context.Context, c cashier.Chain, token, owner, contract string) (balance, allowance *big.Int, err error) {
	cl, err := f.client(c)
	if err != nil {
		return nil, nil, err
	}
	if balance, err = cl.TokenBalance(ctx, token, owner); err != nil {
		return nil, nil, err
	}
	if allowance, err = cl.Allowance(ctx, token, owner, contract); err != nil {
		return nil, nil, err
	}
	return balance, allowance, nil
}

// Viewer reads one-word view functions of a contract; the evm and tron
// clients implement it.
type Viewer interface {
	ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error)
}

// HeadNumber implements orders.Heads.
func (f Funds) HeadNumber(ctx context.Context, c cashier.Chain) (uint64, error) {
	cl, err := f.client(c)
	if err != nil {
		return 0, err
	}
	h, err := cl.Head(ctx)
	return h.Number, err
}

// Whitelisted implements orders.Rules from the payout contract's own
// whitelist switches and list.
func (f Funds) Whitelisted(ctx context.Context, c cashier.Chain, contract string, mode cashier.PayoutType, recipient string) (bool, error) {
	cl, err := f.client(c)
	if err != nil {
		return false, err
	}
	v, ok := cl.(Viewer)
	if !ok {
		return true, nil
	}
	var data []byte
	if mode == cashier.PayoutAllowance {
		data = payoutABI.PackAllowanceWhitelistEnabled()
	} else {
		data = payoutABI.PackBalanceWhitelistEnabled()
	}
	on, err := v.ViewUint(ctx, contract, data)
	if err != nil {
		return false, fmt.Errorf("%s: read whitelist mode of %s: %w", c, contract, err)
	}
	if on.Sign() == 0 {
		return true, nil
	}
	r, err := address.Parse(c, recipient)
	if err != nil {
		return false, err
	}
	listed, err := v.ViewUint(ctx, contract, payoutABI.PackWhitelisted(r))
	if err != nil {
		return false, fmt.Errorf("%s: read whitelist of %s: %w", c, contract, err)
	}
	return listed.Sign() != 0, nil
}

var payoutABI = bindings.NewCashierPayout()
