package orders

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/stablecashier/cashier"
)

// RecordApprovals stores confirmed Approval events of c's tokens to its
// payout contracts, each once per (txHash, logIndex), in one transaction. A
// newer approval resets its allowance: Spent starts with what the pool's
// payouts paid at or after its block (the settles kept for the read/commit
// race), and the allowance waits to be checked by HoldToAllowances. It
// returns how many were new.
func (s *Service) RecordApprovals(ctx context.Context, c cashier.Chain, got []cashier.Approval) (int, error) {
	if len(got) == 0 {
		return 0, nil
	}
	fresh := 0
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		fresh = 0
		now := s.Clock.Now()
		for i := range got {
			a := &got[i]
			t, ok := s.Registry.TokenByAddress(c, a.Token)
			if a.Chain != c || !ok {
				continue // not an approval of one of c's tokens: nothing of ours
			}
			a.Token = t.ContractAddress // the registry's form, which payouts name
			key := allowancePool(c, a.Spender, a.Owner, t.Symbol)
			spent := new(big.Int)
			if a.BlockNumber > 0 {
				withSettles, err := tx.PoolLocked(ctx, key, a.BlockNumber-1)
				if err != nil {
					return err
				}
				running, err := tx.PoolLocked(ctx, key, math.MaxUint64)
				if err != nil {
					return err
				}
				spent.Sub(withSettles, running)
			}
			isNew, err := tx.RecordApproval(ctx, a, t.Symbol, spent, now)
			if err != nil {
				return err
			}
			if isNew {
				fresh++
			}
		}
		return nil
	})
	return fresh, err
}

func allowancePool(c cashier.Chain, contract, wallet, symbol string) string {
	return pool{kind: walletAllowance, chain: c, contract: contract, wallet: wallet, symbol: symbol}.key()
}

// HoldToAllowances holds the pending allowance-mode orders of every
// allowance of c changed by a new approval against what it now leaves:
// while the pool's locked total exceeds it, the newest PENDING order is
// refused (REFUSE with the reason, funds unlocked, webhook, one transaction
// each). Orders already sent (PROCESSING) are never refused here, and an
// allowance with one in flight waits for a later round: the payment being
// confirmed will count as spent, and counting it now as well would refuse
// an order wrongly. It returns the orders refused.
func (s *Service) HoldToAllowances(ctx context.Context, c cashier.Chain) ([]cashier.PayoutOrder, error) {
	list, err := s.Store.UncheckedAllowances(ctx, c)
	if err != nil {
		return nil, err
	}
	var refused []cashier.PayoutOrder
	for i := range list {
		got, err := s.holdToAllowance(ctx, &list[i])
		refused = append(refused, got...)
		if err != nil {
			return refused, err
		}
	}
	return refused, nil
}

func (s *Service) holdToAllowance(ctx context.Context, a *cashier.Allowance) ([]cashier.PayoutOrder, error) {
	k, err := s.Store.ContractByAddress(ctx, a.Chain, a.Spender)
	if err != nil {
		return nil, err
	}
	var pending []cashier.PayoutOrder // newest first
	for _, st := range []cashier.PayoutStatus{cashier.PayoutProcessing, cashier.PayoutPending} {
		list, _, err := s.Store.Payouts(ctx, cashier.PayoutFilter{ContractID: k.ID, FromAddress: a.Owner, Status: st})
		if err != nil {
			return nil, err
		}
		for _, o := range list {
			if o.PayoutType != cashier.PayoutAllowance || o.Symbol != a.Symbol {
				continue
			}
			if st == cashier.PayoutProcessing {
				return nil, nil // in flight: checked again next round
			}
			pending = append(pending, o)
		}
	}
	locked, err := s.Store.PoolLocked(ctx, allowancePool(a.Chain, a.Spender, a.Owner, a.Symbol), math.MaxUint64)
	if err != nil {
		return nil, err
	}
	left := a.Left()
	var refused []cashier.PayoutOrder
	for _, o := range pending {
		if locked.Cmp(left) <= 0 {
			break
		}
		reason := fmt.Sprintf("wallet %s now allows contract %s only %s %s (approval %s), not enough for this payout",
			a.Owner, a.Spender, cashier.FormatAmount(left, o.Decimals), o.Symbol, a.TxHash)
		got, err := s.TransitionPayout(ctx, o.ID, cashier.PayoutRefuse, func(o *cashier.PayoutOrder) {
			o.FailReason, o.NeedsReview = reason, false
		})
		if cashier.ErrorCode(err) == cashier.EInvalidStatus {
			// Taken into a batch that may be on chain since the list was
			// read (the refusal checks that in its own transaction): the
			// allowance stays unchecked, and the next round waits for the
			// batch to settle before it looks at the pool again.
			return refused, nil
		}
		if err != nil {
			return refused, err
		}
		refused = append(refused, *got)
		locked.Sub(locked, need(&o))
	}
	err = s.Store.Update(ctx, func(tx cashier.Tx) error {
		return tx.MarkAllowanceChecked(ctx, a.Chain, a.Token, a.Owner, a.Spender, a.TxHash, a.LogIndex)
	})
	return refused, err
}

// spendAllowance counts a paid allowance-mode order against the allowance
// its wallet last approved (tokens lower an allowance on transferFrom
// without an Approval event).
func (s *Service) spendAllowance(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder, k *cashier.Contract) error {
	if o.PayoutType != cashier.PayoutAllowance || o.Status != cashier.PayoutSuccess {
		return nil
	}
	t, err := s.Registry.LookupToken(o.Chain, o.Symbol)
	if err != nil {
		return err
	}
	return tx.SpendAllowance(ctx, o.Chain, t.ContractAddress, o.FromAddress, k.Address, o.BlockNumber, need(o))
}
