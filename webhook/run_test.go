package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// run starts d.Run and returns a function that stops it and waits.
func run(t *testing.T, d *Dispatcher) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return after its context ended")
		}
	}
	t.Cleanup(stop)
	return stop
}

func TestKilledMidDeliveryIsDeliveredAfterRestart(t *testing.T) {
	e := newEnv(t)
	entered := make(chan struct{}, 1)
	rc := newReceiver(t, func(n int, r *http.Request, w http.ResponseWriter) {
		if n == 0 {
			entered <- struct{}{}
			<-r.Context().Done() // hang until the sender goes away
		}
	})
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)

	cfg := sandbox
	cfg.Owner, cfg.ShutdownGrace, cfg.PollInterval = "instance-1", 20*time.Millisecond, 10*time.Millisecond
	stop := run(t, e.dispatcher(cfg))
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the first attempt never reached the receiver")
	}
	stop() // the process is killed while the receiver hangs

	st := e.event(ev.ID)
	if st.State != cashier.EventPending || st.Attempts != 0 || st.LeaseOwner != "instance-1" {
		t.Fatalf("after the kill: state %s attempts %d lease %q", st.State, st.Attempts, st.LeaseOwner)
	}
	if log := e.attempts(ev.ID); len(log) != 0 {
		t.Fatalf("an interrupted attempt was logged: %+v", log)
	}

	e.reopen()
	cfg.Owner = "instance-2"
	d2 := e.dispatcher(cfg)
	// While instance-1's lease holds, nobody else sends the event.
	if n := e.deliverDue(d2); n != 0 {
		t.Fatalf("event sent under another instance's lease")
	}
	e.clock.Advance(cfg.withDefaults().Lease)
	run(t, d2)
	d2.Notify()
	waitFor(t, "redelivery", func() bool { return e.event(ev.ID).State == cashier.EventDelivered })

	got := rc.requests()
	if len(got) != 2 {
		t.Fatalf("receiver got %d requests, want the interrupted one and the redelivery", len(got))
	}
	if got[1].Header.Get("Service-Event-Id") != ev.ID || string(got[1].Body) != string(ev.Body) {
		t.Errorf("redelivery differs: %s %s", got[1].Header.Get("Service-Event-Id"), got[1].Body)
	}
	if log := e.attempts(ev.ID); len(log) != 1 || log[0].HTTPStatus != 200 {
		t.Errorf("log %+v", log)
	}
}

func TestOrderEventsStayInOrder(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, func(n int, r *http.Request, w http.ResponseWriter) {
		if n < 2 { // requests 0 and 2 are the PENDING event's first two attempts
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	// Deliveries of the two orders run concurrently; making co_2 answer
	// through its own receiver keeps the failure count about co_1 alone.
	other := newReceiver(t, nil)
	pending := e.addEvent(e.m, "co_1", cashier.CollectionPending, rc.URL)
	success := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)
	unrelated := e.addEvent(e.m, "co_2", cashier.CollectionSuccess, other.URL)
	d := e.dispatcher(sandbox)

	ids := func(rs []received) (out []string) {
		for _, r := range rs {
			out = append(out, r.Header.Get("Service-Event-Id"))
		}
		return out
	}
	e.deliverDue(d)
	if got := ids(rc.requests()); len(got) != 1 || got[0] != pending.ID {
		t.Fatalf("first pass sent %v, want only the PENDING event", got)
	}
	if got := ids(other.requests()); len(got) != 1 || got[0] != unrelated.ID {
		t.Errorf("another order's event was held back: %v", got)
	}
	e.advanceToDue(pending.ID)
	e.deliverDue(d)
	if got := ids(rc.requests()); len(got) != 2 || got[1] != pending.ID {
		t.Fatalf("second pass: %v", got)
	}
	if st := e.event(success.ID).State; st != cashier.EventPending || len(e.attempts(success.ID)) != 0 {
		t.Fatalf("SUCCESS attempted while PENDING retries")
	}
	e.advanceToDue(pending.ID)
	e.deliverDue(d) // PENDING goes through, then SUCCESS in the same pass
	got := ids(rc.requests())
	want := []string{pending.ID, pending.ID, pending.ID, success.ID}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("receiver saw %v, want %v", got, want)
	}
	if e.event(success.ID).State != cashier.EventDelivered {
		t.Error("SUCCESS not delivered")
	}
}

func TestSlowReceiverDoesNotDelayOthers(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	slow := newReceiver(t, func(_ int, r *http.Request, _ http.ResponseWriter) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	fast := newReceiver(t, nil)
	beta := e.addMerchant("m_beta", "whk_beta")

	var slowEvents []*cashier.Event
	for i := range 12 {
		slowEvents = append(slowEvents, e.addEvent(e.m, fmt.Sprintf("co_a%d", i), cashier.CollectionSuccess, slow.URL))
	}
	// Written last: it sits behind the whole backlog of the slow receiver.
	fastEvent := e.addEvent(beta, "co_b", cashier.CollectionSuccess, fast.URL)

	cfg := sandbox
	cfg.Workers, cfg.HostConcurrency, cfg.PollInterval = 4, 2, 10*time.Millisecond
	d := e.dispatcher(cfg)
	run(t, d)
	d.Notify()

	waitFor(t, "merchant B's delivery", func() bool { return e.event(fastEvent.ID).State == cashier.EventDelivered })
	if n := len(slow.requests()); n > cfg.HostConcurrency {
		t.Errorf("%d requests in flight at the slow receiver, cap %d", n, cfg.HostConcurrency)
	}
	for _, ev := range slowEvents {
		if e.event(ev.ID).State != cashier.EventPending {
			t.Fatalf("slow receiver's event settled while it hangs")
		}
	}

	// Once it answers, its backlog, queued in memory, drains at its pace.
	close(release)
	waitFor(t, "the slow receiver's backlog", func() bool {
		for _, ev := range slowEvents {
			if e.event(ev.ID).State != cashier.EventDelivered {
				return false
			}
		}
		return true
	})
	seen := map[string]int{}
	for _, r := range slow.requests() {
		seen[r.Header.Get("Service-Event-Id")]++
	}
	for _, ev := range slowEvents {
		if seen[ev.ID] != 1 {
			t.Errorf("event %s reached the receiver %d times", ev.ID, seen[ev.ID])
		}
	}
}

func TestNotifyOnCommit(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	cfg := sandbox
	cfg.PollInterval = time.Hour // only a wake-up can send the event in time
	d := e.dispatcher(cfg)
	run(t, d)
	time.Sleep(20 * time.Millisecond) // let the first, empty poll pass
	st := NotifyOnCommit(e.db, d)

	now := e.clock.Now()
	ev, _ := e.writer.CollectionEvent(collection(e.m, "co_1", cashier.CollectionSuccess, now), &cashier.Cashier{WebhookURL: rc.URL}, now)
	err := st.Update(context.Background(), func(tx cashier.Tx) error { return tx.AddEvent(context.Background(), ev) })
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "delivery after the commit", func() bool { return e.event(ev.ID).State == cashier.EventDelivered })

	// A rolled-back transaction's event never existed: nothing is sent.
	ev2, _ := e.writer.CollectionEvent(collection(e.m, "co_2", cashier.CollectionSuccess, now), &cashier.Cashier{WebhookURL: rc.URL}, now)
	err = st.Update(context.Background(), func(tx cashier.Tx) error {
		if err := tx.AddEvent(context.Background(), ev2); err != nil {
			return err
		}
		return cashier.Errorf(cashier.EInvalidStatus, "changed concurrently")
	})
	if cashier.ErrorCode(err) != cashier.EInvalidStatus {
		t.Fatalf("Update: %v", err)
	}
	time.Sleep(20 * time.Millisecond)
	if len(rc.requests()) != 1 {
		t.Errorf("receiver got %d requests, want 1", len(rc.requests()))
	}
}

func TestStaleQueuedEventIsNotSentUnderAnExpiringLease(t *testing.T) {
	e := newEnv(t)
	entered, release := make(chan struct{}, 2), make(chan struct{})
	rc := newReceiver(t, func(n int, _ *http.Request, _ http.ResponseWriter) {
		if n == 0 {
			entered <- struct{}{}
			<-release
		}
	})
	first := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)
	second := e.addEvent(e.m, "co_2", cashier.CollectionSuccess, rc.URL)
	cfg := sandbox
	cfg.Workers, cfg.HostConcurrency = 2, 1 // the second event queues behind the first
	d := e.dispatcher(cfg)
	lease, timeout := cfg.withDefaults().Lease, cfg.withDefaults().Timeout

	done := make(chan int, 1)
	go func() { n, _ := d.DeliverDue(context.Background()); done <- n }()
	<-entered
	// The first attempt hangs until the second event's lease is too short
	// to cover an attempt of its own.
	e.clock.Advance(lease - timeout + time.Second)
	close(release)
	if n := <-done; n != 1 {
		t.Fatalf("pass made %d attempts, want only the first event's", n)
	}
	if st := e.event(second.ID); st.State != cashier.EventPending || st.Attempts != 0 {
		t.Fatalf("second event: %s, %d attempts", st.State, st.Attempts)
	}
	e.clock.Advance(timeout) // the old lease has run out: a fresh claim sends it
	if n := e.deliverDue(d); n != 1 || e.event(second.ID).State != cashier.EventDelivered {
		t.Fatalf("second event not delivered after its lease ran out (%d attempts)", n)
	}
	if e.event(first.ID).State != cashier.EventDelivered {
		t.Error("first event not delivered")
	}
}

// TestBurstIsDeliveredWithoutPolling: a backlog of orders' three events
// each to one receiver that answers at once is delivered completely by the
// dispatcher's own wake-ups (a delivery that leaves its host short of
// queued events, or makes the order's next event due, claims again), with
// no poll: the poll interval is an hour. Each event arrives once, and each
// order's events in order. Before, claims came only per poll once the
// first claims were delivered, so such a burst trickled out a host's share
// per poll.
func TestBurstIsDeliveredWithoutPolling(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	const orders = 200
	statuses := []cashier.CollectionStatus{cashier.CollectionPending, cashier.CollectionSuccess, cashier.CollectionExpired}
	e.update(func(tx cashier.Tx) error {
		now := e.clock.Now()
		for _, st := range statuses {
			for i := range orders {
				ev, err := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_%03d", i), st, now), &cashier.Cashier{WebhookURL: rc.URL}, now)
				if err != nil {
					return err
				}
				if err := tx.AddEvent(context.Background(), ev); err != nil {
					return err
				}
			}
		}
		return nil
	})
	cfg := sandbox
	cfg.PollInterval = time.Hour
	run(t, e.dispatcher(cfg)) // Run claims once at start; nothing else wakes it

	deadline := time.Now().Add(60 * time.Second)
	for len(rc.requests()) < len(statuses)*orders {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events delivered; the rest wait for a poll", len(rc.requests()), len(statuses)*orders)
		}
		time.Sleep(10 * time.Millisecond)
	}
	seen := map[string]bool{}
	next := map[string]int{} // order id → index of the status it must see next
	for _, r := range rc.requests() {
		var b struct{ EventID, OrderID, Status string }
		if err := json.Unmarshal(r.Body, &b); err != nil {
			t.Fatal(err)
		}
		if seen[b.EventID] {
			t.Fatalf("event %s delivered twice", b.EventID)
		}
		seen[b.EventID] = true
		if want := statuses[next[b.OrderID]]; b.Status != string(want) {
			t.Fatalf("order %s: got %s, want %s next", b.OrderID, b.Status, want)
		}
		next[b.OrderID]++
	}
	waitFor(t, "every delivery recorded", func() bool {
		evs, err := e.db.Events(context.Background(), cashier.EventFilter{State: cashier.EventDelivered, Limit: 10 * orders})
		return err == nil && len(evs) == len(statuses)*orders
	})
}
