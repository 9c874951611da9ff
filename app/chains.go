package app

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/tron"
)

// Deposits derives collection deposit addresses from the merchant's deposit
// factory on the order's network (a field of the merchant's payout contract
// there), entirely off chain.
type Deposits struct {
	Store cashier.Reader
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
		return DepositAddress(c, k.DepositFactory, k.DepositImplementation, orderID)
	}
	return "", cashier.Errorf(cashier.EUnsupported, "collections on %s are not set up for this merchant (no deposit factory)", c)
}

// DepositAddress computes the CREATE2 deposit address of orderID for a
// factory and its implementation, in the network's text form.
func DepositAddress(c cashier.Chain, factory, implementation, orderID string) (string, error) {
	f, err := evmBytes(c, factory)
	if err != nil {
		return "", err
	}
	impl, err := evmBytes(c, implementation)
	if err != nil {
		return "", err
	}
	salt := payoutcontract.DepositSalt(orderID)
	if c == cashier.ChainTRON {
		a := payoutcontract.DepositAddress(payoutcontract.Create2PrefixTRON, f, impl, salt)
		return tron.AddressFromEVM(a).String(), nil
	}
	return payoutcontract.DepositAddress(payoutcontract.Create2PrefixEVM, f, impl, salt).Hex(), nil
}

// evmBytes returns the 20-byte form of an address in c's text form.
func evmBytes(c cashier.Chain, s string) (common.Address, error) {
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

// AllowanceAvailable implements orders.Funds: the smaller of the allowance
// owner granted the contract and owner's balance (funding rule 2).
func (f Funds) AllowanceAvailable(ctx context.Context, c cashier.Chain, token, owner, contract string) (*big.Int, error) {
	cl, err := f.client(c)
	if err != nil {
		return nil, err
	}
	allow, err := cl.Allowance(ctx, token, owner, contract)
	if err != nil {
		return nil, err
	}
	bal, err := cl.TokenBalance(ctx, token, owner)
	if err != nil {
		return nil, err
	}
	if allow.Cmp(bal) < 0 {
		return allow, nil
	}
	return bal, nil
}
