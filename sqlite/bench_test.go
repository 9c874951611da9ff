package sqlite

import (
	"fmt"
	"sync/atomic"
	"testing"

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
// as concurrent API requests do; they queue on the one write connection.
func BenchmarkCreateCollectionParallel(b *testing.B) {
	db := openTest(b)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			o := collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0)
			err := db.Update(ctx, func(tx cashier.Tx) error {
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
