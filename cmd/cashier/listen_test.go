package main

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// hookRecorder is a webhook receiver keeping each request it verified
// under key: body and signature headers by event id, event types by order.
type hookRecorder struct {
	key    string
	mu     sync.Mutex
	bodies map[string][]byte // eventId → body
	sigs   map[string]string // eventId → Service-Signature (covers the body alone)
	types  []string          // eventType of each verified request, in arrival order
	bad    int               // requests that did not verify
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ev, body, err := client.VerifyWebhook(r, h.key)
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.bad++
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	h.bodies[ev.ID] = body
	h.sigs[ev.ID] = r.Header.Get("Service-Signature")
	h.types = append(h.types, ev.EventType+" "+ev.OrderNo)
}

func (h *hookRecorder) has(eventType string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.types {
		if strings.HasPrefix(s, eventType+" ") {
			return true
		}
	}
	return false
}

func serveHook(t *testing.T, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/hook"
}

// TestListenAndTrigger: `cashier trigger` drives sandbox orders to each
// named event, and `cashier listen --forward-to` brings every one of them
// to a local receiver, verified under the merchant's webhook key, with the
// same body and body signature as the real delivery to the cashier's URL
// (which stays as it was), one printed line per event with the receiver's
// status; Ctrl-C stops it cleanly. On PostgreSQL the payout events are
// left out: trigger approves the sandbox's reviewed payouts through the
// SQLite store only, as `cashier payout approve` does.
func TestListenAndTrigger(t *testing.T) {
	real := &hookRecorder{bodies: map[string][]byte{}, sigs: map[string]string{}}
	realURL := serveHook(t, real)
	tw := newWorld(t, worldOpts{OneProcess: true, Env: databaseEnv(), Service: []string{"--tron-block-interval", "300ms", "--webhook-url", realURL}})
	data, sb, info := tw.Data, tw.Svc, tw.Info
	defer sb.stop(t)
	real.mu.Lock()
	real.key = info.WebhookKey
	real.mu.Unlock()
	fwd := &hookRecorder{key: info.WebhookKey, bodies: map[string][]byte{}, sigs: map[string]string{}}
	fwdURL := serveHook(t, fwd)

	// Refusals first: no receiver, no event name.
	for _, args := range [][]string{{"listen", "--data", data}, {"trigger", "--data", data}, {"trigger", "payment.refunded", "--data", data}} {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), databaseEnv()...)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("%v succeeded: %s", args, out)
		}
	}

	listen := start(t, databaseEnv(), "listen", "--data", data, "--forward-to", fwdURL)
	waitFor(t, "listen", time.Minute, func() bool { return strings.Contains(listen.stderr.String(), "Ctrl-C stops") })

	events := []string{"payment.success", "payment.expired", "payout.success", "refund.success"}
	if len(databaseEnv()) > 0 {
		events = events[:2]
	}
	for _, ev := range events {
		cmd := exec.Command(binary, "trigger", ev, "--data", data)
		cmd.Env = append(os.Environ(), databaseEnv()...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("trigger %s: %v\n%s", ev, err, out)
		}
		waitFor(t, "the forwarded "+ev, time.Minute, func() bool { return fwd.has(ev) })
		waitFor(t, "the real "+ev, time.Minute, func() bool { return real.has(ev) })
	}

	// Ctrl-C, then what it printed.
	listen.cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-listen.done:
		listen.done <- err // stop, if called, sees it
		if err != nil {
			t.Fatalf("listen after Ctrl-C: %v\n%s", err, listen.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("listen did not stop on Ctrl-C")
	}
	if !strings.Contains(listen.stderr.String(), "stopped") {
		t.Errorf("listen said: %s", listen.stderr.String())
	}

	// Every forwarded event is byte for byte a real delivery, and the
	// cashier's own deliveries went on to its URL.
	fwd.mu.Lock()
	real.mu.Lock()
	if fwd.bad != 0 || real.bad != 0 {
		t.Errorf("requests that did not verify: forwarded %d, real %d", fwd.bad, real.bad)
	}
	for id, body := range fwd.bodies {
		if !bytes.Equal(body, real.bodies[id]) || fwd.sigs[id] != real.sigs[id] || fwd.sigs[id] == "" {
			t.Errorf("event %s forwarded as %s (signature %s), delivered as %s (signature %s)", id, body, fwd.sigs[id], real.bodies[id], real.sigs[id])
		}
	}
	forwarded := len(fwd.bodies)
	fwd.mu.Unlock()
	real.mu.Unlock()

	lines := strings.Split(strings.TrimSpace(listen.stdout.String()), "\n")
	if len(lines) != forwarded {
		t.Errorf("listen printed %d lines for %d events:\n%s", len(lines), forwarded, listen.stdout.String())
	}
	for _, ev := range events {
		if !strings.Contains(listen.stdout.String(), ev) {
			t.Errorf("listen printed no %s line:\n%s", ev, listen.stdout.String())
		}
	}
	for _, l := range lines {
		if !strings.Contains(l, "-> 200 (") {
			t.Errorf("a line without the receiver's 200: %q", l)
		}
	}

}
