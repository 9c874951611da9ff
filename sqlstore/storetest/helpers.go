package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore"
)

// t0 has millisecond precision, the precision the store keeps.
// SeedTime is when Seed's rows were created.
var SeedTime = time.Date(2026, 3, 14, 15, 9, 26, 535_000_000, time.UTC)

var t0 = SeedTime

func newKey(t testing.TB) []byte {
	t.Helper()
	key := make([]byte, sqlstore.MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}

func openAt(t testing.TB, loc string, key []byte) *sqlstore.DB {
	t.Helper()
	s, err := sqlstore.NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return openWith(t, loc, sqlstore.Options{Sealer: s})
}

func openWith(t testing.TB, loc string, opts sqlstore.Options) *sqlstore.DB {
	t.Helper()
	db, err := backend.Open(context.Background(), loc, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newLocation(t testing.TB) string {
	t.Helper()
	return backend.NewDatabase(t)
}

// openTest opens a fresh database holding merchant m1 with cashier c1 and
// contract k1, and merchant m2 with cashier c2 and contract k2.
func openTest(t testing.TB) *sqlstore.DB {
	t.Helper()
	db := openAt(t, newLocation(t), newKey(t))
	Seed(t, db)
	return db
}

// Seed writes merchant m1 with cashier c1 and contract k1, and merchant m2
// with cashier c2 and contract k2, created at SeedTime: the fixture every
// store test starts from, shared with the dialects' own tests.
func Seed(t testing.TB, db *sqlstore.DB) {
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

func mustUpdate(t testing.TB, db *sqlstore.DB, fn func(cashier.Tx) error) {
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

// Collection is a PENDING collection order of merchant (m1 or m2, through
// its cashier) for 100.5 USDT on TRON, created at created.
func Collection(id, merchant, orderNo string, created time.Time) *cashier.CollectionOrder {
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

func payout(id, merchant, orderNo string, created time.Time) *cashier.PayoutOrder {
	contract := "k1"
	if merchant == "m2" {
		contract = "k2"
	}
	return &cashier.PayoutOrder{
		ID: id, MerchantID: merchant, ContractID: contract, OrderNo: orderNo, Chain: cashier.ChainETH,
		Recipient: "0x00000000000000000000000000000000000000b1", Symbol: "USDC", Decimals: 6,
		Amount: big.NewInt(25_000_000), Fee: big.NewInt(1_000_000), PayoutType: cashier.PayoutBalance,
		Remark: "salary", Status: cashier.PayoutPending, CreatedAt: created, UpdatedAt: created,
	}
}

func createCollection(t testing.TB, db *sqlstore.DB, o *cashier.CollectionOrder) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
}

func createPayout(t testing.TB, db *sqlstore.DB, o *cashier.PayoutOrder) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, o) })
}

// amountEq compares amounts by value (nil only equals nil).
func amountEq(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Cmp(b) == 0
}

func sameCollection(t testing.TB, got, want *cashier.CollectionOrder) {
	t.Helper()
	if !amountEq(got.Amount, want.Amount) || !amountEq(got.PaidAmount, want.PaidAmount) {
		t.Fatalf("amounts %v/%v, want %v/%v", got.Amount, got.PaidAmount, want.Amount, want.PaidAmount)
	}
	g, w := *got, *want
	g.Amount, g.PaidAmount, w.Amount, w.PaidAmount = nil, nil, nil, nil
	g.Num, w.Num = 0, 0 // set by Create only; see NumericID
	if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", w) {
		t.Fatalf("order\n got %+v\nwant %+v", g, w)
	}
}

func samePayout(t testing.TB, got, want *cashier.PayoutOrder) {
	t.Helper()
	if !amountEq(got.Amount, want.Amount) || !amountEq(got.Fee, want.Fee) {
		t.Fatalf("amounts %v/%v, want %v/%v", got.Amount, got.Fee, want.Amount, want.Fee)
	}
	g, w := *got, *want
	g.Amount, g.Fee, w.Amount, w.Fee = nil, nil, nil, nil
	g.Num, w.Num = 0, 0 // set by Create only; see NumericID
	if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", w) {
		t.Fatalf("order\n got %+v\nwant %+v", g, w)
	}
}

func writePool(db *sqlstore.DB) *sql.DB { w, _ := db.Pools(); return w }

func ids[T any](list []T, id func(T) string) string {
	var s []string
	for _, v := range list {
		s = append(s, id(v))
	}
	return strings.Join(s, ",")
}
