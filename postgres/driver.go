package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stablecashier/cashier"
)

// The store's SQL uses ? placeholders; PostgreSQL numbers them ($1, $2, …).
// The connector below wraps pgx's database/sql driver and rewrites each
// query string once (cached), so the shared code in sqlstore runs here
// unchanged, including code that uses *sql.Tx directly. The same pass
// notes which table a statement writes, for the lookup cache
// (Dialect.WatchWrites).

type rewritten struct {
	query  string
	table  string // written table, "" for reads
	insert bool   // an INSERT: runs under a statement savepoint in a transaction
}

var rewrites sync.Map // string → rewritten

// writeTarget finds the table of INSERT INTO t, UPDATE t and DELETE FROM t.
var writeTarget = regexp.MustCompile(`(?is)^\s*(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)`)

func rewrite(q string) rewritten {
	if r, ok := rewrites.Load(q); ok {
		return r.(rewritten)
	}
	r := rewritten{query: rebind(q)}
	if m := writeTarget.FindStringSubmatch(q); m != nil {
		r.table = strings.ToLower(m[1])
		lq := strings.ToLower(q)
		// An insert with ON CONFLICT does not fail on a duplicate, the
		// failure callers go on after; it needs no savepoint.
		r.insert = strings.HasPrefix(strings.TrimSpace(lq), "insert") && !strings.Contains(lq, "on conflict")
	}
	rewrites.Store(q, r)
	return r
}

// rebind turns each ? outside quotes and comments into $n.
func rebind(q string) string {
	if !strings.ContainsRune(q, '?') {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			end := min(j+1, len(q))
			b.WriteString(q[i:end])
			i = end - 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// connector opens pgx connections wrapped in conn.
type connector struct{ driver.Connector }

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	return &conn{inner: dc}, nil
}

// pgxConn is what pgx's stdlib connection implements.
type pgxConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.NamedValueChecker
	driver.SessionResetter
}

type conn struct {
	inner   driver.Conn
	onWrite func(table string) // set by the write pool's watcher
	inTx    bool
}

// Statement savepoints. In SQLite a failed statement undoes itself and the
// transaction goes on; in PostgreSQL it aborts the whole transaction. The
// store's callers rely on the former (a duplicate order number in a batch
// fails that order, the others commit), so inside a transaction every
// INSERT, the statements whose failure callers expect, runs under its own
// savepoint, rolled back alone when it fails.

const (
	stmtSavepoint = `SAVEPOINT stmt`
	stmtRelease   = `RELEASE SAVEPOINT stmt`
	stmtUndo      = `ROLLBACK TO SAVEPOINT stmt; RELEASE SAVEPOINT stmt`
)

func (c *conn) guard(ctx context.Context, r rewritten) (bool, error) {
	if !c.inTx || !r.insert {
		return false, nil
	}
	_, err := c.pgx().ExecContext(ctx, stmtSavepoint, nil)
	return true, err
}

// settle ends the statement savepoint: released when the statement
// succeeded, rolled back when it failed.
func (c *conn) settle(failed bool) error {
	q := stmtRelease
	if failed {
		q = stmtUndo
	}
	_, err := c.pgx().ExecContext(context.Background(), q, nil)
	return err
}

// guardedRows settles the savepoint of an INSERT … RETURNING when its rows
// are closed: an error shows only while reading them.
type guardedRows struct {
	driver.Rows
	c      *conn
	failed bool
}

func (g *guardedRows) Next(dest []driver.Value) error {
	err := g.Rows.Next(dest)
	if err != nil && err != io.EOF {
		g.failed = true
		err = unavailable(err)
	}
	return err
}

// classifiedRows marks a connection lost while reading rows as the
// database being unavailable, like every other statement's error.
type classifiedRows struct{ driver.Rows }

func (r classifiedRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err != nil && err != io.EOF {
		err = unavailable(err)
	}
	return err
}

func (g *guardedRows) Close() error {
	err := g.Rows.Close()
	if err != nil {
		g.failed = true
	}
	return errors.Join(err, g.c.settle(g.failed))
}

// tx clears inTx at the transaction's end.
type tx struct {
	driver.Tx
	c *conn
}

func (t tx) Commit() error {
	t.c.inTx = false
	err := unavailable(t.Tx.Commit())
	if e, ok := err.(*cashier.Error); ok && e.Code == cashier.EUnavailable {
		// The answer to COMMIT was lost: the server may have committed.
		e.Message = "the database connection was lost at commit: the write may or may not be stored; retry the same request"
	}
	return err
}
func (t tx) Rollback() error { t.c.inTx = false; return unavailable(t.Tx.Rollback()) }

func (c *conn) pgx() pgxConn { return c.inner.(pgxConn) }

func (c *conn) note(r rewritten) {
	if r.table != "" && c.onWrite != nil {
		c.onWrite(r.table)
	}
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// unavailable marks err as cashier.EUnavailable when it says the database
// cannot be reached: a refused or lost connection, a server shutting down,
// starting up or in recovery. The HTTP layer answers 503 with Retry-After
// (never 500); the cause stays inside for errors.Is, so database/sql still
// sees driver.ErrBadConn and retries on a fresh connection.
func unavailable(err error) error {
	if err == nil || !isUnavailable(err) {
		return err
	}
	return &cashier.Error{Code: cashier.EUnavailable, Message: "the database is unavailable; nothing was changed, retry shortly", Err: err}
}

func isUnavailable(err error) bool {
	var ce *cashier.Error
	if errors.As(err, &ce) {
		return false // classified already (or the store's own)
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// Class 08: connection exceptions; 57P01–57P03: shutting down,
		// crash shutdown, cannot connect now (starting up, recovering).
		return strings.HasPrefix(pg.Code, "08") || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller gave up; its own error says so
	}
	var connect *pgconn.ConnectError
	var netErr net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.As(err, &connect) || errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || pgconn.SafeToRetry(err) || strings.Contains(err.Error(), "conn closed")
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	r := rewrite(query)
	s, err := c.pgx().PrepareContext(ctx, r.query)
	if err != nil {
		return nil, unavailable(err)
	}
	return &stmt{Stmt: s, c: c, r: r}, nil
}

func (c *conn) Close() error              { return c.inner.Close() }
func (c *conn) Begin() (driver.Tx, error) { return c.BeginTx(context.Background(), driver.TxOptions{}) }
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	t, err := c.pgx().BeginTx(ctx, opts)
	if err != nil {
		return nil, unavailable(err)
	}
	c.inTx = true
	return tx{t, c}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	r := rewrite(query)
	return c.exec(ctx, r, func() (driver.Result, error) { return c.pgx().ExecContext(ctx, r.query, args) })
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r := rewrite(query)
	return c.query(ctx, r, func() (driver.Rows, error) { return c.pgx().QueryContext(ctx, r.query, args) })
}

func (c *conn) exec(ctx context.Context, r rewritten, run func() (driver.Result, error)) (driver.Result, error) {
	guarded, err := c.guard(ctx, r)
	if err != nil {
		return nil, err
	}
	res, err := run()
	if guarded {
		if serr := c.settle(err != nil); serr != nil {
			return nil, unavailable(errors.Join(err, serr))
		}
	}
	if err == nil {
		c.note(r)
	}
	return res, unavailable(err)
}

func (c *conn) query(ctx context.Context, r rewritten, run func() (driver.Rows, error)) (driver.Rows, error) {
	guarded, err := c.guard(ctx, r)
	if err != nil {
		return nil, err
	}
	rows, err := run()
	if err != nil {
		if guarded {
			err = errors.Join(err, c.settle(true))
		}
		return nil, unavailable(err)
	}
	c.note(r) // UPDATE … RETURNING
	if guarded {
		return &guardedRows{Rows: rows, c: c}, nil
	}
	return classifiedRows{rows}, nil
}

func (c *conn) Ping(ctx context.Context) error { return unavailable(c.pgx().Ping(ctx)) }

// CheckNamedValue stores Go bools as 0 and 1: the schema keeps flags in
// BIGINT columns, as SQLite's does in INTEGER ones.
func (c *conn) CheckNamedValue(v *driver.NamedValue) error {
	if b, ok := v.Value.(bool); ok {
		v.Value = int64(0)
		if b {
			v.Value = int64(1)
		}
		return nil
	}
	return c.pgx().CheckNamedValue(v)
}
func (c *conn) ResetSession(ctx context.Context) error { return c.pgx().ResetSession(ctx) }

func (c *conn) IsValid() bool {
	v, ok := c.inner.(driver.Validator)
	return !ok || v.IsValid()
}

// stmt is a prepared statement; it notes its writes like conn.
type stmt struct {
	driver.Stmt
	c *conn
	r rewritten
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.exec(ctx, s.r, func() (driver.Result, error) { return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args) })
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.query(ctx, s.r, func() (driver.Rows, error) { return s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args) })
}

func (s *stmt) CheckNamedValue(v *driver.NamedValue) error { return s.c.CheckNamedValue(v) }
