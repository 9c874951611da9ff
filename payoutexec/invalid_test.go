package payoutexec_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// acceptAll is an address check that takes anything: the validation of
// an earlier version, under which such orders were stored.
type acceptAll struct{}

func (acceptAll) ValidateAddress(_ cashier.Chain, addr string) (string, error) { return addr, nil }

// An order the contract can never pay (its recipient the zero address,
// stored before such addresses were refused at entry) does not hold its
// batch for ever: it alone is refused, with its reason and its REFUSE
// webhook, its funds unlocked, and the rest of the batch is paid.
func TestBatchThatCanNeverBeValidRefusesTheOffendingOrder(t *testing.T) {
	r := newRig(t, 1000)
	const zero = "0x0000000000000000000000000000000000000000"
	a := r.create(alice, "10")
	checked := r.svc.Addresses
	r.svc.Addresses = acceptAll{}
	z := r.create(zero, "20")
	r.svc.Addresses = checked
	c := r.create(carol, "30")
	r.tick()
	if ea, ez := r.order(a.ID).ExecID, r.order(z.ID).ExecID; ea == "" || ea != ez || r.order(c.ID).ExecID != ea {
		t.Fatalf("the three orders are not one batch: %q %q %q", ea, ez, r.order(c.ID).ExecID)
	}
	r.settle(a.ID, z.ID, c.ID)
	rz := r.order(z.ID)
	if rz.Status != cashier.PayoutRefuse || !strings.Contains(rz.FailReason, "zero address") || rz.TxID != "" {
		t.Fatalf("the zero-address order: %s %q tx %q", rz.Status, rz.FailReason, rz.TxID)
	}
	for _, o := range []*cashier.PayoutOrder{a, c} {
		if got := r.order(o.ID); got.Status != cashier.PayoutSuccess || got.TxID == "" {
			t.Fatalf("order %s of the same batch: %s %q", o.OrderNo, got.Status, got.FailReason)
		}
	}
	if r.balance(alice).Cmp(units("10")) != 0 || r.balance(carol).Cmp(units("30")) != 0 {
		t.Fatalf("balances %s %s", r.balance(alice), r.balance(carol))
	}
	if sts := eventStatuses(t, r, z.ID); len(sts) == 0 || sts[len(sts)-1] != string(cashier.PayoutRefuse) || slices.Contains(sts, string(cashier.PayoutSuccess)) {
		t.Fatalf("webhooks of the refused order: %v", sts)
	}
	checkLocks(t, r)
}
