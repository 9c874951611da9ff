// Package sqlite is the embedded store: cashier.Store on one SQLite file,
// with no server to run. It writes through a single connection so writers
// queue in the process instead of failing with SQLITE_BUSY, and reads
// through a pool that WAL mode lets run beside the writer.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/stablecashier/cashier"
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
	// trusted (cache.go); writes through this DB empty the cache at once,
	// the TTL bounds how long a write by another process goes unseen.
	// Zero means the default, 1 s; negative turns the cache off.
	CacheTTL time.Duration
	// MaxWriteWait bounds the wait a write marked cashier.RefuseWhenBusy
	// may expect before its work starts (writewait.go): beyond it the
	// write fails at once with EOverloaded. Zero means the default, 5 ms;
	// negative leaves only the WriteQueue bound.
	MaxWriteWait time.Duration
}

// DB is the SQLite implementation of cashier.Store. It is safe for
// concurrent use. Update must not be called from inside Update, nor the
// outbox's writing methods (ClaimEvents, RecordAttempt, Resend): they wait
// for the one write connection the outer Update holds.
type DB struct {
	reader
	write  *sql.DB // one connection; transactions BEGIN IMMEDIATE
	read   *sql.DB // query_only connections
	sealer Sealer
	writer *groupWriter // the only user of write after Open
	prep   prepared
	cache  *lookupCache
}

var _ cashier.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path and brings its
// schema up to date.
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
	if opts.WriteQueue <= 0 {
		opts.WriteQueue = 1024
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
	}
	if opts.MaxWriteWait == 0 {
		opts.MaxWriteWait = DefaultMaxWriteWait
	}
	if opts.CacheTTL == 0 {
		opts.CacheTTL = time.Second
	}

	// synchronous=FULL: in WAL mode NORMAL may lose the last commits on
	// power loss, and a lost commit here can be a payment already reported
	// to a merchant. foreign_keys is per connection, so it goes in the DSN.
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)",
		opts.BusyTimeout.Milliseconds())
	write, err := sql.Open("sqlite", path+"?"+common+"&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)

	if err := migrateRetrying(ctx, write, opts.BusyTimeout); err != nil {
		write.Close()
		return nil, err
	}

	// Readers open after the writer has switched the file to WAL.
	read, err := sql.Open("sqlite", path+"?"+common+"&_pragma=query_only(1)")
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(opts.MaxReaders)
	read.SetMaxIdleConns(opts.MaxReaders)
	if err := read.PingContext(ctx); err != nil {
		write.Close()
		read.Close()
		return nil, err
	}

	db := &DB{write: write, read: read, sealer: opts.Sealer}
	db.cache = newLookupCache(opts.CacheTTL)
	if db.prep, err = prepare(ctx, write); err != nil {
		write.Close()
		read.Close()
		return nil, err
	}
	db.writer = newGroupWriter(write, opts.WriteQueue, opts.MaxBatch, db.cache.invalidate, db.prep)
	db.writer.maxWait = opts.MaxWriteWait
	db.reader = reader{q: read, snap: read, sealer: opts.Sealer}
	return db, nil
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

// Close closes both connection pools, first letting SQLite refresh the
// planner statistics it finds stale (PRAGMA optimize, cheap by design).
func (db *DB) Close() error {
	db.writer.close()
	_, err := db.write.Exec(`PRAGMA optimize`)
	return errors.Join(err, db.read.Close(), db.write.Close())
}

// Update runs fn in one write transaction, committing when fn returns nil
// and rolling back when it returns an error or panics (the panic goes on).
// Concurrent calls share one database transaction and one fsync (group
// commit, group.go), each fn inside its own savepoint: fn's writes are
// rolled back alone when it fails, and Update returns only after the
// commit that holds them.
func (db *DB) Update(ctx context.Context, fn func(cashier.Tx) error) error {
	return db.writer.do(ctx, func(sqlTx *sql.Tx) error {
		return fn(&tx{reader: reader{q: sqlTx, sealer: db.sealer}, tx: sqlTx, prep: db.prep})
	})
}

// writeTx runs fn in a write transaction on behalf of the outbox methods.
func (db *DB) writeTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.writer.do(ctx, fn)
}
