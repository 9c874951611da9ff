package sqlite

import (
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// TestNumericIDs: every cashier, contract and order gets a numeric identity
// on insert, 1, 2, 3, … per table, set on the struct by Create and read
// back unchanged by every read path; an update does not change it.
func TestNumericIDs(t *testing.T) {
	db := openTest(t)
	k, err := db.Contract(ctx, "k2")
	if err != nil || k.Num != 2 {
		t.Fatalf("contract k2 num %d, %v", k.Num, err)
	}
	c, err := db.Cashier(ctx, "c2")
	if err != nil || c.Num != 2 {
		t.Fatalf("cashier c2 num %d, %v", c.Num, err)
	}
	var created []*cashier.CollectionOrder
	for i, id := range []string{"co_a", "co_b", "co_c"} {
		o := collection(id, "m1", "N"+id, t0.Add(time.Duration(i)*time.Second))
		createCollection(t, db, o)
		if o.Num != int64(i+1) {
			t.Fatalf("%s: Num %d after create, want %d", id, o.Num, i+1)
		}
		created = append(created, o)
	}
	p := payout("po_a", "m2", "P1", t0)
	createPayout(t, db, p)
	if p.Num != 1 {
		t.Fatalf("first payout Num %d", p.Num)
	}
	got, err := db.CollectionByOrderNo(ctx, "m1", "Nco_b")
	if err != nil || got.Num != 2 {
		t.Fatalf("read back %+v, %v", got, err)
	}
	got.Status = cashier.CollectionExpired
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, got) })
	list, _, err := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"})
	if err != nil || len(list) != 3 {
		t.Fatalf("list %v %v", list, err)
	}
	for _, o := range list {
		for _, c := range created {
			if c.ID == o.ID && c.Num != o.Num {
				t.Fatalf("%s: listed num %d, created %d", o.ID, o.Num, c.Num)
			}
		}
	}
	po, err := db.PayoutByOrderNo(ctx, "m2", "P1")
	if err != nil || po.Num != 1 {
		t.Fatalf("payout read back %+v %v", po, err)
	}
}
