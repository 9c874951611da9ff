package sqlstore

import (
	"context"
	"fmt"
)

// Numeric identities of cashiers, contracts and orders. Typed webhook
// bodies carry them where the provider documents a number (Long id, Integer
// cashierId and contractId); the string ids stay the identity of the API.
// Triggers of migration 0004 assign them on insert, so every writer gets
// one without knowing about it; the order inserts, on the hot path, take
// the number themselves (Dialect.NextNum) and return it, so that SQLite's
// trigger does not write the row twice. Create* sets the struct's Num; the
// row readers leave the column alone (every query of a table keeps its
// column list), and NumericID reads it where it is needed.

// numTables are the tables with a numeric identity.
var numTables = map[string]bool{"cashiers": true, "contracts": true, "collection_orders": true, "payout_orders": true}

// NumericID returns the number of row id in table (cashiers, contracts,
// collection_orders or payout_orders).
func (r reader) NumericID(ctx context.Context, table, id string) (int64, error) {
	if !numTables[table] {
		return 0, fmt.Errorf("store: %s has no numeric identity", table)
	}
	var n int64
	if err := r.q.QueryRowContext(ctx, `SELECT num FROM `+table+` WHERE id = ?`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: numeric id of %s %s: %w", table, id, err)
	}
	return n, nil
}

// readNum reads back the number the insert trigger gave row id of table.
func (t *tx) readNum(ctx context.Context, table, id string, num *int64) error {
	n, err := t.NumericID(ctx, table, id)
	*num = n
	return err
}
