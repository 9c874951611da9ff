package storetest

import (
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// Payments round-trip, are unique per (network, txHash, logIndex), list by
// order and by SEEN status; the watcher's and the expiry worker's lookups
// answer through their indexes; the cursor round-trips.
func testPaymentsAndWatcherLookups(t *testing.T) {
	db := openTest(t)
	a := Collection("co_a", "m1", "A", t0)
	b := Collection("co_b", "m1", "B", t0.Add(time.Second))
	b.ExpireAt = t0.Add(time.Minute)
	a.PayTime = t0.Add(5 * time.Second)
	createCollection(t, db, a)
	createCollection(t, db, b)
	if got, err := db.Collection(ctx, "co_a"); err != nil || !got.PayTime.Equal(a.PayTime) {
		t.Fatalf("pay time %v %v", got.PayTime, err)
	}

	p := &cashier.Payment{Chain: cashier.ChainTRON, TxHash: "ab01", LogIndex: 2, OrderID: "co_a", MerchantID: "m1",
		Token: "TTok", Symbol: "USDT", Decimals: 6, From: "TFrom", To: a.DepositAddress, Amount: big.NewInt(7),
		BlockNumber: 10, BlockHash: "bh10", BlockTime: t0, Status: cashier.PaymentSeen, SeenAt: t0, UpdatedAt: t0}
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) })
	dup := *p
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, &dup) }), cashier.EDuplicate)
	other := *p
	other.LogIndex = 3
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, &other) })

	seen, err := db.SeenPayments(ctx, cashier.ChainTRON)
	if err != nil || len(seen) != 2 {
		t.Fatalf("seen %v %v", seen, err)
	}
	p.Status, p.Effect, p.ConfirmedAt = cashier.PaymentConfirmed, cashier.EffectCredited, t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdatePayment(ctx, p) })
	got, err := db.Payment(ctx, cashier.ChainTRON, "ab01", 2)
	if err != nil || got.Status != cashier.PaymentConfirmed || got.Effect != cashier.EffectCredited ||
		!got.ConfirmedAt.Equal(p.ConfirmedAt) || got.Amount.Int64() != 7 || got.BlockNumber != 10 {
		t.Fatalf("payment %+v %v", got, err)
	}
	if seen, _ = db.SeenPayments(ctx, cashier.ChainTRON); len(seen) != 1 || seen[0].LogIndex != 3 {
		t.Fatalf("seen after confirm %+v", seen)
	}
	if ps, err := db.PaymentsByOrder(ctx, "co_a"); err != nil || len(ps) != 2 || ps[0].LogIndex != 2 {
		t.Fatalf("by order %+v %v", ps, err)
	}
	_, err = db.Payment(ctx, cashier.ChainETH, "ab01", 2)
	wantCode(t, err, cashier.ENotFound)

	// The dashboard's search: order number by prefix (exact case, % and _
	// as themselves), txId in any case and through any payment of the order.
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, Collection("co_pct", "m1", "A%_1", t0)) })
	for _, tc := range []struct {
		f    cashier.OrderSearch
		want string
	}{
		{cashier.OrderSearch{MerchantID: "m1", OrderNo: "A"}, "co_pct,co_a"},
		{cashier.OrderSearch{MerchantID: "m1", OrderNo: "A%"}, "co_pct"},
		{cashier.OrderSearch{MerchantID: "m1", OrderNo: "a"}, ""},
		{cashier.OrderSearch{MerchantID: "m1", OrderNo: "A%_1x"}, ""},
		{cashier.OrderSearch{MerchantID: "m1", TxID: "AB01"}, "co_a"},
		{cashier.OrderSearch{MerchantID: "m1", TxID: "ab01"}, "co_a"},
		{cashier.OrderSearch{MerchantID: "m2", TxID: "ab01"}, ""},
		{cashier.OrderSearch{MerchantID: "m1", TxID: "ab0"}, ""},
	} {
		list, _, err := db.SearchCollections(ctx, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(list, func(o cashier.CollectionOrder) string { return o.ID }); got != tc.want {
			t.Errorf("search %+v: %q, want %q", tc.f, got, tc.want)
		}
	}

	os, err := db.CollectionsByAddress(ctx, cashier.ChainTRON, []string{b.DepositAddress, "Tnobody"})
	if err != nil || len(os) != 1 || os[0].ID != "co_b" {
		t.Fatalf("by address %v %v", os, err)
	}
	if os, _ = db.CollectionsByAddress(ctx, cashier.ChainETH, []string{b.DepositAddress}); len(os) != 0 {
		t.Fatalf("address matched on another network: %v", os)
	}
	// Addresses an order showed before a switch of network: by network,
	// recorded once however often.
	for i := 0; i < 2; i++ {
		if err := db.Update(ctx, func(tx cashier.Tx) error {
			return tx.AddShownAddress(ctx, cashier.ChainARB, "0xshown", "co_b")
		}); err != nil {
			t.Fatal(err)
		}
	}
	if shown, err := db.ShownAddresses(ctx, cashier.ChainARB, []string{"0xshown", "0xother"}); err != nil || len(shown) != 1 || shown["0xshown"] != "co_b" {
		t.Fatalf("shown addresses %v %v", shown, err)
	}
	if shown, err := db.ShownAddresses(ctx, cashier.ChainETH, []string{"0xshown"}); err != nil || len(shown) != 0 {
		t.Fatalf("a shown address matched on another network: %v %v", shown, err)
	}
	exp, err := db.ExpiringCollections(ctx, cashier.ChainTRON, t0.Add(2*time.Minute), 10)
	if err != nil || len(exp) != 1 || exp[0].ID != "co_b" {
		t.Fatalf("expiring %v %v", exp, err)
	}
	if exp, err = db.ExpiringCollections(ctx, cashier.ChainETH, t0.Add(2*time.Minute), 10); err != nil || len(exp) != 0 {
		t.Fatalf("expiring on another network: %v %v", exp, err)
	}
	if next, err := db.NextCollectionExpiry(ctx); err != nil || !next.Equal(b.ExpireAt) {
		t.Fatalf("next expiry %v %v", next, err)
	}

	cur, err := db.Cursor(ctx, cashier.ChainTRON)
	if err != nil || !cur.UpdatedAt.IsZero() {
		t.Fatalf("no cursor yet: %+v %v", cur, err)
	}
	want := cashier.ChainCursor{Chain: cashier.ChainTRON, Confirmed: 99, ConfirmedHash: "h99", Head: 117, UpdatedAt: t0}
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.SetCursor(ctx, want) })
	if cur, err = db.Cursor(ctx, cashier.ChainTRON); err != nil || cur != want {
		t.Fatalf("cursor %+v %v", cur, err)
	}
	// The confirmed block's time round-trips; unknown stays zero.
	want.Confirmed, want.ConfirmedTime = 100, t0.Add(-time.Second)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.SetCursor(ctx, want) })
	if cur, err = db.Cursor(ctx, cashier.ChainTRON); err != nil || cur != want {
		t.Fatalf("cursor with its block time %+v %v", cur, err)
	}
}

// A deep reorg's marks: a payment's and an order's reorged_at round-trip,
// the confirmed payments list newest block first from a height, the
// missing ones list apart and are counted with the flagged orders, and a
// payment takes a new log index (refused when the index is taken).
func testReorgMarks(t *testing.T) {
	db := openTest(t)
	a := Collection("co_a", "m1", "A", t0)
	a.Chain = cashier.ChainETH
	createCollection(t, db, a)
	pay := func(logIndex uint, block uint64, st cashier.PaymentStatus) *cashier.Payment {
		p := &cashier.Payment{Chain: cashier.ChainETH, TxHash: "0xab", LogIndex: logIndex, OrderID: "co_a", MerchantID: "m1",
			Token: "0xtok", Symbol: "USDT", Decimals: 6, From: "0xf", To: a.DepositAddress, Amount: big.NewInt(7),
			BlockNumber: block, BlockHash: "bh", BlockTime: t0, Status: st, Effect: cashier.EffectCredited, SeenAt: t0, UpdatedAt: t0}
		mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) })
		return p
	}
	pay(1, 10, cashier.PaymentConfirmed)
	p2 := pay(2, 20, cashier.PaymentConfirmed)
	pay(3, 30, cashier.PaymentSeen)
	ps, err := db.ConfirmedPaymentsFrom(ctx, cashier.ChainETH, 10)
	if err != nil || len(ps) != 2 || ps[0].LogIndex != 2 || ps[1].LogIndex != 1 {
		t.Fatalf("confirmed from 10: %+v %v", ps, err)
	}
	if ps, _ = db.ConfirmedPaymentsFrom(ctx, cashier.ChainETH, 11); len(ps) != 1 || ps[0].LogIndex != 2 {
		t.Fatalf("confirmed from 11: %+v", ps)
	}
	if n, m, err := db.ReorgAlerts(ctx, cashier.ChainETH); err != nil || n != 0 || m != 0 {
		t.Fatalf("alerts before: %d %d %v", n, m, err)
	}
	p2.ReorgedAt = t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdatePayment(ctx, p2) })
	got, err := db.Collection(ctx, "co_a")
	if err != nil {
		t.Fatal(err)
	}
	got.ReorgedAt = t0.Add(2 * time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, got) })
	if o, err := db.Collection(ctx, "co_a"); err != nil || !o.ReorgedAt.Equal(t0.Add(2*time.Minute)) || o.Amount.Cmp(a.Amount) != 0 {
		t.Fatalf("order reorged_at %+v %v", o, err)
	}
	missing, err := db.ReorgedPayments(ctx, cashier.ChainETH)
	if err != nil || len(missing) != 1 || missing[0].LogIndex != 2 || !missing[0].ReorgedAt.Equal(p2.ReorgedAt) {
		t.Fatalf("missing %+v %v", missing, err)
	}
	if n, m, err := db.ReorgAlerts(ctx, cashier.ChainETH); err != nil || n != 1 || m != 1 {
		t.Fatalf("alerts: %d %d %v", n, m, err)
	}
	if n, m, _ := db.ReorgAlerts(ctx, cashier.ChainTRON); n != 0 || m != 0 {
		t.Fatalf("alerts on another network: %d %d", n, m)
	}
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.RekeyPayment(ctx, cashier.ChainETH, "0xab", 2, 1) }), cashier.EDuplicate)
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.RekeyPayment(ctx, cashier.ChainETH, "0xab", 9, 8) }), cashier.ENotFound)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.RekeyPayment(ctx, cashier.ChainETH, "0xab", 2, 5) })
	if p, err := db.Payment(ctx, cashier.ChainETH, "0xab", 5); err != nil || p.BlockNumber != 20 || p.ReorgedAt.IsZero() {
		t.Fatalf("rekeyed %+v %v", p, err)
	}
}
