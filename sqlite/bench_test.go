package sqlite

import (
	"fmt"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// BenchmarkCreateCollection measures committed order creations, one
// transaction each (with synchronous=FULL every commit is an fsync).
func BenchmarkCreateCollection(b *testing.B) {
	db := openTest(b)
	for i := 0; b.Loop(); i++ {
		o := collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0)
		if err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateCollectionParallel has many goroutines creating at once,
// as concurrent API requests do (8 per CPU); they queue on the one write
// connection and share its commits. Marked as the API's order creation
// is (cashier.ConcurrentWrite), a group runs without a savepoint per
// order. cpu-µs/op is the process's CPU per order, which a busy machine
// distorts least.
func BenchmarkCreateCollectionParallel(b *testing.B) {
	db := openTest(b)
	var n atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op") }()
	wctx := cashier.ConcurrentWrite(ctx)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			o := collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0)
			err := db.Update(wctx, func(tx cashier.Tx) error {
				if err := tx.CreateCollection(ctx, o); err != nil {
					return err
				}
				return tx.AddEvent(ctx, &cashier.Event{ID: "ev-" + o.ID, OrderID: o.ID, CreatedAt: t0})
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
