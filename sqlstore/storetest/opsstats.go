package storetest

import (
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The monitoring counts: the payout queue and its age come from the ready
// payouts only (not in review, not yet in a batch).
func testOpsStats(t *testing.T) {
	db := openTest(t)
	old, review, recent := payout("p1", "m1", "P-1", t0), payout("p2", "m1", "P-2", t0.Add(-time.Hour)), payout("p3", "m2", "P-3", t0.Add(time.Minute))
	review.NeedsReview = true // waits for a person, not for the executor
	for _, o := range []*cashier.PayoutOrder{old, review, recent} {
		createPayout(t, db, o)
	}
	s, err := db.OpsStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Payouts[string(cashier.PayoutPending)] != 3 || s.Queued[cashier.ChainETH] != 2 {
		t.Fatalf("payouts %v, queued %v: want 3 PENDING, 2 ready on ETH", s.Payouts, s.Queued)
	}
	if got := s.QueuedSince[cashier.ChainETH]; !got.Equal(t0) {
		t.Fatalf("queue on ETH waits since %v, want the oldest ready payout's %v", got, t0)
	}
	if _, ok := s.QueuedSince[cashier.ChainTRON]; ok {
		t.Fatal("a queue age for a network with nothing queued")
	}
}
