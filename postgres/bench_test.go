package postgres

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sqlstore"
)

// The SQLite benchmarks of the same names (package sqlite), on PostgreSQL.

func benchStore(b *testing.B) *sqlstore.DB {
	db := open(b, pgtest.URL(b)+os.Getenv("PGB_EXTRA"), sealer(b))
	ctx := context.Background()
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", Name: "M", APIKey: "ak_live_0123456789abcdef1",
			SecretKey: "sk", WebhookKey: "wk", Status: cashier.MerchantActive, CreatedAt: t0}); err != nil {
			return err
		}
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "c1", MerchantID: "m1", Name: "Shop", Status: cashier.CashierActive, CreatedAt: t0})
	})
	if err != nil {
		b.Fatal(err)
	}
	return db
}

func benchOrder(i int64) *cashier.CollectionOrder {
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	return &cashier.CollectionOrder{
		ID: fmt.Sprintf("o%d", i), MerchantID: "m1", CashierID: "c1", OrderNo: fmt.Sprintf("N%d", i), CustNo: "cust",
		Chain: cashier.ChainTRON, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(100_500_000), PaidAmount: new(big.Int),
		DepositAddress: fmt.Sprintf("T%d", i), Status: cashier.CollectionPending, ExpireAt: t0.Add(time.Hour), CreatedAt: t0, UpdatedAt: t0,
	}
}

// BenchmarkCreateCollection measures committed order creations, one
// transaction each.
func BenchmarkCreateCollection(b *testing.B) {
	db := benchStore(b)
	ctx := context.Background()
	for i := int64(0); b.Loop(); i++ {
		o := benchOrder(i)
		if err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateCollectionParallel has many goroutines creating at once,
// as concurrent API requests do (group commit).
func BenchmarkCreateCollectionParallel(b *testing.B) {
	db := benchStore(b)
	ctx := context.Background()
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			o := benchOrder(n.Add(1))
			err := db.Update(ctx, func(tx cashier.Tx) error {
				if err := tx.CreateCollection(ctx, o); err != nil {
					return err
				}
				return tx.AddEvent(ctx, &cashier.Event{ID: "ev-" + o.ID, OrderID: o.ID, CreatedAt: o.CreatedAt})
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
