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

	// insertEvent ends with RETURNING seq, unless the dialect has
	// NoReturning (Dialect.inserts).
	insertEvent = `INSERT INTO events
		(id, merchant_id, type, order_id, order_no, status, url, body, created_at, state, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING`
)

// placeholders returns "?, ?, …", one per comma-separated column of cols.
func placeholders(cols string) string {
	return strings.Repeat("?, ", strings.Count(cols, ",")) + "?"
}

// hotStatements are the statements prepared at New. The order inserts
// have one placeholder per column of collectionCols and payoutCols, so a
// column added there cannot leave a statement short.
func hotStatements(d *Dialect) []string {
	ins := d.inserts()
	hot := []string{savepoint, release, rollbackTo, ins.collection.insert, ins.payout.insert, ins.event}
	for _, q := range []string{ins.collection.readBack, ins.payout.readBack} {
		if q != "" {
			hot = append(hot, q)
		}
	}
	return hot
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

// exec runs query in tx, through its prepared statement when there is one,
// without ctx's cancellation (writeStmts).
func (p prepared) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if s := p[query]; s != nil {
		return tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// queryRow is exec for a statement that returns one row.
func (p prepared) queryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	if s := p[query]; s != nil {
		return tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}
