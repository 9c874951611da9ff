package webhook

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// TestHangingHostSlowsOnlyItself: one merchant's receiver hangs with
// 10,000 events queued for it; another merchant's event, written after
// them, is delivered while every attempt at the hanging host is still
// hanging, i.e. without waiting for any of them to time out.
func TestHangingHostSlowsOnlyItself(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	var hanging, finished atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		finished.Add(1)
	}))
	defer slow.Close()
	delivered := make(chan time.Time, 1)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case delivered <- time.Now():
		default:
		}
	}))
	defer fast.Close()

	ctx := context.Background()
	const queued = 10_000
	e.update(func(tx cashier.Tx) error {
		now := e.clock.Now()
		for i := 0; i < queued; i++ {
			ev, err := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_h%05d", i), cashier.CollectionPending, now),
				&cashier.Cashier{ID: "c_1", MerchantID: e.m.ID, WebhookURL: slow.URL + "/hook"}, now)
			if err != nil {
				return err
			}
			if err := tx.AddEvent(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	beta := e.addMerchant("m_beta", "whk_beta")

	d := e.dispatcher(Config{Sandbox: true, Timeout: time.Minute, Lease: 5 * time.Minute})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	defer func() {
		close(release)
		stop()
		<-done
	}()

	// The hanging host takes its concurrent slots first...
	deadline := time.Now().Add(30 * time.Second)
	for hanging.Load() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d attempts reached the hanging host", hanging.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// ...then another merchant's event arrives.
	ev := e.addEvent(beta, "co_beta", cashier.CollectionSuccess, fast.URL+"/hook")
	d.Notify()
	select {
	case <-delivered:
	case <-time.After(30 * time.Second):
		t.Fatalf("another merchant's event was not delivered while one host hangs with %d events", queued)
	}
	if finished.Load() != 0 {
		t.Fatalf("%d hanging attempts ended before the other event went out; the test proves nothing", finished.Load())
	}
	// Recording waits its turn at the store's writer, behind claims that
	// read the whole backlog (slow under the race detector).
	waitUntil(t, "the delivery recorded", 60*time.Second, func() bool { return e.event(ev.ID).State == cashier.EventDelivered })
	if n := hanging.Load(); n > int64(d.cfg.HostConcurrency) {
		t.Fatalf("%d concurrent attempts at one host, limit %d", n, d.cfg.HostConcurrency)
	}
}

// TestMerchantWithHangingHostsSlowsOnlyItself: one merchant spreads its
// orders' webhooks over six receivers on different hosts, all hanging (the
// URL is the merchant's to change, and a wildcard DNS name gives any number
// of hosts). Another merchant's webhook, written after them, still arrives
// within 2 s, while every one of the first merchant's attempts hangs.
func TestMerchantWithHangingHostsSlowsOnlyItself(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	var hanging, finished atomic.Int64
	var urls []string
	for range 6 {
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hanging.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			finished.Add(1)
		}))
		defer slow.Close()
		urls = append(urls, slow.URL+"/hook") // its own port: its own host
	}
	delivered := make(chan time.Time, 1)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case delivered <- time.Now():
		default:
		}
	}))
	defer fast.Close()

	ctx := context.Background()
	e.update(func(tx cashier.Tx) error {
		now := e.clock.Now()
		for i := range 60 {
			ev, err := e.writer.CollectionEvent(collection(e.m, fmt.Sprintf("co_a%02d", i), cashier.CollectionPending, now),
				&cashier.Cashier{ID: "c_1", MerchantID: e.m.ID, WebhookURL: urls[i%len(urls)]}, now)
			if err != nil {
				return err
			}
			if err := tx.AddEvent(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	beta := e.addMerchant("m_beta", "whk_beta")

	cfg := Config{Sandbox: true, Timeout: time.Minute, Lease: 5 * time.Minute} // default workers and limits
	d := e.dispatcher(cfg)
	limit := int64(d.cfg.MerchantConcurrency)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	defer func() {
		close(release)
		stop()
		<-done
	}()

	// The first merchant's receivers take every slot it may have...
	deadline := time.Now().Add(30 * time.Second)
	for hanging.Load() < limit {
		if time.Now().After(deadline) {
			t.Fatalf("only %d attempts reached the hanging hosts", hanging.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// ...then another merchant's event is written.
	ev := e.addEvent(beta, "co_beta", cashier.CollectionSuccess, fast.URL+"/hook")
	written := time.Now()
	d.Notify()
	select {
	case at := <-delivered:
		t.Logf("other merchant's webhook arrived %s after it was written", at.Sub(written).Round(time.Millisecond))
	case <-time.After(2 * time.Second):
		t.Fatalf("another merchant's webhook did not arrive within 2 s while one merchant's %d hosts hang", len(urls))
	}
	if finished.Load() != 0 {
		t.Fatalf("%d hanging attempts ended before the other webhook went out; the test proves nothing", finished.Load())
	}
	// Recording waits its turn at the store's writer, behind claims that
	// read the whole backlog (slow under the race detector).
	waitUntil(t, "the delivery recorded", 60*time.Second, func() bool { return e.event(ev.ID).State == cashier.EventDelivered })
	if n := hanging.Load(); n > limit {
		t.Fatalf("%d concurrent attempts for one merchant, limit %d", n, limit)
	}
}

// TestMerchantsHangingHostLeavesItsOtherHosts: fairness is per merchant,
// then per host within it: a merchant's hanging receiver takes only its
// host's share of the merchant's slots, and the same merchant's event for
// another receiver still goes out while it hangs.
func TestMerchantsHangingHostLeavesItsOtherHosts(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	var hanging, finished atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		finished.Add(1)
	}))
	defer slow.Close()
	fast := newReceiver(t, nil)
	for i := range 100 {
		e.addEvent(e.m, fmt.Sprintf("co_s%03d", i), cashier.CollectionPending, slow.URL)
	}
	d := e.dispatcher(Config{Sandbox: true, Timeout: time.Minute, Lease: 5 * time.Minute})
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	defer func() {
		close(release)
		stop()
		<-done
	}()
	waitUntil(t, "the hanging host's slots taken", 30*time.Second, func() bool { return hanging.Load() >= int64(d.cfg.HostConcurrency) })

	ev := e.addEvent(e.m, "co_fast", cashier.CollectionSuccess, fast.URL) // same merchant, another host
	d.Notify()
	waitUntil(t, "the merchant's event for its other host", 30*time.Second, func() bool { return len(fast.requests()) == 1 })
	if finished.Load() != 0 {
		t.Fatalf("%d hanging attempts ended first; the test proves nothing", finished.Load())
	}
	if n := hanging.Load(); n > int64(d.cfg.HostConcurrency) {
		t.Fatalf("%d concurrent attempts at one host, limit %d", n, d.cfg.HostConcurrency)
	}
	waitUntil(t, "the delivery recorded", 60*time.Second, func() bool { return e.event(ev.ID).State == cashier.EventDelivered })
}
