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

// placeholders returns "?, ?, …", one per comma-separated column of cols.
func placeholders(cols string) string {
	return strings.Repeat("?, ", strings.Count(cols, ",")) + "?"
}

// hotStatements are the statements prepared at New. The order inserts
// have one placeholder per column of collectionCols and payoutCols, so a
// column added there cannot leave a statement short.
func hotStatements(d *Dialect) []string {
	return []string{savepoint, release, rollbackTo, d.inserts().collection, d.inserts().payout, insertEvent}
}

// prepared maps a query to its statement on the write pool.
type prepared map[string]*sql.Stmt

func prepare(ctx context.Context, write *sql.DB, d *Dialect) (prepared, error) {
	p := prepared{}
	for _, q := range hotStatements(d) {
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
