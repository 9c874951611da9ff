package webhook

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func TestTimeoutIsAFailure(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, func(_ int, r *http.Request, w http.ResponseWriter) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)
	cfg := sandbox
	cfg.Timeout = 50 * time.Millisecond
	start := time.Now()
	e.deliverDue(e.dispatcher(cfg))
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("attempt took %s with a 50ms timeout", el)
	}
	log := e.attempts(ev.ID)
	if len(log) != 1 || log[0].HTTPStatus != 0 || !strings.Contains(log[0].Error, "no response within 50ms") {
		t.Errorf("log %+v", log)
	}
	if e.event(ev.ID).State != cashier.EventPending {
		t.Error("timed-out event not scheduled for a retry")
	}
}

func TestResponseBodyIsCapped(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, func(_ int, _ *http.Request, w http.ResponseWriter) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, strings.Repeat("x", 100_000))
	})
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)
	e.deliverDue(e.dispatcher(sandbox))
	log := e.attempts(ev.ID)
	if len(log) != 1 || log[0].HTTPStatus != 500 {
		t.Fatalf("log %+v", log)
	}
	if n := len(log[0].Error); n > 4096+len("HTTP 500: ") || !strings.HasPrefix(log[0].Error, "HTTP 500: xxx") {
		t.Errorf("logged error of %d bytes: %.40q", n, log[0].Error)
	}
}

func TestUnknownMerchantFails(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	ghost := &cashier.Merchant{ID: "m_gone", WebhookKey: "k"}
	ev := e.addEvent(ghost, "co_1", cashier.CollectionSuccess, rc.URL)
	e.deliverDue(e.dispatcher(sandbox))
	st := e.event(ev.ID)
	if st.State != cashier.EventFailed || st.LastError != "merchant not found" || len(rc.requests()) != 0 {
		t.Errorf("state %s error %q requests %d", st.State, st.LastError, len(rc.requests()))
	}
}

func TestInstancesShareTheOutbox(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	const n = 60
	ids := e.addEvents(n, rc.URL)
	for i := range 3 {
		cfg := sandbox
		cfg.Owner, cfg.Workers, cfg.PollInterval = fmt.Sprintf("instance-%d", i), 4, 5*time.Millisecond
		run(t, e.dispatcher(cfg))
	}
	delivered := func() int {
		evs, err := e.db.Events(context.Background(), cashier.EventFilter{State: cashier.EventDelivered, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	waitFor(t, "all deliveries", func() bool { return delivered() == n })
	time.Sleep(50 * time.Millisecond) // room for a wrong duplicate to show up
	seen := map[string]int{}
	for _, r := range rc.requests() {
		seen[r.Header.Get("Service-Event-Id")]++
	}
	for _, id := range ids {
		if seen[id] != 1 {
			t.Errorf("event %s delivered %d times", id, seen[id])
		}
	}
}
