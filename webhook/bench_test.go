package webhook

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// BenchmarkDeliveries measures throughput from a backlog of due events to
// one local receiver.
func BenchmarkDeliveries(b *testing.B) {
	e := newEnv(b)
	var got atomic.Int64
	rc := newReceiver(b, func(int, *http.Request, http.ResponseWriter) { got.Add(1) })
	for i := 0; i < b.N; i += 500 {
		e.update(func(tx cashier.Tx) error {
			for j := i; j < min(i+500, b.N); j++ {
				now := e.clock.Now()
				ev, _ := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_%d", j), cashier.CollectionSuccess, now),
					&cashier.Cashier{WebhookURL: rc.URL}, now)
				if err := tx.AddEvent(context.Background(), ev); err != nil {
					return err
				}
			}
			return nil
		})
	}
	cfg := sandbox
	cfg.Workers = 16 // as when the benchmark was first recorded
	cfg.HostConcurrency = cfg.Workers
	d := e.dispatcher(cfg)

	b.ResetTimer()
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	for got.Load() < int64(b.N) {
		time.Sleep(100 * time.Microsecond)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}

// BenchmarkCommitToDelivery measures the time from an event's commit
// (through NotifyOnCommit) to its arrival at the receiver.
func BenchmarkCommitToDelivery(b *testing.B) {
	e := newEnv(b)
	arrived := make(chan time.Time, 1)
	rc := newReceiver(b, func(int, *http.Request, http.ResponseWriter) { arrived <- time.Now() })
	cfg := sandbox
	cfg.PollInterval = time.Hour // only Notify wakes it
	d := e.dispatcher(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	st := NotifyOnCommit(e.db, d)

	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		now := e.clock.Now()
		ev, _ := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_%d", i), cashier.CollectionSuccess, now),
			&cashier.Cashier{WebhookURL: rc.URL}, now)
		err := st.Update(context.Background(), func(tx cashier.Tx) error { return tx.AddEvent(context.Background(), ev) })
		committed := time.Now() // Update returns right after the commit and the wake-up
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, (<-arrived).Sub(committed))
	}
	b.StopTimer()
	slices.Sort(lat)
	var sum time.Duration
	for _, l := range lat {
		sum += l
	}
	b.ReportMetric(float64(sum.Microseconds())/float64(len(lat)), "µs-mean/commit-to-delivery")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "µs-p99/commit-to-delivery")
}
