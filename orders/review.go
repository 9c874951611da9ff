package orders

import (
	"context"
	"strings"

	"github.com/stablecashier/cashier"
)

// Operator review of payouts. These are the operations an admin dashboard
// calls; the `cashier payout` commands are a thin shell over them.

// MaxReasonLen bounds a refusal reason (characters).
const MaxReasonLen = 256

// ListPayouts validates f and returns one page of matching payouts, newest
// first. Status and Chain are checked against the known values.
func (s *Service) ListPayouts(ctx context.Context, f cashier.PayoutFilter) ([]cashier.PayoutOrder, int, error) {
	if f.Status != "" {
		ok := false
		for _, st := range cashier.PayoutStatuses {
			ok = ok || st == f.Status
		}
		if !ok {
			return nil, 0, cashier.Errorf(cashier.EInvalid, "status must be one of PENDING, PROCESSING, SUCCESS, REFUSE, not %q", f.Status)
		}
	}
	if f.Chain != "" {
		c, err := cashier.ParseChain(string(f.Chain))
		if err != nil {
			return nil, 0, err
		}
		f.Chain = c
	}
	if f.MerchantID != "" {
		if _, err := s.Store.Merchant(ctx, f.MerchantID); err != nil {
			return nil, 0, err
		}
	}
	return s.Store.Payouts(ctx, f)
}

// ApprovePayout releases a PENDING order held for review to the executor.
// Approving an order that needs no review (any more) is refused, so a
// repeated approval is visible rather than silently accepted.
func (s *Service) ApprovePayout(ctx context.Context, id string) (*cashier.PayoutOrder, error) {
	if id == "" {
		return nil, cashier.Errorf(cashier.EMissing, "an order id is required")
	}
	var out *cashier.PayoutOrder
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Payout(ctx, id)
		if err != nil {
			return err
		}
		if o.Status != cashier.PayoutPending || !o.NeedsReview {
			return cashier.Errorf(cashier.EInvalidStatus, "payout order %s is %s and not waiting for review", o.ID, o.Status)
		}
		o.NeedsReview, o.UpdatedAt = false, s.Clock.Now()
		if err := tx.UpdatePayout(ctx, o); err != nil {
			return err
		}
		out = o
		return nil
	})
	return out, err
}

// RefusePayout refuses an order no transaction can carry: PENDING (held
// for review or not yet taken by the executor), or PROCESSING in a batch
// nothing was sent for. REFUSE with the reason, its funds unlocked and its
// webhook written in the transaction that reads and checks its status and
// its batch; once the batch may be on chain the refusal is refused
// (EInvalidStatus) and only the chain decides the order.
func (s *Service) RefusePayout(ctx context.Context, id, reason string) (*cashier.PayoutOrder, error) {
	reason = strings.TrimSpace(reason)
	switch {
	case id == "":
		return nil, cashier.Errorf(cashier.EMissing, "an order id is required")
	case reason == "":
		return nil, cashier.Errorf(cashier.EMissing, "a refusal reason is required")
	case len([]rune(reason)) > MaxReasonLen:
		return nil, cashier.Errorf(cashier.ETooLarge, "the reason is longer than %d characters", MaxReasonLen)
	}
	return s.TransitionPayout(ctx, id, cashier.PayoutRefuse, func(o *cashier.PayoutOrder) {
		o.FailReason, o.NeedsReview = reason, false
	})
}

// SetReviewPolicy stores a merchant's review policy after checking it.
func (s *Service) SetReviewPolicy(ctx context.Context, merchantID string, mode cashier.ReviewMode, above string) (*cashier.ReviewPolicy, error) {
	if _, err := s.Store.Merchant(ctx, merchantID); err != nil {
		return nil, err
	}
	ok := false
	for _, m := range cashier.ReviewModes {
		ok = ok || m == mode
	}
	if !ok {
		return nil, cashier.Errorf(cashier.EInvalid, "review mode must be default, always, never or above, not %q", mode)
	}
	if (mode == cashier.ReviewAbove) != (above != "") {
		return nil, cashier.Errorf(cashier.EInvalid, "an amount goes with review mode above, and only with it")
	}
	if above != "" {
		if _, err := cashier.ParseAmount(above, 18); err != nil {
			return nil, err
		}
	}
	p := &cashier.ReviewPolicy{MerchantID: merchantID, Mode: mode, Above: above, UpdatedAt: s.Clock.Now()}
	err := s.Store.Update(ctx, func(tx cashier.Tx) error { return tx.SetReviewPolicy(ctx, p) })
	return p, err
}
