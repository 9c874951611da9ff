package webhook

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// BenchmarkBurst measures how long a backlog of orders' three events each
// (PENDING, then PROCESSING, then SUCCESS, delivered in that order per
// order) takes to reach one local receiver that answers at once, with the
// default configuration: per-order ordering, fairness and the poll
// interval all in play.
func BenchmarkBurst(b *testing.B) {
	const orders = 1000
	for range b.N {
		b.StopTimer()
		e := newEnv(b)
		var got atomic.Int64
		rc := newReceiver(b, func(int, *http.Request, http.ResponseWriter) { got.Add(1) })
		statuses := []cashier.CollectionStatus{cashier.CollectionPending, cashier.CollectionSuccess, cashier.CollectionExpired}
		e.update(func(tx cashier.Tx) error {
			now := e.clock.Now()
			for _, st := range statuses {
				for i := range orders {
					ev, err := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_%d", i), st, now),
						&cashier.Cashier{WebhookURL: rc.URL}, now)
					if err != nil {
						return err
					}
					if err := tx.AddEvent(context.Background(), ev); err != nil {
						return err
					}
				}
			}
			return nil
		})
		d := e.dispatcher(sandbox)
		ctx, cancel := context.WithCancel(context.Background())
		b.StartTimer()
		start := time.Now()
		go d.Run(ctx)
		for got.Load() < 3*orders {
			time.Sleep(time.Millisecond)
		}
		el := time.Since(start)
		b.StopTimer()
		cancel()
		b.ReportMetric(el.Seconds(), "s/burst")
		b.ReportMetric(3*orders/el.Seconds(), "deliveries/s")
		b.StartTimer()
	}
}
