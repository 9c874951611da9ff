package sqlite

import (
	"context"
	"fmt"
)

// numCol is the numeric identity of cashiers, contracts and orders. Typed
// webhook bodies carry it where the provider documents a number (Long id,
// Integer cashierId and contractId); the string ids stay the identity of
// the API. Triggers of migration 0004 assign it on insert, so every writer
// gets one without knowing about it.
const numCol = `, num`

// readNum reads back the number the insert trigger gave row id of table.
func (t *tx) readNum(ctx context.Context, table, id string, num *int64) error {
	if err := t.tx.QueryRowContext(ctx, `SELECT num FROM `+table+` WHERE id = ?`, id).Scan(num); err != nil {
		return fmt.Errorf("sqlite: numeric id of %s %s: %w", table, id, err)
	}
	return nil
}
