package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// Group commit. Every write (Update and the outbox's writing methods) is a
// request in one FIFO queue served by a single writer goroutine. The writer
// takes every request waiting when it is free (up to MaxBatch), runs each
// function inside its own SAVEPOINT of one transaction, and commits once:
// one fsync for the whole group. A function that fails or panics is rolled
// back to its savepoint and fails alone; the others commit. Each caller is
// answered only after the COMMIT that holds its work has returned, so a
// success still means "on disk" exactly as with one transaction per call.
// A group of writes that may all run again (cashier.ConcurrentWrite) first
// runs without the savepoints and, only when one of them fails, runs again
// with them (runTogether).
//
// The queue is a buffered channel: senders are served in arrival order
// (unlike database/sql's pool, which hands a freed connection to a random
// waiter), and its capacity is the admission bound (Options.WriteQueue).
//
// Two kinds of write on a dialect with LockShared (PostgreSQL, several
// processes on one database): a write marked cashier.ConcurrentWrite holds
// its invariants by row locks and unique keys, so its group takes the
// database's write lock shared and runs alongside other processes' groups
// of that kind; any other write takes it exclusively and runs alone, as
// every write did before. A group holds one kind only: a request of the
// other kind ends the group and starts the next, keeping arrival order.
// Writes running in parallel can deadlock on rows or conflict on a
// unique key being inserted elsewhere: PostgreSQL then fails one of them
// (40P01), the writer rolls back that request's savepoint (releasing its
// rows, so the other process goes on) and runs it again in the next
// group, up to maxConflictTries times.

// writeReq is one queued write.
type writeReq struct {
	ctx  context.Context
	fn   func(*sql.Tx) error
	done chan writeResult
	api  bool // ctx marked RefuseWhenBusy: timed for the wait estimate
	// shared: the group takes the write lock shared (cashier.ConcurrentWrite
	// on a dialect with LockShared).
	shared bool
	// rerunnable: marked cashier.ConcurrentWrite, whose function may run
	// again (runTogether).
	rerunnable bool
	tries      int // runs that ended in a conflict with another process
}

// maxConflictTries bounds the runs of a write that keeps conflicting with
// other processes' writes; the last conflict fails it with EOverloaded
// (nothing stored, retry shortly).
const maxConflictTries = 5

type writeResult struct {
	retry    bool // conflicted with another process: run it again, answer later
	err      error
	panicked bool
	panicVal any
}

// errAborted fails the requests of a group whose transaction could not be
// kept after a statement failed (SQLite rolled it back itself, e.g. on a
// full disk or an I/O error).
var errAborted = errors.New("store: transaction aborted by a failed write in the same group; nothing of this write was stored")

// ErrClosed is returned for writes after Close.
var ErrClosed = errors.New("store: database is closed")

// groupWriter owns the write connection pool.
type groupWriter struct {
	db       *sql.DB
	queue    chan *writeReq
	maxBatch int

	groups atomic.Int64 // transactions committed, for tests and measurements
	// groups committed by runTogether (no savepoints), for tests
	together atomic.Int64
	wait     waitEstimate // the expected wait of a write queued now (writewait.go)
	// maxWait bounds the expected wait of a write marked RefuseWhenBusy;
	// <= 0: only the queue's capacity bounds it. Set before the first write.
	maxWait time.Duration

	// Writer goroutine only: the driver connection carrying the hook,
	// whether the group wrote to a cached table, and what to call then.
	hooked   any
	prep     prepared
	dialect  *Dialect
	touched  bool
	onChange func()
	// paused: groups still to run with savepoints after a group of
	// re-runnable writes had to run again (runTogether).
	paused int

	mu     sync.RWMutex // held for reading while enqueuing, for writing by close
	closed bool
	stop   chan struct{}
	done   chan struct{}
}

func newGroupWriter(db *sql.DB, queue, maxBatch int, onChange func(), prep prepared, d *Dialect) *groupWriter {
	w := &groupWriter{
		db:       db,
		prep:     prep,
		dialect:  d,
		onChange: onChange,
		queue:    make(chan *writeReq, queue),
		maxBatch: maxBatch,
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go w.run()
	return w
}

// do queues fn and waits for the commit (or failure) of the group that
// holds it. When the queue is full, a ctx marked by cashier.RefuseWhenBusy
// gets EOverloaded at once; any other waits for room (or its ctx).
func (w *groupWriter) do(ctx context.Context, fn func(*sql.Tx) error) error {
	rerunnable := cashier.IsConcurrentWrite(ctx)
	r := &writeReq{ctx: ctx, fn: fn, done: make(chan writeResult, 1), api: cashier.RefusesWhenBusy(ctx),
		shared: w.dialect.LockShared != "" && rerunnable, rerunnable: rerunnable}
	if err := w.enqueue(ctx, r); err != nil {
		return err
	}
	// Once queued, the request runs or fails on its own: waiting for the
	// answer even if ctx ends keeps "returned an error" meaning "not
	// stored" (the writer skips requests whose ctx has ended; once begun,
	// an Update runs to its end, its statements not watching ctx: see
	// writeStmts).
	var res writeResult
	cashier.Blocking(ctx, func() { res = <-r.done })
	if res.panicked {
		panic(res.panicVal)
	}
	return res.err
}

func (w *groupWriter) enqueue(ctx context.Context, r *writeReq) error {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return ErrClosed
	}
	if r.api && w.waitTooLong() {
		return errWaitTooLong
	}
	select {
	case w.queue <- r:
		return nil
	default:
	}
	if cashier.RefusesWhenBusy(ctx) {
		return cashier.Errorf(cashier.EOverloaded, "the service is busy: %d writes are already waiting; retry shortly", cap(w.queue))
	}
	select {
	case w.queue <- r:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WritesWaiting is the number of writes queued for the writer, not counting
// the group being committed.
func (db *DB) WritesWaiting() int { return len(db.writer.queue) }

// WritesAhead is the number of writes a write queued now would wait for:
// those queued and those of the running group not yet done.
func (db *DB) WritesAhead() int { return len(db.writer.queue) + int(db.writer.wait.remaining.Load()) }

// close lets the queued writes finish and stops the writer.
func (w *groupWriter) close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	close(w.stop)
	w.mu.Unlock()
	<-w.done
}

func (w *groupWriter) run() {
	defer close(w.done)
	batch := make([]*writeReq, 0, w.maxBatch)
	var held *writeReq // taken from the queue, of the other kind than the last group
	for {
		var first *writeReq
		if held != nil {
			first, held = held, nil
		} else {
			select {
			case first = <-w.queue:
			case <-w.stop:
				// No sender can be blocked any more (close holds the lock);
				// serve what is queued, then stop.
				for {
					select {
					case r := <-w.queue:
						w.runGroups(append(batch[:0], r))
					default:
						return
					}
				}
			}
		}
		batch = append(batch[:0], first)
	fill:
		for len(batch) < w.maxBatch {
			select {
			case r := <-w.queue:
				if r.shared != first.shared {
					held = r
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		w.runGroups(batch)
		clear(batch)
	}
}

// runGroups runs batch as a group, then the requests that conflicted with
// another process as the next groups, until none is left.
func (w *groupWriter) runGroups(batch []*writeReq) {
	for len(batch) > 0 {
		batch = w.runGroup(batch)
	}
}

// runGroup runs batch in one transaction and answers every request but
// those that conflicted with another process's write, which it returns
// to be run again.
func (w *groupWriter) runGroup(batch []*writeReq) (again []*writeReq) {
	results := make([]writeResult, len(batch))
	answer := func() {
		for i, r := range batch {
			if results[i].retry {
				again = append(again, r)
				continue
			}
			r.done <- results[i]
		}
	}
	defer answer()
	// Runs before answer: a caller that wrote a merchant, cashier or
	// contract finds the cache emptied when Update returns.
	defer func() {
		if w.touched {
			w.touched = false
			w.onChange()
		}
	}()
	switch {
	case w.paused > 0:
		w.paused--
	case len(batch) > 1 && allRerunnable(batch):
		if w.runTogether(batch, results) {
			return again
		}
		clear(results)
		w.paused = togetherPause
	}
	// The transaction is not bound to any one caller's context: a caller
	// giving up must not roll back the others.
	tx, conn, err := w.begin(batch[0].shared)
	if err == nil {
		// Returns the connection to the pool; deferred after the
		// transaction's end (Commit or Rollback below), which it waits for.
		defer conn.Close()
	}
	if err != nil {
		for i := range results {
			results[i].err = fmt.Errorf("store: begin: %w", err)
		}
		return
	}
	bg := context.Background()
	w.wait.start(len(batch))
	defer w.wait.stop()
	ok := make([]int, 0, len(batch)) // requests whose work is in tx
	// A request alone in its group needs no savepoint: when it fails, the
	// whole transaction is rolled back (two statements saved, which on a
	// server are two round trips).
	alone := len(batch) == 1
	for i, r := range batch {
		if w.gone(r, &results[i]) {
			continue
		}
		began := time.Now()
		if !alone {
			if _, err := w.prep.exec(bg, tx, savepoint); err != nil {
				w.abort(tx, results, ok, i, fmt.Errorf("store: savepoint: %w", err))
				return again
			}
		}
		res := call(r, tx)
		w.conflicted(r, &res)
		if res.err == nil && !res.panicked {
			if !alone {
				if _, err := w.prep.exec(bg, tx, release); err != nil {
					w.abort(tx, results, ok, i, fmt.Errorf("store: release: %w", err))
					return again
				}
			}
			ok = append(ok, i)
			w.wait.wrote(r.cost(began))
			continue
		}
		w.wait.wrote(r.cost(began))
		results[i] = res
		if alone {
			_ = tx.Rollback()
			return again
		}
		if _, err := w.prep.exec(bg, tx, rollbackTo); err != nil {
			// The failure took the whole transaction with it.
			w.abort(tx, results, ok, i, nil)
			return again
		}
		if _, err := w.prep.exec(bg, tx, release); err != nil {
			w.abort(tx, results, ok, i, nil)
			return again
		}
	}
	w.wait.stop() // the commit is not counted (writewait.go)
	if err := tx.Commit(); err != nil {
		for _, i := range ok {
			results[i].err = fmt.Errorf("store: commit: %w", err)
		}
		return again
	}
	w.groups.Add(1)
	return again
}

// togetherPause is how many groups run with savepoints after a group
// of re-runnable writes failed without them. Failures come in runs (a
// client resending creates it timed out on, each a duplicate, exactly
// when the service is busiest); running every group of such a run twice
// would double the work then.
const togetherPause = 8

// allRerunnable reports whether every write of batch may run again.
func allRerunnable(batch []*writeReq) bool {
	for _, r := range batch {
		if !r.rerunnable {
			return false
		}
	}
	return true
}

// runTogether runs a group of writes that may run again
// (cashier.ConcurrentWrite: order creation, the outbox's claims, leases)
// in one transaction without a savepoint each. That saves two statements
// per write and the savepoint's journal, a copy of every page the write
// changes. When a write fails, panics or conflicts, runTogether rolls the
// whole transaction back and reports false: the group then runs again
// with savepoints, so that the failure stays that write's alone, and so
// do the next togetherPause groups. It reports true when results hold the
// group's answers: committed, or failed all together (begin, commit).
func (w *groupWriter) runTogether(batch []*writeReq, results []writeResult) bool {
	tx, conn, err := w.begin(batch[0].shared)
	if err != nil {
		for i := range results {
			results[i].err = fmt.Errorf("store: begin: %w", err)
		}
		return true
	}
	defer conn.Close() // after the transaction's end, as in runGroup
	w.wait.start(len(batch))
	defer w.wait.stop()
	for i, r := range batch {
		if w.gone(r, &results[i]) {
			continue
		}
		began := time.Now()
		res := call(r, tx)
		w.wait.wrote(r.cost(began))
		if res.err != nil || res.panicked {
			_ = tx.Rollback()
			return false
		}
	}
	w.wait.stop() // the commit is not counted (writewait.go)
	if err := tx.Commit(); err != nil {
		for i := range results {
			if results[i].err == nil {
				results[i].err = fmt.Errorf("store: commit: %w", err)
			}
		}
		return true
	}
	w.groups.Add(1)
	w.together.Add(1)
	return true
}

// gone answers a write whose caller has gone before the writer reached
// it, and reports whether it had: such a write is skipped.
func (w *groupWriter) gone(r *writeReq, res *writeResult) bool {
	if err := r.ctx.Err(); err != nil {
		res.err = err
		w.wait.wrote(0)
		return true
	}
	return false
}

// conflicted marks res to be run again when it failed for a conflict with
// another process's write (a deadlock PostgreSQL broke by failing it), or
// turns the last such conflict into EOverloaded: the write is not stored
// and may be retried, never a lost or half-done write.
func (w *groupWriter) conflicted(r *writeReq, res *writeResult) {
	if res.err == nil || res.panicked || w.dialect.IsConflict == nil || !w.dialect.IsConflict(res.err) {
		return
	}
	r.tries++
	if r.tries < maxConflictTries {
		res.retry = true
		return
	}
	res.err = &cashier.Error{Code: cashier.EOverloaded,
		Message: fmt.Sprintf("the write conflicted %d times with other instances' writes; nothing was stored, retry shortly", r.tries),
		Err:     res.err}
}

// begin starts a group's transaction on the write connection, first
// giving that connection the pre-update hook that watches the cached
// tables (once per driver connection: the pool may replace a broken one).
func (w *groupWriter) begin(shared bool) (*sql.Tx, *sql.Conn, error) {
	ctx := context.Background()
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	err = conn.Raw(func(dc any) error {
		if dc == w.hooked {
			return nil
		}
		if err := w.dialect.WatchWrites(dc, w.watchTable); err != nil {
			return err
		}
		w.hooked = dc
		return nil
	})
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	lock := w.dialect.LockWrites
	if shared {
		lock = w.dialect.LockShared
	}
	if lock != "" {
		if _, err := tx.ExecContext(ctx, lock); err != nil {
			_ = tx.Rollback()
			conn.Close()
			return nil, nil, err
		}
	}
	return tx, conn, nil
}

// abort rolls tx back after a failure that broke it: the requests already
// in it and the ones not yet run fail with errAborted; request cur gets err,
// or keeps its own result when err is nil.
func (w *groupWriter) abort(tx *sql.Tx, results []writeResult, ok []int, cur int, err error) {
	_ = tx.Rollback()
	aborted := error(errAborted)
	cause := err
	if cause == nil {
		cause = results[cur].err
	}
	if cashier.ErrorCode(cause) == cashier.EUnavailable {
		// The database went away under the group: every write in it
		// failed for the same reason, which a client may retry.
		aborted = &cashier.Error{Code: cashier.EUnavailable, Message: errAborted.Error(), Err: cause}
	}
	for _, i := range ok {
		results[i].err = aborted
	}
	if err != nil {
		results[cur].err = err
	}
	for i := cur + 1; i < len(results); i++ {
		results[i].err = aborted
	}
}

// call runs r.fn, turning a panic into a result so that the writer goes on
// and the caller re-panics in its own goroutine.
func call(r *writeReq, tx *sql.Tx) (res writeResult) {
	defer func() {
		if v := recover(); v != nil {
			res = writeResult{panicked: true, panicVal: v}
		}
	}()
	return writeResult{err: r.fn(tx)}
}
