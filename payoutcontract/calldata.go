package payoutcontract

import (
	"fmt"
	"math/big"

	"github.com/stablecashier/cashier/contracts/bindings"
)

var payoutABI = bindings.NewCashierPayout()

// CallData is the input of a payoutWithBalance call carrying sig, for
// cashier.Call.Data.
func (p BalancePayout) CallData(sig []byte) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	data, err := payoutABI.TryPackPayoutWithBalance(p.Token, p.Recipients, p.Amounts, p.TotalFee, sig,
		p.Nonce, new(big.Int).SetUint64(p.Timestamp))
	if err != nil {
		return nil, fmt.Errorf("encode payoutWithBalance: %w", err)
	}
	return data, nil
}

// CallData is the input of a payoutWithAllowance call carrying sig, for
// cashier.Call.Data.
func (p AllowancePayout) CallData(sig []byte) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	data, err := payoutABI.TryPackPayoutWithAllowance(p.Token, p.From, p.Recipients, p.Amounts, p.TotalFee, sig,
		p.Nonce, new(big.Int).SetUint64(p.Timestamp))
	if err != nil {
		return nil, fmt.Errorf("encode payoutWithAllowance: %w", err)
	}
	return data, nil
}
