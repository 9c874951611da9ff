package sqlstore

import (
	"context"
	"database/sql"

	"github.com/stablecashier/cashier"
)

// Prepared reports whether q has a prepared statement.
func Prepared(db *DB, q string) bool { return db.prep[q] != nil }

// HotStatements are the statements prepared at New.
func HotStatements(db *DB) []string { return hotStatements(db.dialect) }

// CreateCollectionUnprepared creates o through a Tx built without the
// prepared statements, as code elsewhere in the package may build one.
func CreateCollectionUnprepared(ctx context.Context, db *DB, o *cashier.CollectionOrder) error {
	return db.writeTx(ctx, func(sqlTx *sql.Tx) error {
		plain := newTx(sqlTx, db.sealer, nil, db.dialect)
		return plain.CreateCollection(ctx, o)
	})
}
