package watch_test

import (
	"context"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The watcher stores the time of the block its cursor confirmed, and the
// expiry worker waits for it: a payment mined before the expiry but
// confirmed after it credits its order (CREDITED, SUCCESS), and an unpaid
// order expires only once a block at or after its expiry is confirmed.
func TestExpiryWaitsForConfirmedBlocks(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour})
	w := r.svc.Watchers[0]
	must(t, w.Round(ctx))
	head, err := r.chain.Client.HeaderByNumber(ctx, nil)
	must(t, err)
	// The dev chain's block times may run ahead of the clock: the expiry
	// is set a few seconds after the head's time.
	expireAt := time.Unix(int64(head.Time), 0).Add(4 * time.Second)
	r.svc.Orders.Config.CollectionTTL = max(time.Second, time.Until(expireAt))
	paid, unpaid := r.order(t, "2.00"), r.order(t, "2.00")
	r.pay(t, paid.DepositAddress, 2_000_000) // its own block, before the expiry
	must(t, w.Round(ctx))

	cur, err := r.svc.Store.Cursor(ctx, cashier.ChainETH)
	must(t, err)
	b, err := r.chain.Client.HeaderByNumber(ctx, bigOf(cur.Confirmed))
	must(t, err)
	if !cur.ConfirmedTime.Equal(time.Unix(int64(b.Time), 0)) {
		t.Fatalf("cursor at block %d has time %v, the block's is %v", cur.Confirmed, cur.ConfirmedTime, time.Unix(int64(b.Time), 0))
	}
	time.Sleep(time.Until(paid.ExpireAt.Add(1100 * time.Millisecond)))
	if n, err := r.svc.Orders.ExpireDue(ctx, 10); err != nil || n != 0 {
		t.Fatalf("expired %d (%v) before the chain was confirmed past the expiry", n, err)
	}
	r.chain.Commit() // confirms the payment's block; this block is after the expiry
	must(t, w.Round(ctx))
	if o, ps := r.reload(t, paid.ID); o.Status != cashier.CollectionSuccess || len(ps) != 1 || ps[0].Effect != cashier.EffectCredited {
		t.Fatalf("paid in time: %s, payments %+v", o.Status, ps)
	}
	if n, err := r.svc.Orders.ExpireDue(ctx, 10); err != nil || n != 0 {
		t.Fatalf("expired %d (%v) with the last confirmed block before the expiry", n, err)
	}
	r.chain.Commit()
	must(t, w.Round(ctx))
	if n, err := r.svc.Orders.ExpireDue(ctx, 10); err != nil || n != 1 {
		t.Fatalf("expired %d (%v) once a block after the expiry was confirmed", n, err)
	}
	if o, _ := r.reload(t, unpaid.ID); o.Status != cashier.CollectionExpired {
		t.Fatalf("the unpaid order is %s", o.Status)
	}
}

func bigOf(n uint64) *bigInt { return new(bigInt).SetUint64(n) }
