package webhook

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// groupingOutbox holds the first RecordAttempts until hold outcomes are
// queued behind it, and keeps the size of every call.
type groupingOutbox struct {
	cashier.Outbox
	d     *Dispatcher
	hold  int
	mu    sync.Mutex
	calls []int
}

func (g *groupingOutbox) RecordAttempts(ctx context.Context, owner string, os []cashier.AttemptOutcome) []error {
	g.mu.Lock()
	first := len(g.calls) == 0
	g.calls = append(g.calls, len(os))
	g.mu.Unlock()
	if first {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			g.d.records.mu.Lock()
			queued := len(g.d.records.queue)
			g.d.records.mu.Unlock()
			if queued >= g.hold {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return g.Outbox.RecordAttempts(ctx, owner, os)
}

// TestAttemptsFinishedTogetherAreRecordedTogether: outcomes that finish
// while a record is being written are written in one call after it, each
// event still recorded exactly once with its own outcome.
func TestAttemptsFinishedTogetherAreRecordedTogether(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	const n = 12
	ids := e.addEvents(n, rc.URL)
	g := &groupingOutbox{Outbox: e.db, hold: n - 1}
	cfg := sandbox
	cfg.Workers, cfg.HostConcurrency, cfg.MerchantConcurrency = n, n, n
	d, err := NewDispatcher(cfg, g, e.db, e.clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.d = d
	if got := e.deliverDue(d); got != n {
		t.Fatalf("%d attempts, want %d", got, n)
	}
	if len(g.calls) != 2 || g.calls[0] != 1 || g.calls[1] != n-1 {
		t.Fatalf("records written in calls of %v, want [1 %d]", g.calls, n-1)
	}
	for _, id := range ids {
		ev := e.event(id)
		if ev.State != cashier.EventDelivered || ev.Attempts != 1 || ev.LeaseOwner != "" {
			t.Errorf("%s after delivery: %+v", id, *ev)
		}
		if log := e.attempts(id); len(log) != 1 || log[0].HTTPStatus != 200 {
			t.Errorf("%s: log %+v", id, log)
		}
	}
}

// claimCounter keeps the number of events each claim leased.
type claimCounter struct {
	cashier.Outbox
	mu     sync.Mutex
	claims []int
}

func (c *claimCounter) ClaimEvents(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]cashier.Event, error) {
	evs, err := c.Outbox.ClaimEvents(ctx, owner, now, lease, n)
	c.mu.Lock()
	c.claims = append(c.claims, len(evs))
	c.mu.Unlock()
	return evs, err
}

func (c *claimCounter) leased() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.claims...)
}

// TestEventsCommittedInTheClaimGapAreClaimedTogether: events committed one
// after another shortly after a claim wait for the claim gap and are
// leased by one claim, not one claim each.
func TestEventsCommittedInTheClaimGapAreClaimedTogether(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	c := &claimCounter{Outbox: e.db}
	cfg := sandbox
	cfg.ClaimGap, cfg.PollInterval = 300*time.Millisecond, time.Hour
	d, err := NewDispatcher(cfg, c, e.db, e.clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, "the first claim", func() bool { return len(c.leased()) > 0 })
	for i := range 3 {
		e.addEvent(e.m, fmt.Sprintf("co_%d", i), cashier.CollectionSuccess, rc.URL)
		d.Notify()
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, "three deliveries", func() bool { return len(rc.requests()) == 3 })
	var took []int
	for _, n := range c.leased() {
		if n > 0 {
			took = append(took, n)
		}
	}
	if len(took) != 1 || took[0] != 3 {
		t.Fatalf("claims leased %v events, want all three in one claim", took)
	}
}

// TestADeliveryBacklogQueuesFewWrites: however many workers finish at
// once, a dispatcher has at most one record and one claim waiting for the
// writer, so an API write arriving behind a webhook backlog is not
// estimated to wait for one write per delivery and refused as busy.
func TestADeliveryBacklogQueuesFewWrites(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	const n = 300
	e.addEvents(n, rc.URL)
	cfg := sandbox
	cfg.Workers, cfg.HostConcurrency, cfg.MerchantConcurrency = 32, 32, 32
	d := e.dispatcher(cfg)
	stop := make(chan struct{})
	most := make(chan int)
	go func() {
		m := 0
		for {
			select {
			case <-stop:
				most <- m
				return
			default:
			}
			m = max(m, e.db.WritesAhead())
			time.Sleep(50 * time.Microsecond)
		}
	}()
	if got := e.deliverDue(d); got != n {
		t.Fatalf("%d attempts, want %d", got, n)
	}
	close(stop)
	if m := <-most; m > 2 {
		t.Fatalf("up to %d writes were queued behind the deliveries, want at most a claim and a record", m)
	}
}
