package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

func TestDeliverSignedEvent(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL+"/hook")
	d := e.dispatcher(sandbox)

	if n := e.deliverDue(d); n != 1 {
		t.Fatalf("DeliverDue made %d attempts, want 1", n)
	}
	got := rc.requests()
	if len(got) != 1 {
		t.Fatalf("receiver got %d requests, want 1", len(got))
	}
	r := got[0]
	h := sign.HeaderNames("")
	wantTime := strconv.FormatInt(t0.UnixMilli(), 10)
	for name, want := range map[string]string{
		"Content-Type":  "application/json",
		h.Event:         "payment",
		h.EventID:       ev.ID,
		h.RequestTime:   wantTime,
		"Service-Event": "payment",
	} {
		if g := r.Header.Get(name); g != want {
			t.Errorf("header %s = %q, want %q", name, g, want)
		}
	}
	if r.Method != http.MethodPost {
		t.Errorf("method %s", r.Method)
	}
	if !bytes.Equal(r.Body, ev.Body) {
		t.Fatalf("body %s\nwant %s", r.Body, ev.Body)
	}
	var fields map[string]any
	if err := json.Unmarshal(r.Body, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["eventId"] != ev.ID || fields["eventType"] != "payment.success" || fields["status"] != "SUCCESS" {
		t.Errorf("body fields %v", fields)
	}

	v2, plain := r.Header.Get(h.SignatureV2), r.Header.Get(h.Signature)
	if err := sign.VerifyWebhook(sign.WebhookRaw, testWebhookKey, r.Body, wantTime, v2); err != nil {
		t.Errorf("V2 signature: %v", err)
	}
	if err := sign.VerifyWebhookBody(testWebhookKey, r.Body, plain); err != nil {
		t.Errorf("plain signature: %v", err)
	}
	if sign.VerifyWebhook(sign.WebhookRaw, "wrong key", r.Body, wantTime, v2) == nil || sign.VerifyWebhookBody("wrong key", r.Body, plain) == nil {
		t.Error("signatures verify under a wrong key")
	}
	changed := bytes.Replace(r.Body, []byte(`"100.00"`), []byte(`"900.00"`), 1)
	if bytes.Equal(changed, r.Body) {
		t.Fatal("test did not change the body")
	}
	if sign.VerifyWebhook(sign.WebhookRaw, testWebhookKey, changed, wantTime, v2) == nil || sign.VerifyWebhookBody(testWebhookKey, changed, plain) == nil {
		t.Error("signatures verify over a changed body")
	}
	if sign.VerifyWebhook(sign.WebhookRaw, testWebhookKey, r.Body, strconv.FormatInt(t0.UnixMilli()+1, 10), v2) == nil {
		t.Error("V2 signature verifies with another request time")
	}

	stored := e.event(ev.ID)
	if stored.State != cashier.EventDelivered || !stored.DeliveredAt.Equal(t0) || stored.Attempts != 1 {
		t.Errorf("stored event: state %s delivered %v attempts %d", stored.State, stored.DeliveredAt, stored.Attempts)
	}
	log := e.attempts(ev.ID)
	if len(log) != 1 || log[0].HTTPStatus != 200 || log[0].Error != "" || !log[0].NextAttemptAt.IsZero() || log[0].Latency <= 0 {
		t.Errorf("delivery log %+v", log)
	}
	if n := e.deliverDue(d); n != 0 || len(rc.requests()) != 1 {
		t.Errorf("a delivered event went out again")
	}
}

func TestHeaderPrefixAndAny2xx(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, func(_ int, _ *http.Request, w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) })
	ev := e.addEvent(e.m, "co_1", cashier.CollectionPending, rc.URL)
	cfg := sandbox
	cfg.HeaderPrefix = "Acme"
	e.deliverDue(e.dispatcher(cfg))
	r := rc.requests()[0]
	if r.Header.Get("Acme-Event-Id") != ev.ID || r.Header.Get("Acme-Signature-V2") == "" || r.Header.Get("Service-Event-Id") != "" {
		t.Errorf("headers %v", r.Header)
	}
	if st := e.event(ev.ID).State; st != cashier.EventDelivered {
		t.Errorf("204 left the event %s", st)
	}
}

// advanceToDue moves the clock to the event's next attempt.
func (e *env) advanceToDue(id string) time.Time {
	e.t.Helper()
	ev := e.event(id)
	if ev.State != cashier.EventPending {
		e.t.Fatalf("event %s is %s, not pending", id, ev.State)
	}
	e.clock.Set(ev.NextAttemptAt)
	return ev.NextAttemptAt
}

func TestReceiverDownThenUp(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, func(n int, _ *http.Request, w http.ResponseWriter) {
		if n < 3 {
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		}
	})
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, rc.URL)
	d := e.dispatcher(sandbox)

	e.deliverDue(d)
	for range 3 {
		before := len(rc.requests())
		// Not yet due: nothing goes out.
		e.clock.Set(e.event(ev.ID).NextAttemptAt.Add(-time.Second))
		if n := e.deliverDue(d); n != 0 {
			t.Fatalf("retry went out %d early", n)
		}
		e.advanceToDue(ev.ID)
		if n := e.deliverDue(d); n != 1 || len(rc.requests()) != before+1 {
			t.Fatalf("due retry: %d attempts", n)
		}
	}
	got := rc.requests()
	if len(got) != 4 {
		t.Fatalf("receiver got %d requests, want 4", len(got))
	}
	for i, r := range got {
		if r.Header.Get("Service-Event-Id") != ev.ID || !bytes.Equal(r.Body, ev.Body) {
			t.Errorf("request %d: id %s body %s", i, r.Header.Get("Service-Event-Id"), r.Body)
		}
	}
	// Each attempt is signed at its own time.
	if got[0].Header.Get("Service-Request-Time") == got[3].Header.Get("Service-Request-Time") {
		t.Error("retries reuse the first request time")
	}
	log := e.attempts(ev.ID)
	if len(log) != 4 {
		t.Fatalf("log has %d attempts", len(log))
	}
	for i, a := range log[:3] {
		if a.Attempt != i+1 || a.HTTPStatus != 503 || !strings.Contains(a.Error, "maintenance") || a.NextAttemptAt.IsZero() {
			t.Errorf("attempt %d: %+v", i+1, a)
		}
	}
	if last := log[3]; last.HTTPStatus != 200 || last.Error != "" || !last.NextAttemptAt.IsZero() {
		t.Errorf("last attempt %+v", last)
	}
	if st := e.event(ev.ID).State; st != cashier.EventDelivered {
		t.Errorf("state %s", st)
	}
	e.clock.Advance(48 * time.Hour)
	if e.deliverDue(d); len(rc.requests()) != 4 {
		t.Error("delivered event sent again")
	}
}

func TestReceiverNeverUp(t *testing.T) {
	e := newEnv(t)
	dead := newReceiver(t, nil)
	dead.Close() // connection refused from now on
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, dead.URL)
	d := e.dispatcher(sandbox)

	e.deliverDue(d)
	first := t0
	s := DefaultSchedule
	for i, off := range s.Offsets {
		due := e.advanceToDue(ev.ID)
		lo := first.Add(time.Duration(float64(off) * 0.9))
		hi := first.Add(min(time.Duration(float64(off)*1.1), 24*time.Hour))
		if due.Before(lo.Truncate(time.Millisecond)) || due.After(hi) {
			t.Errorf("retry %d due %s after the first attempt, want within [%s, %s]", i+1, due.Sub(first), lo.Sub(first), hi.Sub(first))
		}
		if n := e.deliverDue(d); n != 1 {
			t.Fatalf("retry %d: %d attempts", i+1, n)
		}
	}
	ev2 := e.event(ev.ID)
	if ev2.State != cashier.EventFailed || ev2.Attempts != 6 || ev2.LastError == "" {
		t.Fatalf("after the schedule: %+v", ev2)
	}
	log := e.attempts(ev.ID)
	if len(log) != 6 {
		t.Fatalf("log has %d attempts, want 1 + 5 retries", len(log))
	}
	for i, a := range log {
		if a.HTTPStatus != 0 || a.Error == "" {
			t.Errorf("attempt %d: %+v", i+1, a)
		}
		if a.At.Sub(first) > 24*time.Hour {
			t.Errorf("attempt %d at %s, beyond 24 h", i+1, a.At.Sub(first))
		}
	}
	if !log[5].NextAttemptAt.IsZero() {
		t.Errorf("final attempt schedules another: %v", log[5].NextAttemptAt)
	}
	e.clock.Advance(72 * time.Hour)
	if n := e.deliverDue(d); n != 0 {
		t.Errorf("failed event retried: %d", n)
	}

	// An operator's resend keeps the id and body and earlier attempts, and
	// starts a fresh schedule (the receiver is still down here).
	if err := d.Resend(context.Background(), ev.ID); err != nil {
		t.Fatal(err)
	}
	if n := e.deliverDue(d); n != 1 {
		t.Fatalf("resend: %d attempts", n)
	}
	got, log, err := d.Deliveries(context.Background(), ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != cashier.EventPending || got.Attempts != 1 || len(log) != 7 || log[6].Attempt != 1 {
		t.Fatalf("after resend: state %s attempts %d log %d", got.State, got.Attempts, len(log))
	}
	if d := log[6].NextAttemptAt.Sub(log[6].At); d < 54*time.Second || d > 66*time.Second {
		t.Errorf("resent event's first retry in %s, want the schedule's 1 min", d)
	}
	// The next retry is measured from the resend's first attempt, not the
	// original one three days earlier.
	e.advanceToDue(ev.ID)
	e.deliverDue(d)
	log = e.attempts(ev.ID)
	if d := log[7].NextAttemptAt.Sub(log[6].At); d < 4*time.Minute+30*time.Second || d > 5*time.Minute+30*time.Second {
		t.Errorf("second retry after resend due %s after its first attempt, want about 5 min", d)
	}
}
