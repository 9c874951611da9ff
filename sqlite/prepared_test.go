package sqlite

import (
	"database/sql"
	"testing"

	"github.com/stablecashier/cashier"
)

// The hot statements are prepared once at Open, and a Tx built without
// them (as code elsewhere in the package may do) runs the same SQL
// unprepared.
func TestPreparedStatements(t *testing.T) {
	db := openTest(t)
	for _, q := range []string{savepoint, release, rollbackTo, insertCollection, insertEvent} {
		if db.prep[q] == nil {
			t.Fatalf("not prepared: %.30q", q)
		}
	}
	createCollection(t, db, collection("co_prep", "m1", "P-1", t0))
	err := db.writeTx(ctx, func(sqlTx *sql.Tx) error {
		plain := &tx{reader: reader{q: sqlTx, sealer: db.sealer}, tx: sqlTx}
		return plain.CreateCollection(ctx, collection("co_plain", "m1", "P-2", t0))
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"co_prep", "co_plain"} {
		if _, err := db.Collection(ctx, id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateCollection(ctx, collection("co_dup", "m1", "P-1", t0))
	}), cashier.EDuplicate)
}
