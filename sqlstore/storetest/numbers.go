package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// TestNumericIDs: every cashier, contract and order gets a numeric identity
// on insert, 1, 2, 3, … per table, set on the struct by Create and read
// by NumericID (inside a transaction too); an update does not change it.
func testNumericIDs(t *testing.T) {
	db := openTest(t)
	if n, err := db.NumericID(ctx, "contracts", "k2"); err != nil || n != 2 {
		t.Fatalf("contract k2: %d, %v", n, err)
	}
	if n, err := db.NumericID(ctx, "cashiers", "c1"); err != nil || n != 1 {
		t.Fatalf("cashier c1: %d, %v", n, err)
	}
	for i, id := range []string{"co_a", "co_b", "co_c"} {
		o := Collection(id, "m1", "N"+id, t0.Add(time.Duration(i)*time.Second))
		mustUpdate(t, db, func(x cashier.Tx) error {
			if err := x.CreateCollection(ctx, o); err != nil {
				return err
			}
			// The uncommitted row's number is visible inside the transaction.
			if n, err := x.(interface {
				NumericID(context.Context, string, string) (int64, error)
			}).NumericID(ctx, "collection_orders", id); err != nil || n != int64(i+1) {
				t.Errorf("inside the transaction: %d, %v", n, err)
			}
			return nil
		})
		if o.Num != int64(i+1) {
			t.Fatalf("%s: Num %d after create, want %d", id, o.Num, i+1)
		}
	}
	got, err := db.CollectionByOrderNo(ctx, "m1", "Nco_b")
	if err != nil {
		t.Fatal(err)
	}
	got.Status = cashier.CollectionExpired
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, got) })
	if n, err := db.NumericID(ctx, "collection_orders", "co_b"); err != nil || n != 2 {
		t.Fatalf("after update: %d, %v", n, err)
	}
	p := payout("po_a", "m2", "P1", t0)
	createPayout(t, db, p)
	if p.Num != 1 {
		t.Fatalf("first payout Num %d", p.Num)
	}
	if _, err := db.NumericID(ctx, "merchants", "m1"); err == nil {
		t.Fatal("merchants have no numeric id")
	}
	if _, err := db.NumericID(ctx, "cashiers", "nope"); err == nil {
		t.Fatal("missing row gave a number")
	}
}
