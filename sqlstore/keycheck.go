package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrWrongKey: the master key does not open the secrets already stored.
var ErrWrongKey = errors.New("the master key does not open the merchant secrets stored in this database; " +
	"every instance and command on one database needs the same key (CASHIER_MASTER_KEY, or a copy of master.key)")

// VerifyKey checks that the store's sealer opens the secrets of the oldest
// merchant, if there is one. Several instances on one PostgreSQL database
// each have a data directory; one created with a fresh key would otherwise
// start and fail on every request, or seal new secrets no other instance
// can open.
func (db *DB) VerifyKey(ctx context.Context) error {
	var id string
	err := db.read.QueryRowContext(ctx, `SELECT id FROM merchants ORDER BY created_at, id LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: read merchants: %w", db.dialect.Name, err)
	}
	if _, err := db.reader.Merchant(ctx, id); err != nil {
		return fmt.Errorf("%w (merchant %s: %v)", ErrWrongKey, id, err)
	}
	return nil
}
