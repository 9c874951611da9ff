package sqlstore

import (
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// The write queue is bounded by the wait it implies, not only by its
// length: a thousand queued writes are a few milliseconds on a quiet
// machine and well over a hundred when the CPU is saturated, and it is the
// wait an API caller experiences. The writer times every API write it
// executes (its function between SAVEPOINT and RELEASE, so a writer slowed
// by a busy CPU measures itself slower) and keeps a moving average; a write
// arriving now expects to wait for the writes of the group still to be
// executed and those queued ahead of it, at that cost each.
//
// Left out on purpose: background writes (a watcher storing a thousand
// payments in one write would otherwise make every API write look that
// expensive for a while and refuse a modest burst), and the commit (the
// fsync is paid once by every write however short the queue; counting it
// would refuse a lone write on a slow disk, where refusing shortens
// nothing).

// MinWritesAhead writes ahead are always admitted, whatever the estimate: when
// the whole machine is starved of CPU every write looks slow, and refusing
// all but a few would starve group commit of company and collapse the
// throughput without shortening anyone's wait.
const MinWritesAhead = 16

// DefaultMaxWriteWait is the default of Options.MaxWriteWait.
const DefaultMaxWriteWait = 5 * time.Millisecond

// errWaitTooLong refuses an API write when the writer is behind. Built
// once: under overload it is returned thousands of times a second.
var errWaitTooLong = cashier.Errorf(cashier.EOverloaded, "the service is busy: writes are waiting longer than it admits; retry shortly")

// waitEstimate is shared by the writer goroutine (start, wrote, stop) and
// every caller (expected); atomics only.
type waitEstimate struct {
	perWrite  atomic.Int64 // ns per API write, moving average
	remaining atomic.Int64 // writes of the current group not yet executed
}

func (e *waitEstimate) start(n int) { e.remaining.Store(int64(n)) }

// wrote records one write of the group done; d is its duration when it
// was an API write, 0 for others.
func (e *waitEstimate) wrote(d time.Duration) {
	e.remaining.Add(-1)
	if d <= 0 {
		return
	}
	if old := e.perWrite.Load(); old == 0 {
		e.perWrite.Store(int64(d))
	} else {
		// One sixteenth of the newest write: follows a change of load
		// within a few dozen writes (milliseconds under load) without
		// jumping on one odd write.
		e.perWrite.Store(old + (int64(d)-old)/16)
	}
}

func (e *waitEstimate) stop() { e.remaining.Store(0) }

// expected is the wait of a write queued now behind queued others.
func (e *waitEstimate) expected(queued int) time.Duration {
	return time.Duration((e.remaining.Load() + int64(queued)) * e.perWrite.Load())
}

// WriteWait is how long a write queued now is expected to wait before its
// own work starts (the commit not counted).
func (db *DB) WriteWait() time.Duration { return db.writer.wait.expected(len(db.writer.queue)) }

// WritesBusy reports whether a write marked cashier.RefuseWhenBusy would
// be refused now for the wait it would face. The HTTP API asks before it
// reads a request's body, so that the excess of an overload costs little.
func (db *DB) WritesBusy() bool { return db.writer.waitTooLong() }

// SetWriteCost fixes the measured cost of one API write, until the next
// write moves it: for tests that must not depend on the machine's speed.
func (db *DB) SetWriteCost(d time.Duration) { db.writer.wait.perWrite.Store(int64(d)) }

func (w *groupWriter) waitTooLong() bool {
	if w.maxWait <= 0 {
		return false
	}
	queued := len(w.queue)
	return queued+int(w.wait.remaining.Load()) >= MinWritesAhead && w.wait.expected(queued) > w.maxWait
}

var _ cashier.WriteLoad = (*DB)(nil)

// cost is how long r took since began when r is an API write (the writes
// the estimate is about), 0 otherwise.
func (r *writeReq) cost(began time.Time) time.Duration {
	if !r.api {
		return 0
	}
	return time.Since(began)
}
