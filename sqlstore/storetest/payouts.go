package storetest

import (
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func testCreatePayoutDuplicateRace(t *testing.T) {
	db := openTest(t)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := payout(fmt.Sprintf("race-%d", i), "m1", "SAME", t0)
			errs[i] = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, o) })
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
}

func testUpdatePayoutOptimistic(t *testing.T) {
	db := openTest(t)
	createPayout(t, db, payout("p1", "m1", "P-1", t0))
	a, _ := db.Payout(ctx, "p1")
	b, _ := db.PayoutByOrderNo(ctx, "m1", "P-1")

	a.Status, a.TxID, a.GasAmount = cashier.PayoutProcessing, "0xdef", "52000"
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, a) })
	b.Status, b.FailReason = cashier.PayoutRefuse, "refused"
	err := db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, b) })
	wantCode(t, err, cashier.EInvalidStatus)

	got, _ := db.Payout(ctx, "p1")
	samePayout(t, got, a)
	if got.Version != 1 || got.Status != cashier.PayoutProcessing || got.FailReason != "" {
		t.Fatalf("stored %+v", *got)
	}
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, payout("ghost", "m1", "G", t0)) })
	wantCode(t, err, cashier.ENotFound)
}

func testPayoutRoundTrip(t *testing.T) {
	db := openTest(t)
	o := payout("p1", "m1", "P-1", t0)
	o.BatchID, o.PayoutType, o.FromAddress = "batch-7", cashier.PayoutAllowance, "0x00000000000000000000000000000000000000c1"
	o.Amount, _ = new(big.Int).SetString("98765432109876543210987654321", 10) // beyond int64
	o.Fee = nil
	createPayout(t, db, o)
	got, err := db.Payout(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	samePayout(t, got, o)
	got, err = db.PayoutByOrderNo(ctx, "m1", "P-1")
	if err != nil {
		t.Fatal(err)
	}
	samePayout(t, got, o)

	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, payout("p2", "m1", "P-1", t0)) })
	wantCode(t, err, cashier.EDuplicate)
	_, err = db.Payout(ctx, "p2")
	wantCode(t, err, cashier.ENotFound)
	_, err = db.PayoutByOrderNo(ctx, "m2", "P-1")
	wantCode(t, err, cashier.ENotFound)
	bad := payout("p3", "m1", "P-3", t0)
	bad.ContractID = "ghost"
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, bad) })
	wantCode(t, err, cashier.EInvalid)
	bad = payout("", "m1", "P-3", t0)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, bad) })
	wantCode(t, err, cashier.EInvalid)
}

func testPayoutsFilter(t *testing.T) {
	db := openTest(t)
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{ID: "k1b", MerchantID: "m1", Chain: cashier.ChainTRON, CreatedAt: t0})
	})
	for i := range 5 {
		o := payout(fmt.Sprintf("p%d", i), "m1", fmt.Sprintf("P%d", i), t0.Add(time.Duration(i)*time.Second))
		if i%2 == 1 {
			o.ContractID = "k1b"
		}
		if i >= 3 {
			o.Status = cashier.PayoutProcessing
		}
		createPayout(t, db, o)
	}
	createPayout(t, db, payout("q0", "m2", "P0", t0))

	id := func(o cashier.PayoutOrder) string { return o.ID }
	for _, tc := range []struct {
		name  string
		f     cashier.PayoutFilter
		want  string
		total int
	}{
		{"merchant", cashier.PayoutFilter{MerchantID: "m1"}, "p4,p3,p2,p1,p0", 5},
		{"contract", cashier.PayoutFilter{ContractID: "k1b"}, "p3,p1", 2},
		{"status", cashier.PayoutFilter{Status: cashier.PayoutPending}, "p2,p1,q0,p0", 4},
		{"contract+status", cashier.PayoutFilter{MerchantID: "m1", ContractID: "k1", Status: cashier.PayoutProcessing}, "p4", 1},
		{"page 2", cashier.PayoutFilter{MerchantID: "m1", Page: 2, PageSize: 2}, "p2,p1", 5},
	} {
		list, total, err := db.Payouts(ctx, tc.f)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if got := ids(list, id); got != tc.want || total != tc.total {
			t.Errorf("%s: got %q total %d, want %q total %d", tc.name, got, total, tc.want, tc.total)
		}
	}
}
