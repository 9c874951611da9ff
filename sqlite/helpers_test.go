package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// t0 has millisecond precision, the precision the store keeps.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535_000_000, time.UTC)

func newKey(t testing.TB) []byte {
	t.Helper()
	key := make([]byte, MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}

func openAt(t testing.TB, path string, key []byte) *DB {
	t.Helper()
	s, err := NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, Options{Sealer: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openTest opens a fresh database holding merchant m1 with cashier c1 and
// contract k1, and merchant m2 with cashier c2 and contract k2.
func openTest(t testing.TB) *DB {
	t.Helper()
	db := openAt(t, filepath.Join(t.TempDir(), "cashier.db"), newKey(t))
	seed(t, db)
	return db
}

func seed(t testing.TB, db *DB) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error {
		for _, n := range []string{"1", "2"} {
			if err := tx.CreateMerchant(ctx, &cashier.Merchant{
				ID: "m" + n, Name: "Merchant " + n, APIKey: "ak_live_0123456789abcdef" + n,
				SecretKey: "sk_" + n, WebhookKey: "wk_" + n, Status: cashier.MerchantActive, CreatedAt: t0,
			}); err != nil {
				return err
			}
			if err := tx.CreateCashier(ctx, &cashier.Cashier{
				ID: "c" + n, MerchantID: "m" + n, Name: "Shop " + n, WebhookURL: "https://shop" + n + ".example/hook",
				Status: cashier.CashierActive, CreatedAt: t0,
			}); err != nil {
				return err
			}
			if err := tx.CreateContract(ctx, &cashier.Contract{
				ID: "k" + n, MerchantID: "m" + n, Chain: cashier.ChainETH, Address: "0x00000000000000000000000000000000000000a" + n,
				Status: cashier.ContractActive, CreatedAt: t0,
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

var ctx = context.Background()

func mustUpdate(t testing.TB, db *DB, fn func(cashier.Tx) error) {
	t.Helper()
	if err := db.Update(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

func wantCode(t testing.TB, err error, code cashier.Code) {
	t.Helper()
	if got := cashier.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func collection(id, merchant, orderNo string, created time.Time) *cashier.CollectionOrder {
	cashierID := "c1"
	if merchant == "m2" {
		cashierID = "c2"
	}
	return &cashier.CollectionOrder{
		ID: id, MerchantID: merchant, CashierID: cashierID, OrderNo: orderNo, CustNo: "cust-" + orderNo,
		Chain: cashier.ChainTRON, Symbol: "USDT", Decimals: 6,
		Amount: big.NewInt(100_500_000), PaidAmount: new(big.Int),
		DepositAddress: "TXYZ" + id, RedirectURL: "https://shop.example/done",
		Status: cashier.CollectionPending, ExpireAt: created.Add(30 * time.Minute),
		CreatedAt: created, UpdatedAt: created,
	}
}

func createCollection(t testing.TB, db *DB, o *cashier.CollectionOrder) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
}

func writePool(db *DB) *sql.DB { w, _ := db.Pools(); return w }
func readPool(db *DB) *sql.DB  { _, r := db.Pools(); return r }
