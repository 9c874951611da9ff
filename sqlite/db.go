// Package sqlite is the embedded store: cashier.Store (package sqlstore)
// on one SQLite file, with no server to run. It holds what is SQLite's:
// opening the file with its pragmas, the migrations, the error codes.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/stablecashier/cashier/sqlstore"
)

// Options configures Open.
type Options struct {
	// Sealer encrypts merchant secrets at rest. Required.
	Sealer Sealer
	// BusyTimeout bounds how long a statement waits for a lock held by
	// another process sharing the file. Default 5s.
	BusyTimeout time.Duration
	// MaxReaders is the size of the read connection pool. Default 4.
	MaxReaders int
	// WriteQueue bounds the writes waiting for the writer (group commit).
	// Beyond it a write whose context is marked cashier.RefuseWhenBusy
	// fails at once with EOverloaded; others wait. Default 1024.
	WriteQueue int
	// MaxBatch is the largest number of writes committed together.
	// Default 256.
	MaxBatch int
	// CacheTTL is how long a cached merchant, cashier or contract is
	// trusted (sqlstore/cache.go); writes through this DB empty the cache
	// at once, the TTL bounds how long a write by another process goes
	// unseen. Zero means the default, 1 s; negative turns the cache off.
	CacheTTL time.Duration
	// MaxWriteWait bounds the wait a write marked cashier.RefuseWhenBusy
	// may expect before its work starts (writewait.go): beyond it the
	// write fails at once with EOverloaded. Zero means the default, 5 ms;
	// negative leaves only the WriteQueue bound.
	MaxWriteWait time.Duration
}

// The store's types live in package sqlstore, shared with PostgreSQL;
// these names keep the package's callers unchanged.
type (
	DB             = sqlstore.DB
	Sealer         = sqlstore.Sealer
	AESSealer      = sqlstore.AESSealer
	SweepCandidate = sqlstore.SweepCandidate
)

const MasterKeySize = sqlstore.MasterKeySize

var (
	ErrClosed             = sqlstore.ErrClosed
	NewAESSealer          = sqlstore.NewAESSealer
	LoadOrCreateMasterKey = sqlstore.LoadOrCreateMasterKey
	DecodeMasterKey       = sqlstore.DecodeMasterKey
)

// Dialect is SQLite's part of the store: its constraint error codes and
// the pre-update hook that tells the cache which tables a write touched.
var Dialect = &sqlstore.Dialect{
	Name: "sqlite",
	IsUnique: func(err error) bool {
		c := sqliteCode(err)
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	},
	IsForeignKey: func(err error) bool { return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY },
	WatchWrites: func(dc any, onWrite func(table string)) error {
		if c, ok := dc.(*cachingConn); ok {
			dc = c.innerConn // the driver's own connection, under the statement cache
		}
		h, ok := dc.(sqlitedrv.HookRegisterer)
		if !ok {
			return fmt.Errorf("sqlite: driver connection %T has no hooks", dc)
		}
		h.RegisterPreUpdateHook(func(d sqlitedrv.SQLitePreUpdateData) { onWrite(d.TableName) })
		return nil
	},
	CloseSQL: `PRAGMA optimize`,
	// One writer at a time: the maximum is the last number given (the
	// unique index on num makes it one step).
	NextNum:     `(SELECT IFNULL(MAX(num), 0) + 1 FROM %s)`,
	NoReturning: true,
}

// sqliteCode returns the extended result code of err, or 0.
func sqliteCode(err error) int {
	var e *sqlitedrv.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

// Open opens (creating if needed) the database file at path and brings its
// schema up to date. It writes through a single connection (transactions
// BEGIN IMMEDIATE) so writers queue in the process instead of failing with
// SQLITE_BUSY, and reads through query_only connections that WAL mode
// lets run beside the writer.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if opts.Sealer == nil {
		return nil, errors.New("sqlite: Options.Sealer is required")
	}
	if path == "" || strings.ContainsRune(path, '?') || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: %q is not a plain file path", path)
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.MaxReaders <= 0 {
		opts.MaxReaders = 4
	}

	dsn := dsns(path, opts.BusyTimeout)
	if err := migrateOnce(ctx, dsn.migrate, opts.BusyTimeout); err != nil {
		return nil, err
	}
	write := openDB(dsn.write)
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)

	// Readers open after the migrations have switched the file to WAL.
	read := openDB(dsn.read)
	read.SetMaxOpenConns(opts.MaxReaders)
	read.SetMaxIdleConns(opts.MaxReaders)
	if err := read.PingContext(ctx); err != nil {
		write.Close()
		read.Close()
		return nil, err
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

// connStrings are the data source names of a database's connections.
type connStrings struct{ migrate, write, read string }

// dsns returns the data source names for the database file at path.
func dsns(path string, busy time.Duration) connStrings {
	// synchronous=FULL: in WAL mode NORMAL may lose the last commits on
	// power loss, and a lost commit here can be a payment already reported
	// to a merchant. foreign_keys is per connection, so it goes in the DSN.
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)",
		busy.Milliseconds())
	migrate := path + "?" + common + "&_pragma=journal_mode(WAL)&_txlock=immediate"
	return connStrings{
		migrate: migrate,
		// The writer keeps its temporary files in memory (temp_store).
		// Chiefly the journal of each write's savepoint in a group-commit
		// group, which SQLite otherwise moves to a file past 64 KiB and
		// then writes with a system call per page: in a busy group that
		// was a third of an order's CPU (BenchmarkCreateCollectionParallel).
		// The migrations run on a connection of their own without it, so
		// that an index built over a large table sorts on disk, not in
		// memory.
		write: migrate + "&_pragma=temp_store(MEMORY)",
		read:  path + "?" + common + "&_pragma=query_only(1)",
	}
}

// migrateOnce brings the schema up to date through a connection of its
// own (dsn, that of the writer without its temp_store), closed after.
func migrateOnce(ctx context.Context, dsn string, patience time.Duration) error {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	return errors.Join(migrateRetrying(ctx, db, patience), db.Close())
}

// sqliteBusy is SQLITE_BUSY, the primary code of every "database is
// locked" result (extended codes carry it in their low byte).
const sqliteBusy = 5

// migrateRetrying runs migrate, retrying while another process holds the
// file's lock. SQLite does not call the busy handler for every lock a fresh
// database needs (switching to WAL takes an exclusive lock and fails at
// once when contended), so processes starting together on a new file would
// otherwise fail instead of taking turns.
func migrateRetrying(ctx context.Context, db *sql.DB, patience time.Duration) error {
	deadline := time.Now().Add(patience)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := migrate(ctx, db)
		if err == nil || sqliteCode(err)&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}
