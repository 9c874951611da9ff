// Package postgres is cashier.Store (package sqlstore) on PostgreSQL, for
// several instances sharing one database. It holds what is PostgreSQL's:
// opening through pgx with the placeholder rewriting, the migrations
// applied once under an advisory lock, the write lock (exclusive for most
// writes, shared for those that lock their own rows), the error codes.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stablecashier/cashier/sqlstore"
)

// Options configures Open.
type Options struct {
	// Sealer encrypts merchant secrets at rest. Required.
	Sealer sqlstore.Sealer
	// MaxReaders is the size of the read connection pool. Default 8.
	MaxReaders int
	// WriteQueue, MaxBatch, CacheTTL and MaxWriteWait are sqlstore.Options'.
	WriteQueue   int
	MaxBatch     int
	CacheTTL     time.Duration
	MaxWriteWait time.Duration
}

// Advisory lock keys ("cashmigr", "cashwrit"): one for migrating, one
// held by every write transaction.
const (
	migrateLock int64 = 0x636173686d696772
	writeLock   int64 = 0x6361736877726974
)

// Dialect is PostgreSQL's part of the store.
var Dialect = &sqlstore.Dialect{
	Name:         "postgres",
	IsUnique:     func(err error) bool { return pgCode(err) == "23505" },
	IsForeignKey: func(err error) bool { return pgCode(err) == "23503" },
	WatchWrites: func(dc any, onWrite func(table string)) error {
		c, ok := dc.(*conn)
		if !ok {
			return fmt.Errorf("postgres: driver connection %T is not the store's", dc)
		}
		c.onWrite = onWrite
		return nil
	},
	// One writer at a time, on every instance, for every write not
	// marked cashier.ConcurrentWrite: those functions read, check and
	// write inside one transaction (state transitions, payments, leases)
	// and rely on nothing changing in between, exactly as on SQLite.
	// Group commit keeps one lock and one commit for many writes of an
	// instance.
	LockWrites: fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", writeLock),
	// The writes marked cashier.ConcurrentWrite (order creation, the
	// outbox's claims and delivery records, leases) lock the rows their checks
	// read instead, and run in parallel across instances: they take the
	// same lock shared, so they never run alongside an exclusive writer.
	LockShared: fmt.Sprintf("SELECT pg_advisory_xact_lock_shared(%d)", writeLock),
	// Deadlocks between parallel writers (rows, unique keys being inserted
	// by another instance) fail one statement; the writer runs it again.
	IsConflict: func(err error) bool { c := pgCode(err); return c == "40P01" || c == "40001" },
	ForUpdate:  " FOR UPDATE",
	SkipLocked: " FOR UPDATE SKIP LOCKED",
	// Read committed would let a list's page and its count see two states.
	Snapshot: sql.LevelRepeatableRead,
	// The sequences of migration 0025, as the insert trigger uses them.
	NextNum: `nextval('%s_num_seq')`,
}

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsURL reports whether s names a PostgreSQL database (postgres:// or
// postgresql://).
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at url (postgres://user:pass@host:port/db?…)
// and brings its schema up to date.
func Open(ctx context.Context, url string, opts Options) (*sqlstore.DB, error) {
	if opts.Sealer == nil {
		return nil, errors.New("postgres: Options.Sealer is required")
	}
	if !IsURL(url) {
		return nil, errors.New("postgres: the database URL must start with postgres:// or postgresql://")
	}
	if opts.MaxReaders <= 0 {
		opts.MaxReaders = 8
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: database URL: %w", err)
	}
	open := func() *sql.DB { return sql.OpenDB(connector{stdlib.GetConnector(*cfg)}) }

	write := open()
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, err
	}
	read := open()
	read.SetMaxOpenConns(opts.MaxReaders)
	read.SetMaxIdleConns(opts.MaxReaders)
	if err := read.PingContext(ctx); err != nil {
		write.Close()
		read.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db, err := sqlstore.New(ctx, write, read, Dialect, sqlstore.Options{
		Sealer: opts.Sealer, WriteQueue: opts.WriteQueue, MaxBatch: opts.MaxBatch, CacheTTL: opts.CacheTTL,
		MaxWriteWait: opts.MaxWriteWait,
	})
	if err != nil {
		write.Close()
		read.Close()
		return nil, err
	}
	return db, nil
}
