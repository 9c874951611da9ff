package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The statements every order creation runs, prepared once. They are
// prepared on the write pool at Open, before the writer takes its one
// connection; a transaction then uses them through Tx.StmtContext, which
// finds the statement already prepared on that connection (and prepares
// it again only if the pool ever replaces the connection). Compiling SQL
// on every call was about 5 % of server CPU.
const (
	savepoint  = `SAVEPOINT w`
	release    = `RELEASE w`
	rollbackTo = `ROLLBACK TO w`

	insertEvent = `INSERT INTO events
		(id, merchant_id, type, order_id, order_no, status, url, body, created_at, state, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING RETURNING seq`
)

// insertCollection has one placeholder per column of collectionCols, so
// a column added there cannot leave the statement short.
var insertCollection = `INSERT INTO collection_orders (` + collectionCols + `) VALUES (` + placeholders(collectionCols) + `) ON CONFLICT DO NOTHING`

// placeholders returns "?, ?, …", one per comma-separated column of cols.
func placeholders(cols string) string {
	return strings.Repeat("?, ", strings.Count(cols, ",")) + "?"
}

// prepared maps a query to its statement on the write pool.
type prepared map[string]*sql.Stmt

func prepare(ctx context.Context, write *sql.DB) (prepared, error) {
	p := prepared{}
	for _, q := range []string{savepoint, release, rollbackTo, insertCollection, insertEvent} {
		s, err := write.PrepareContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("store: prepare %.40q: %w", q, err)
		}
		p[q] = s
	}
	return p, nil
}

// exec runs query in tx, through its prepared statement when there is one.
func (p prepared) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if s := p[query]; s != nil {
		return tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// queryRow is exec for a statement that returns one row.
func (p prepared) queryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if s := p[query]; s != nil {
		return tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}
