package watch_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/faultproxy"
	"github.com/stablecashier/cashier/watch"
)

// The node URL is a load balancer over nodes at different heights: half
// the answers come from one four blocks behind (absent blocks, logs and
// receipts past its head, an older head). Every payment is credited
// exactly once and none is ever recorded dropped.
func TestWatcherBehindLaggingNodes(t *testing.T) {
	var px *faultproxy.Proxy
	r := newRig(t, rigOptions{confirmations: 2, rpc: func(chainURL string) string {
		var err error
		px, err = faultproxy.New(faultproxy.Config{Target: chainURL, Protocol: faultproxy.EVM, Lag: 4,
			Rates: map[faultproxy.Fault]float64{faultproxy.Lag: 0.5}, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(px)
		t.Cleanup(srv.Close)
		return srv.URL
	}})
	for range 6 {
		r.chain.Commit() // deep enough for the lagging node to lag
	}
	var logs syncBuffer
	w := watch.New(watch.Config{Chain: cashier.ChainETH, Tokens: []string{r.usdt.Hex()}, Confirmations: 2,
		Interval: 10 * time.Millisecond, BackoffBase: 10 * time.Millisecond, BackoffMax: 100 * time.Millisecond},
		r.svc.Chains[cashier.ChainETH].(watch.Scanner), r.svc.Orders, slog.New(slog.NewJSONHandler(&logs, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var ids []string
	for range 6 {
		o := r.order(t, "3.00")
		ids = append(ids, o.ID)
		r.pay(t, o.DepositAddress, 3_000_000)
		r.chain.Commit()
		time.Sleep(30 * time.Millisecond) // let rounds see it unconfirmed
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, id := range ids {
		for {
			o, ps := r.reload(t, id)
			if o.Status == cashier.CollectionSuccess {
				if o.PaidAmount.Int64() != 3_000_000 || len(ps) != 1 || ps[0].Status != cashier.PaymentConfirmed || ps[0].Effect != cashier.EffectCredited {
					t.Fatalf("order %s paid %s with payments %+v", id, o.PaidAmount, ps)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("order %s still %s paid %s; log:\n%.3000s", id, o.Status, o.PaidAmount, logs.String())
			}
			r.chain.Commit()
			time.Sleep(20 * time.Millisecond)
		}
	}
	if px.Counts()["lag"] == 0 {
		t.Fatal("no answer lagged")
	}
	if n, err := r.svc.Store.SeenPayments(context.Background(), cashier.ChainETH); err != nil || len(n) != 0 {
		t.Fatalf("seen payments left: %v %v", n, err)
	}
	t.Logf("lagging answers %d", px.Counts()["lag"])
}
