package sqlstore_test

import (
	"context"
	"crypto/rand"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlstore"
)

// The hot statements are prepared once at New, and a Tx built without
// them (as code elsewhere in the package may do) runs the same SQL
// unprepared.
func TestPreparedStatements(t *testing.T) {
	ctx := context.Background()
	key := make([]byte, sqlstore.MasterKeySize)
	rand.Read(key)
	s, err := sqlstore.NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cashier.db"), sqlite.Options{Sealer: s})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range sqlstore.HotStatements(db) {
		if !sqlstore.Prepared(db, q) {
			t.Fatalf("not prepared: %.30q", q)
		}
	}
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 535_000_000, time.UTC)
	if err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", Name: "M", APIKey: "ak_live_0123456789abcdef1",
			SecretKey: "sk", WebhookKey: "wk", Status: cashier.MerchantActive, CreatedAt: t0}); err != nil {
			return err
		}
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "c1", MerchantID: "m1", Name: "Shop",
			Status: cashier.CashierActive, CreatedAt: t0})
	}); err != nil {
		t.Fatal(err)
	}
	order := func(id, no string) *cashier.CollectionOrder {
		return &cashier.CollectionOrder{
			ID: id, MerchantID: "m1", CashierID: "c1", OrderNo: no, CustNo: "cust",
			Chain: cashier.ChainTRON, Symbol: "USDT", Decimals: 6,
			Amount: big.NewInt(100_500_000), PaidAmount: new(big.Int), DepositAddress: "TXYZ" + id,
			Status: cashier.CollectionPending, ExpireAt: t0.Add(time.Hour), CreatedAt: t0, UpdatedAt: t0,
		}
	}
	if err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, order("co_prep", "P-1")) }); err != nil {
		t.Fatal(err)
	}
	if err := sqlstore.CreateCollectionUnprepared(ctx, db, order("co_plain", "P-2")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"co_prep", "co_plain"} {
		if _, err := db.Collection(ctx, id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, order("co_dup", "P-1")) })
	if got := cashier.ErrorCode(err); got != cashier.EDuplicate {
		t.Fatalf("duplicate order number: %v", err)
	}
}
