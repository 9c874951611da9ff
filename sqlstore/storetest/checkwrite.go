package storetest

import (
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// A refusal checks an order's execution and writes the order in one
// transaction while the executor, in another process, moves that
// execution to sending: they touch different rows, so only the store's
// serialized writers keep the executor's transaction from running between
// the refusal's check and its commit. The executor's transaction must run
// after the refusal committed and see the order refused.
func testCheckAndWriteAcrossHandles(t *testing.T) {
	loc := newLocation(t)
	key := newKey(t)
	a, b := openAt(t, loc, key), openAt(t, loc, key)
	Seed(t, a)
	o := payout("p1", "m1", "P-1", t0)
	o.Status, o.ExecID = cashier.PayoutProcessing, "px_1"
	mustUpdate(t, a, func(tx cashier.Tx) error {
		if err := tx.CreateExec(ctx, &cashier.PayoutExec{ID: "px_1", Chain: cashier.ChainETH, ContractID: "k1", Contract: "0xk1", Symbol: "USDC",
			Mode: cashier.PayoutBalance, Nonce: big.NewInt(9), State: cashier.ExecCreated, CreatedAt: t0, UpdatedAt: t0}); err != nil {
			return err
		}
		return tx.CreatePayout(ctx, o)
	})

	var refusalOpen atomic.Bool
	started := make(chan struct{})
	done := make(chan error, 1)
	var sawStatus cashier.PayoutStatus
	startSend := func() {
		done <- b.Update(ctx, func(tx cashier.Tx) error {
			if refusalOpen.Load() {
				t.Error("the executor's transaction ran inside the refusal's")
			}
			close(started)
			p, err := tx.Payout(ctx, "p1")
			if err != nil {
				return err
			}
			sawStatus = p.Status
			if p.Status != cashier.PayoutProcessing {
				return nil // refused meanwhile: nothing to send
			}
			e, err := tx.Exec(ctx, "px_1")
			if err != nil {
				return err
			}
			e.State = cashier.ExecSending
			return tx.UpdateExec(ctx, e)
		})
	}
	err := a.Update(ctx, func(tx cashier.Tx) error {
		refusalOpen.Store(true)
		defer refusalOpen.Store(false)
		e, err := tx.Exec(ctx, "px_1")
		if err != nil {
			return err
		}
		if e.State != cashier.ExecCreated {
			t.Errorf("execution %s, want created", e.State)
		}
		go startSend()
		select { // give the other writer every chance to run now
		case <-started:
		case <-time.After(300 * time.Millisecond):
		}
		p, err := tx.Payout(ctx, "p1")
		if err != nil {
			return err
		}
		p.Status, p.FailReason = cashier.PayoutRefuse, "refused"
		return tx.UpdatePayout(ctx, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sawStatus != cashier.PayoutRefuse {
		t.Fatalf("the executor's transaction saw the order %s, want REFUSE", sawStatus)
	}
	if e, _ := a.Exec(ctx, "px_1"); e.State != cashier.ExecCreated {
		t.Fatalf("execution %s after a refused order: sent for an order refused", e.State)
	}
}
