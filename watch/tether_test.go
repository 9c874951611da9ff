package watch_test

import (
	"context"
	"testing"

	"github.com/stablecashier/cashier"
)

// On Tether's real USDT with a transfer fee: the deposit address receives
// the amount sent less the fee, and the order is credited with what
// arrived, so a customer who sent exactly the amount sees it underpaid by
// the fee.
func TestTetherFeeCreditsWhatArrived(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 1, tether: true})
	must(t, r.tether.SetFee(ctx, 10, 1)) // 0.1%, at most 1 USDT
	w := r.svc.Watchers[0]
	o := r.order(t, "5.00")
	must(t, w.Round(ctx))
	r.pay(t, o.DepositAddress, 5_000_000)
	var got *cashier.CollectionOrder
	var ps []cashier.Payment
	for i := 0; i < 50; i++ {
		r.chain.Commit()
		must(t, w.Round(ctx))
		if got, ps = r.reload(t, o.ID); len(ps) == 1 && ps[0].Status == cashier.PaymentConfirmed {
			break
		}
	}
	if len(ps) != 1 || ps[0].Status != cashier.PaymentConfirmed || ps[0].Amount.Int64() != 4_995_000 {
		t.Fatalf("payment as the token moved it: %+v", ps)
	}
	if got.Status == cashier.CollectionSuccess || paid(got).Int64() != 4_995_000 || got.PaymentNote() != cashier.NoteUnderpaid {
		t.Fatalf("order after a fee-charged payment: %s paid %s note %q", got.Status, got.PaidAmount, got.PaymentNote())
	}
}
