// Package sqlstore is cashier.Store and the outbox over database/sql, for
// any supported dialect. Its SQL is written once, portably; the packages
// sqlite and postgres open their database, bring its schema up to date and
// hand the pools to New together with their Dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/stablecashier/cashier"
)

// Options configures New.
type Options struct {
	// Sealer encrypts merchant secrets at rest. Required.
	Sealer Sealer
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

// DB implements cashier.Store on database/sql. It is safe for concurrent
// use. Update must not be called from inside Update, nor the outbox's
// writing methods (ClaimEvents, RecordAttempt, Resend): they wait for the
// one write connection the outer Update holds.
type DB struct {
	reader
	write   *sql.DB // one connection, used by the writer only
	read    *sql.DB // connections for reads outside Update
	sealer  Sealer
	writer  *groupWriter // the only user of write after New
	prep    prepared
	cache   *lookupCache
	dialect *Dialect
}

var _ cashier.Store = (*DB)(nil)

// New builds the store on write, a pool limited to one connection whose
// transactions hold the database's write lock, and read, the pool for
// reads. The schema must be up to date. On success the DB owns both pools;
// on failure the caller closes them.
func New(ctx context.Context, write, read *sql.DB, d *Dialect, opts Options) (*DB, error) {
	if opts.Sealer == nil {
		return nil, errors.New("sqlstore: Options.Sealer is required")
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	if opts.WriteQueue <= 0 {
		opts.WriteQueue = 1024
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
	}
	if opts.CacheTTL == 0 {
		opts.CacheTTL = time.Second
	}
	if opts.MaxWriteWait == 0 {
		opts.MaxWriteWait = DefaultMaxWriteWait
	}
	register(d)
	db := &DB{write: write, read: read, sealer: opts.Sealer, dialect: d}
	db.cache = newLookupCache(opts.CacheTTL)
	var err error
	if db.prep, err = prepare(ctx, write, d); err != nil {
		return nil, err
	}
	db.writer = newGroupWriter(write, opts.WriteQueue, opts.MaxBatch, db.cache.invalidate, db.prep, d)
	db.writer.maxWait = opts.MaxWriteWait
	db.reader = reader{q: read, snap: read, sealer: opts.Sealer, iso: d.Snapshot}
	return db, nil
}

// Close lets the queued writes finish and closes both pools, first running
// the dialect's CloseSQL (SQLite refreshes its planner statistics).
func (db *DB) Close() error {
	db.writer.close()
	var err error
	if db.dialect.CloseSQL != "" {
		_, err = db.write.Exec(db.dialect.CloseSQL)
	}
	return errors.Join(err, db.read.Close(), db.write.Close())
}

// Update runs fn in one write transaction, committing when fn returns nil
// and rolling back when it returns an error or panics (the panic goes on).
// Concurrent calls share one database transaction and one commit (group
// commit, group.go), each fn inside its own savepoint: fn's writes are
// rolled back alone when it fails, and Update returns only after the
// commit that holds them.
func (db *DB) Update(ctx context.Context, fn func(cashier.Tx) error) error {
	return db.writer.do(ctx, func(sqlTx *sql.Tx) error {
		return fn(newTx(sqlTx, db.sealer, db.prep, db.dialect))
	})
}

// writeTx runs fn in a write transaction on behalf of the outbox methods.
func (db *DB) writeTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.writer.do(ctx, fn)
}

// Pools returns the write pool (one connection, shared with the writer:
// use it only while no write is running) and the read pool, for the
// dialect's own checks and tests.
func (db *DB) Pools() (write, read *sql.DB) { return db.write, db.read }

// WriteRaw runs fn in a write transaction of the group writer, as the
// store's own methods do: for statements outside cashier.Tx (maintenance,
// tests). Writes to the cached tables empty the cache as any write does.
func (db *DB) WriteRaw(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.writeTx(ctx, fn)
}

// GroupsCommitted is the number of write transactions committed so far.
func (db *DB) GroupsCommitted() int64 { return db.writer.groups.Load() }

// GroupsTogether is how many of those were groups of several writes that
// may run again, committed without a savepoint each.
func (db *DB) GroupsTogether() int64 { return db.writer.together.Load() }

// Uncached is the store's reader without the lookup cache.
func (db *DB) Uncached() cashier.Reader { return db.reader }

// SetCacheClock replaces the clock the lookup cache ages entries by.
// Call it before use.
func (db *DB) SetCacheClock(now func() time.Time) { db.cache.now = now }
