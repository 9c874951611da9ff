package watch_test

import (
	"context"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/watch"
)

// An unpaid order turns EXPIRED within a second of its expireTime, with
// its webhook event, while its network's watcher keeps up with a chain
// making a block every 100 ms; an order that is still in time is left
// alone.
func TestExpiryWithinASecond(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newRig(t, rigOptions{confirmations: 1})
	r.svc.Orders.Config.CollectionTTL = 1500 * time.Millisecond
	soon := r.order(t, "1.00")
	r.svc.Orders.Config.CollectionTTL = time.Hour
	later := r.order(t, "1.00")
	w := r.svc.Watchers[0]
	must(t, w.Round(ctx))
	done := make(chan struct{}, 2)
	go func() { (&watch.Expirer{Orders: r.svc.Orders}).Run(ctx); done <- struct{}{} }()
	go func() {
		defer func() { done <- struct{}{} }()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			r.chain.Commit()
			if err := w.Round(ctx); err != nil && ctx.Err() == nil {
				t.Errorf("watcher round: %v", err)
				return
			}
		}
	}()
	defer func() { cancel(); <-done; <-done }()

	for {
		o, _ := r.reload(t, soon.ID)
		if o.Status == cashier.CollectionExpired {
			if late := time.Since(soon.ExpireAt); late > time.Second {
				t.Fatalf("expired %v after expireTime", late)
			}
			// Both as stored, in milliseconds (soon's own ExpireAt has
			// the clock's nanoseconds).
			if o.UpdatedAt.Before(o.ExpireAt) {
				t.Fatalf("expired at %v, before its expiry %v", o.UpdatedAt, o.ExpireAt)
			}
			break
		}
		if time.Since(soon.ExpireAt) > time.Second {
			t.Fatalf("still %s %v after expireTime", o.Status, time.Since(soon.ExpireAt))
		}
		time.Sleep(10 * time.Millisecond)
	}
	evs, err := r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: soon.ID})
	must(t, err)
	if len(evs) != 2 || evs[0].Status != "EXPIRED" {
		t.Fatalf("events %+v", evs)
	}
	if o, _ := r.reload(t, later.ID); o.Status != cashier.CollectionPending {
		t.Fatalf("the later order is %s", o.Status)
	}
}
