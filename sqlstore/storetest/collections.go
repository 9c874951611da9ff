package storetest

import (
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func testCollectionRoundTrip(t *testing.T) {
	db := openTest(t)
	huge, _ := new(big.Int).SetString("115792089237316195423570985008687907853269984665640564039457584007913129639935", 10) // 2^256-1
	o := Collection("o1", "m1", "A-1", t0)
	o.Amount = huge
	o.PaidAmount = nil
	createCollection(t, db, o)

	got, err := db.Collection(ctx, "o1")
	if err != nil {
		t.Fatal(err)
	}
	sameCollection(t, got, o)
	if got.Amount.String() != huge.String() || got.PaidAmount != nil {
		t.Fatalf("amounts %v %v", got.Amount, got.PaidAmount)
	}
	got, err = db.CollectionByOrderNo(ctx, "m1", "A-1")
	if err != nil {
		t.Fatal(err)
	}
	sameCollection(t, got, o)

	_, err = db.Collection(ctx, "nope")
	wantCode(t, err, cashier.ENotFound)
	_, err = db.CollectionByOrderNo(ctx, "m2", "A-1") // order numbers are per merchant
	wantCode(t, err, cashier.ENotFound)

	// The same order number is fine for another merchant, and for a payout.
	createCollection(t, db, Collection("o2", "m2", "A-1", t0))
	createPayout(t, db, payout("p1", "m1", "A-1", t0))

	for _, bad := range []func(*cashier.CollectionOrder){
		func(o *cashier.CollectionOrder) { o.ID = "" },
		func(o *cashier.CollectionOrder) { o.CreatedAt = time.Time{} },
		func(o *cashier.CollectionOrder) { o.CashierID = "ghost" },
	} {
		o := Collection("o3", "m1", "A-3", t0)
		bad(o)
		err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
		wantCode(t, err, cashier.EInvalid)
	}
	o3 := Collection("o3", "m1", "A-3", t0)
	o3.Amount = big.NewInt(-1)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o3) })
	wantCode(t, err, cashier.EInvalidAmount)
	o3.Amount = nil
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o3) })
	wantCode(t, err, cashier.EInvalidAmount)
}

// Many goroutines create the same order number at once: exactly one wins.
func testCreateCollectionDuplicateRace(t *testing.T) {
	path, key := newLocation(t), newKey(t)
	db := openAt(t, path, key)
	Seed(t, db)
	// A second handle on the same file stands for a second process: its
	// writes meet the first handle's in SQLite's file lock, not in the pool.
	other := openAt(t, path, key)

	const n = 24
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := db
			if i%2 == 1 {
				h = other
			}
			o := Collection(fmt.Sprintf("race-%d", i), "m1", "SAME", t0)
			errs[i] = h.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
		}()
	}
	wg.Wait()
	wins := 0
	for i, err := range errs {
		switch cashier.ErrorCode(err) {
		case "":
			wins++
		case cashier.EDuplicate:
		default:
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d creations succeeded, want exactly 1", wins)
	}
	if _, total, err := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); err != nil || total != 1 {
		t.Fatalf("stored %d orders (%v), want 1", total, err)
	}
}

func testUpdateCollectionOptimistic(t *testing.T) {
	db := openTest(t)
	createCollection(t, db, Collection("o1", "m1", "A-1", t0))

	a, _ := db.Collection(ctx, "o1")
	b, _ := db.Collection(ctx, "o1")

	a.Status = cashier.CollectionSuccess
	a.PaidAmount = big.NewInt(100_500_000)
	a.TxID, a.FromAddress = "0xabc", "TFROM"
	a.UpdatedAt = t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, a) })
	if a.Version != 1 {
		t.Fatalf("Version after update = %d, want 1", a.Version)
	}
	got, _ := db.Collection(ctx, "o1")
	sameCollection(t, got, a)

	// b was read before a's update: its write is refused and changes nothing.
	b.Status = cashier.CollectionExpired
	err := db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, b) })
	wantCode(t, err, cashier.EInvalidStatus)
	if b.Version != 0 {
		t.Fatalf("stale write bumped the caller's Version to %d", b.Version)
	}
	got, _ = db.Collection(ctx, "o1")
	sameCollection(t, got, a)

	// Two updates in one transaction chain through the bumped Version.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, "o1")
		if err != nil {
			return err
		}
		o.CustNo = "x"
		if err := tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
		o.CustNo = "y"
		return tx.UpdateCollection(ctx, o)
	})
	got, _ = db.Collection(ctx, "o1")
	if got.Version != 3 || got.CustNo != "y" {
		t.Fatalf("after two updates: version %d custNo %q", got.Version, got.CustNo)
	}

	ghost := Collection("ghost", "m1", "G", t0)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, ghost) })
	wantCode(t, err, cashier.ENotFound)
	ghost.ID = ""
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, ghost) })
	wantCode(t, err, cashier.EInvalid)
}

func testCollectionsFilter(t *testing.T) {
	db := openTest(t)
	// o0..o5 for m1, a minute apart; o2 and o4 succeeded; x1 belongs to m2.
	for i := range 6 {
		o := Collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0.Add(time.Duration(i)*time.Minute))
		if i == 2 || i == 4 {
			o.Status = cashier.CollectionSuccess
		}
		createCollection(t, db, o)
	}
	createCollection(t, db, Collection("x1", "m2", "N1", t0.Add(3*time.Minute)))
	// Same millisecond as o5: insertion order breaks the tie.
	createCollection(t, db, Collection("o6", "m1", "N6", t0.Add(5*time.Minute)))

	id := func(o cashier.CollectionOrder) string { return o.ID }
	for _, tc := range []struct {
		name  string
		f     cashier.CollectionFilter
		want  string
		total int
	}{
		{"merchant", cashier.CollectionFilter{MerchantID: "m1"}, "o6,o5,o4,o3,o2,o1,o0", 7},
		{"status", cashier.CollectionFilter{MerchantID: "m1", Status: cashier.CollectionSuccess}, "o4,o2", 2},
		{"range inclusive", cashier.CollectionFilter{MerchantID: "m1", Start: t0.Add(time.Minute), End: t0.Add(3 * time.Minute)}, "o3,o2,o1", 3},
		{"open end", cashier.CollectionFilter{MerchantID: "m1", Start: t0.Add(4 * time.Minute)}, "o6,o5,o4", 3},
		{"open start", cashier.CollectionFilter{MerchantID: "m1", End: t0.Add(time.Minute)}, "o1,o0", 2},
		{"page 1", cashier.CollectionFilter{MerchantID: "m1", Page: 1, PageSize: 3}, "o6,o5,o4", 7},
		{"page 3", cashier.CollectionFilter{MerchantID: "m1", Page: 3, PageSize: 3}, "o0", 7},
		{"page 0 is page 1", cashier.CollectionFilter{MerchantID: "m1", PageSize: 2}, "o6,o5", 7},
		{"past the end", cashier.CollectionFilter{MerchantID: "m1", Page: 9, PageSize: 3}, "", 7},
		{"all merchants", cashier.CollectionFilter{Start: t0.Add(3 * time.Minute), End: t0.Add(3 * time.Minute)}, "x1,o3", 2},
		{"other merchant", cashier.CollectionFilter{MerchantID: "m2"}, "x1", 1},
		{"no match", cashier.CollectionFilter{MerchantID: "m1", Status: cashier.CollectionCancelled}, "", 0},
	} {
		list, total, err := db.Collections(ctx, tc.f)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if got := ids(list, id); got != tc.want || total != tc.total {
			t.Errorf("%s: got %q total %d, want %q total %d", tc.name, got, total, tc.want, tc.total)
		}
	}

	// Inside a transaction the list sees the transaction's own writes.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o7", "m1", "N7", t0.Add(time.Hour))); err != nil {
			return err
		}
		list, total, err := tx.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1", Page: 1, PageSize: 1})
		if err != nil {
			return err
		}
		if total != 8 || len(list) != 1 || list[0].ID != "o7" {
			t.Errorf("in tx: %q total %d", ids(list, id), total)
		}
		return nil
	})
}
