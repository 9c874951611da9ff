package storetest

import (
	"testing"

	"github.com/stablecashier/cashier"
)

// Audit entries get increasing IDs from the store and list newest first,
// per merchant or all of them.
func testAuditLog(t *testing.T) {
	db := openTest(t)
	var ids []int64
	for i, m := range []string{"m1", "m2", "m1"} {
		e := &cashier.AuditEntry{At: t0, UserID: "u", Email: "a@example.com", MerchantID: m,
			Action: "cashier.update", Target: "c" + m[1:], Detail: "#" + string(rune('0'+i)), IP: "127.0.0.1"}
		if err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.AddAudit(ctx, e) }); err != nil {
			t.Fatal(err)
		}
		if e.ID <= 0 || (len(ids) > 0 && e.ID <= ids[len(ids)-1]) {
			t.Fatalf("entry %d got ID %d after %v", i, e.ID, ids)
		}
		ids = append(ids, e.ID)
	}
	got, err := db.Audit(ctx, cashier.AuditFilter{MerchantID: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != ids[2] || got[1].ID != ids[0] || got[0].Detail != "#2" {
		t.Fatalf("m1's audit: %+v", got)
	}
	if all, err := db.Audit(ctx, cashier.AuditFilter{}); err != nil || len(all) != 3 {
		t.Fatalf("every merchant's audit: %d entries, %v", len(all), err)
	}
}
