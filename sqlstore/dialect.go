package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// Dialect is what differs between the databases the store runs on. The
// store's SQL is written once, portably (? placeholders, INTEGER/TEXT/BLOB
// columns, times as integer milliseconds); a dialect's package opens the
// pools (its driver turning the SQL into its own syntax where needed) and
// describes the rest here.
type Dialect struct {
	// Name prefixes the store's error messages ("sqlite", "postgres").
	Name string
	// IsUnique reports whether err is a unique or primary key violation.
	IsUnique func(error) bool
	// IsForeignKey reports whether err is a foreign key violation.
	IsForeignKey func(error) bool
	// WatchWrites makes the write connection dc call onWrite with the
	// table of every row it writes (the cache empties itself on writes to
	// the tables it holds). Called once per driver connection.
	WatchWrites func(dc any, onWrite func(table string)) error
	// CloseSQL, when set, runs on the write pool before Close.
	CloseSQL string
	// LockWrites, when set, runs first in every write transaction: it
	// takes the lock that makes writers run one at a time across every
	// process on the database, as SQLite's write lock does.
	LockWrites string
	// LockShared, when set, runs first instead of LockWrites in a group of
	// writes marked cashier.ConcurrentWrite: it takes the same lock shared,
	// so such groups of several processes run in parallel with each other
	// and never alongside an exclusive one (group.go).
	LockShared string
	// IsConflict reports whether err is a write failed for a conflict with
	// another process's concurrent write (deadlock, serialization failure):
	// the write is run again.
	IsConflict func(error) bool
	// ForUpdate ends a SELECT that reads a row to decide a write on it,
	// locking the row until the commit (" FOR UPDATE"); SkipLocked ends
	// one that claims rows, skipping those another writer holds
	// (" FOR UPDATE SKIP LOCKED"). Empty on a single-writer database,
	// where nothing changes under a write transaction.
	ForUpdate, SkipLocked string
	// Snapshot is the isolation of the read-only transactions a list
	// reads its page and count in; it must give one snapshot.
	Snapshot sql.IsolationLevel
	// NextNum is the SQL expression that numbers a new row of a table (%s:
	// its name) inside the row's INSERT: no trigger writes the row a
	// second time.
	NextNum string
	// NoReturning is set for a database on which an INSERT costs more
	// with RETURNING than followed by a read by rowid. SQLite runs
	// RETURNING as a trigger, and a statement with a trigger first copies
	// every page it changes to a statement journal: about a quarter of
	// an order insert's CPU. The store then takes a new row's key from
	// the insert's result (the rowid) and reads its number by that key.
	NoReturning bool

	numberedOnce sync.Once
	numbered     numberedInserts
}

// numberedInserts are the order inserts, which number their row, and the
// event insert, in d's form (NoReturning).
type numberedInserts struct {
	collection, payout numberedInsert
	event              string // returns seq, unless NoReturning
}

// numberedInsert inserts a row of a table with its columns (one
// placeholder each) and the next number, returning the number, or
// nothing when the row's unique keys exist already. With NoReturning it
// returns nothing, and readBack reads the number by rowid.
type numberedInsert struct{ insert, readBack string }

// inserts returns d's inserts, built once.
func (d *Dialect) inserts() *numberedInserts {
	d.numberedOnce.Do(func() {
		d.numbered = numberedInserts{
			collection: newNumberedInsert(d, "collection_orders", collectionCols),
			payout:     newNumberedInsert(d, "payout_orders", payoutCols),
			event:      insertEvent,
		}
		if !d.NoReturning {
			d.numbered.event += ` RETURNING seq`
		}
	})
	return &d.numbered
}

func newNumberedInsert(d *Dialect, table, cols string) numberedInsert {
	q := `INSERT INTO ` + table + ` (` + cols + `, num) VALUES (` + placeholders(cols) + `, ` +
		fmt.Sprintf(d.NextNum, table) + `) ON CONFLICT DO NOTHING`
	if d.NoReturning {
		return numberedInsert{insert: q, readBack: `SELECT num FROM ` + table + ` WHERE rowid = ?`}
	}
	return numberedInsert{insert: q + ` RETURNING num`}
}

// dialects are those of the stores opened in this process, for the error
// helpers: each recognises only its own driver's errors, so asking all of
// them is exact.
var dialects struct {
	mu   sync.RWMutex
	list []*Dialect
}

func register(d *Dialect) {
	dialects.mu.Lock()
	defer dialects.mu.Unlock()
	for _, o := range dialects.list {
		if o.Name == d.Name {
			return
		}
	}
	dialects.list = append(dialects.list, d)
}

func anyDialect(err error, is func(*Dialect) func(error) bool) bool {
	if err == nil {
		return false
	}
	dialects.mu.RLock()
	defer dialects.mu.RUnlock()
	for _, d := range dialects.list {
		if f := is(d); f != nil && f(err) {
			return true
		}
	}
	return false
}

func isUnique(err error) bool {
	return anyDialect(err, func(d *Dialect) func(error) bool { return d.IsUnique })
}

func isForeignKey(err error) bool {
	return anyDialect(err, func(d *Dialect) func(error) bool { return d.IsForeignKey })
}

func (d *Dialect) check() error {
	if d.Name == "" || d.IsUnique == nil || d.IsForeignKey == nil || d.WatchWrites == nil || d.NextNum == "" {
		return errors.New("sqlstore: the dialect needs a name, error classifiers, a write watcher and NextNum")
	}
	return nil
}
