package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	sqlitedrv "modernc.org/sqlite"
)

// Every statement the store runs is compiled once per connection and kept:
// the connections of the writer and the readers remember a prepared
// statement per query text, so a query's next run only binds and steps.
// database/sql hands a query straight to the driver (ExecContext,
// QueryContext), and the driver compiles it and throws it away each time:
// compiling was about 15 % of the service's CPU while creating orders with
// their webhooks. Keeping statements at the driver covers every query of
// the store and of the packages above it at once, without preparing them
// on a pool (the writer's one connection is held by its transaction, so a
// statement prepared on the pool during a write would wait for it).

// maxCachedStmts bounds the statements one connection keeps. The store has
// far fewer query texts; a text built with a varying number of
// placeholders past the bound runs as before, compiled for the one run.
const maxCachedStmts = 512

// openDB opens the database at dsn with its statements cached.
func openDB(dsn string) *sql.DB {
	return sql.OpenDB(cachingConnector{dsn: dsn, drv: &sqlitedrv.Driver{}})
}

type cachingConnector struct {
	dsn string
	drv driver.Driver
}

func (c cachingConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return newCachingConn(conn)
}

func (c cachingConnector) Driver() driver.Driver { return c.drv }

// innerConn is what the store uses of the driver's connection.
type innerConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachingConn keeps a statement per query text. database/sql uses a
// connection from one goroutine at a time, so it needs no lock.
type cachingConn struct {
	innerConn
	stmts map[string]*cachedStmt
}

type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}
	busy bool // its rows are open: a second use of the text compiles anew
}

func newCachingConn(c driver.Conn) (*cachingConn, error) {
	in, ok := c.(innerConn)
	if !ok {
		c.Close()
		return nil, errors.New("sqlite: the driver's connection lacks the methods the statement cache needs")
	}
	return &cachingConn{innerConn: in, stmts: map[string]*cachedStmt{}}, nil
}

// cached returns the kept statement of query, preparing it on first use,
// or nil when it cannot be kept (busy, or the cache is full).
func (c *cachingConn) cached(ctx context.Context, query string) (*cachedStmt, error) {
	if s := c.stmts[query]; s != nil {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	if len(c.stmts) >= maxCachedStmts {
		return nil, nil
	}
	ds, err := c.innerConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	})
	if !ok {
		ds.Close()
		return nil, nil
	}
	s := &cachedStmt{stmt: st}
	c.stmts[query] = s
	return s, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.innerConn.ExecContext(ctx, query, args)
	}
	return s.stmt.ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.innerConn.QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, s: s}, nil
}

// Close finalizes the kept statements, then closes the connection.
func (c *cachingConn) Close() error {
	var errs []error
	for q, s := range c.stmts {
		errs = append(errs, s.stmt.Close())
		delete(c.stmts, q)
	}
	return errors.Join(append(errs, c.innerConn.Close())...)
}

// cachedRows frees its statement for the next use when closed (the
// driver resets the statement then).
type cachedRows struct {
	driver.Rows
	s *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.s.busy = false
	return err
}

// ColumnTypeDatabaseTypeName passes the driver's column types through
// (database/sql asks the rows for them).
func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if ct, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return ct.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}
