package sqlite

import (
	"strings"
	"testing"
)

// The watcher's and the expiry worker's lookups read through their
// indexes, not a scan of every order.
func TestWatcherLookupsUseIndexes(t *testing.T) {
	db := openTest(t)
	// The lookups read through their indexes, not a scan of every order.
	for q, index := range map[string]string{
		`SELECT id FROM collection_orders WHERE chain = 'TRON' AND deposit_address IN ('a', 'b')`:                                    "collection_orders_address",
		`SELECT id FROM collection_orders WHERE status = 'PENDING' AND expire_at <= 5 AND chain = 'ETH' ORDER BY expire_at LIMIT 10`: "collection_orders_status_expiry",
	} {
		rows, err := readPool(db).QueryContext(ctx, "EXPLAIN QUERY PLAN "+q)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if !strings.Contains(strings.Join(plan, "; "), index) {
			t.Errorf("%s: plan %q does not use %s", q, plan, index)
		}
	}
}

// An order's insert and its event's run no trigger, neither a table's nor
// the one SQLite makes of RETURNING: a statement with a trigger copies
// every page it changes to a statement journal first (migration 0028,
// Dialect.NoReturning).
func TestHotInsertsRunNoTrigger(t *testing.T) {
	db := openTest(t)
	rows, err := readPool(db).QueryContext(ctx, `SELECT name FROM sqlite_master
		WHERE type = 'trigger' AND tbl_name IN ('collection_orders', 'payout_orders', 'events')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		t.Errorf("trigger %s on a table every order writes", name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !Dialect.NoReturning {
		t.Error("the SQLite dialect inserts with RETURNING")
	}
}
