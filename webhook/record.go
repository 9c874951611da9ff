package webhook

import (
	"context"
	"sync"

	"github.com/stablecashier/cashier"
)

// maxRecordBatch bounds the outcomes written in one RecordAttempts.
const maxRecordBatch = 256

// recorder writes the outcomes of finished attempts in groups. Workers
// that finish while a group is being written queue their outcomes; when
// the write returns, the first of them writes all that queued meanwhile.
// Under load one write thus records many attempts (one statement reads
// the events and one logs the attempts, instead of three statements each),
// and when deliveries are few each is written at once, as before.
type recorder struct {
	mu      sync.Mutex
	queue   []*pendingRecord
	writing bool // a worker is writing a group; the queue waits for it
}

type pendingRecord struct {
	outcome cashier.AttemptOutcome
	err     error
	// done answers the worker: false, its outcome was written (err says
	// how); true, it writes the next group, its own outcome first.
	done chan bool
}

// record writes o (with the outcomes of other workers finishing about now)
// and returns its own result.
func (r *recorder) record(ctx context.Context, outbox cashier.Outbox, owner string, o cashier.AttemptOutcome) error {
	p := &pendingRecord{outcome: o, done: make(chan bool, 1)}
	r.mu.Lock()
	r.queue = append(r.queue, p)
	lead := !r.writing
	r.writing = true
	r.mu.Unlock()
	if !lead && !<-p.done {
		return p.err
	}

	r.mu.Lock()
	n := min(len(r.queue), maxRecordBatch)
	group := r.queue[:n:n]
	r.queue = r.queue[n:]
	r.mu.Unlock()
	outcomes := make([]cashier.AttemptOutcome, len(group))
	for i, g := range group {
		outcomes[i] = g.outcome
	}
	errs := outbox.RecordAttempts(ctx, owner, outcomes)
	for i, g := range group {
		g.err = errs[i]
		if g != p {
			g.done <- false
		}
	}

	// The next group is written by the first worker waiting in it.
	r.mu.Lock()
	if len(r.queue) == 0 {
		r.writing = false
		r.mu.Unlock()
	} else {
		next := r.queue[0]
		r.mu.Unlock()
		next.done <- true
	}
	return p.err
}
