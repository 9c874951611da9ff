package payoutexec

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/stablecashier/cashier"
)

// watchAllowances refuses, newest first, the PENDING allowance-mode orders
// that the allowance their wallet now grants the contract can no longer
// cover (a revoked or lowered approval), each with its webhook; the older
// ones that still fit stay. A pool with orders in flight (PROCESSING) is
// left alone this round: a payment being confirmed has already used part of
// the allowance, and counting it twice would refuse an order wrongly.
func (x *Executor) watchAllowances(ctx context.Context) error {
	totals, err := x.Store.PoolTotals(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for key, locked := range totals {
		parts := strings.Split(key, "/")
		if len(parts) != 5 || parts[0] != "allowance" || locked.Sign() == 0 {
			continue
		}
		c, contract, wallet, symbol := cashier.Chain(parts[1]), parts[2], parts[3], parts[4]
		if x.Networks[c] == nil {
			continue
		}
		if err := x.checkAllowance(ctx, c, contract, wallet, symbol); err != nil {
			errs = append(errs, fmt.Errorf("allowance %s: %w", key, err))
		}
	}
	return errors.Join(errs...)
}

func (x *Executor) checkAllowance(ctx context.Context, c cashier.Chain, contract, wallet, symbol string) error {
	k, err := x.Store.ContractByAddress(ctx, c, contract)
	if err != nil {
		return err
	}
	var pending []cashier.PayoutOrder
	for _, st := range []cashier.PayoutStatus{cashier.PayoutProcessing, cashier.PayoutPending} {
		list, _, err := x.Store.Payouts(ctx, cashier.PayoutFilter{ContractID: k.ID, FromAddress: wallet, Status: st})
		if err != nil {
			return err
		}
		for _, o := range list {
			if o.PayoutType != cashier.PayoutAllowance || o.Symbol != symbol {
				continue
			}
			if st == cashier.PayoutProcessing {
				return nil // in flight: look again next round
			}
			pending = append(pending, o)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	token, err := x.Registry.LookupToken(c, symbol)
	if err != nil {
		return err
	}
	allow, err := x.Networks[c].Client.Allowance(ctx, token.ContractAddress, wallet, contract)
	if err != nil {
		return err
	}
	// Payouts lists newest first: the oldest orders keep the allowance.
	left := new(big.Int).Set(allow)
	var refuse []cashier.PayoutOrder
	for i := len(pending) - 1; i >= 0; i-- {
		o := pending[i]
		need := new(big.Int).Add(o.Amount, o.Fee)
		if left.Cmp(need) >= 0 {
			left.Sub(left, need)
			continue
		}
		refuse = append(refuse, o)
	}
	for _, o := range refuse {
		reason := fmt.Sprintf("wallet %s now allows contract %s only %s %s, not enough for this payout", wallet, contract,
			cashier.FormatAmount(allow, o.Decimals), o.Symbol)
		_, err := x.Orders.TransitionPayout(ctx, o.ID, cashier.PayoutRefuse, func(o *cashier.PayoutOrder) {
			o.FailReason, o.NeedsReview = reason, false
		})
		if err != nil && cashier.ErrorCode(err) != cashier.EInvalidStatus {
			return err
		}
		x.Logger.Info("allowance payout refused: allowance lowered", "order", o.ID, "wallet", wallet, "contract", contract)
	}
	return nil
}
