package http

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// envWriteQueue is the store's write queue bound in newEnv (0: default).
var envWriteQueue int

// holdRequests opens n connections that send a request's headers but not
// its body: each occupies a place among the requests in progress until
// its connection closes.
func holdRequests(t testing.TB, e *env, n int) (release func()) {
	t.Helper()
	var conns []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		// Valid key and time, so the handler goes on to read the body.
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"+
			"Service-API-Key: %s\r\nService-Request-Time: %s\r\n\r\n{", pathCollection, apiKey, ms(e.clock.Now()))
	}
	s := e.srv.Config.Handler.(*server)
	waitFor(t, func() bool { return s.admit.n.Load() == int64(n) })
	return func() {
		for _, c := range conns {
			c.Close()
		}
		waitFor(t, func() bool { return s.admit.n.Load() == 0 })
	}
}

func waitFor(t testing.TB, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// Beyond MaxInFlight requests in progress, a request is refused at once
// with 503, Retry-After and the overloaded code of its endpoint family, and
// does nothing; once the others finish, requests are served again.
func TestOverloadRefusesBeyondInFlight(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxInFlight = 2 })
	release := holdRequests(t, e, 2)
	for _, rq := range []struct {
		req  request
		code string
	}{
		{request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "REFUSED"}), secretKey, ms(e.clock.Now()))}, "000503"},
		{request{method: http.MethodGet, path: "/admin/api/v2/pub/coin/list"}, "ERROR_000503"},
	} {
		start := time.Now()
		r := e.do(rq.req)
		expectError(t, r, http.StatusServiceUnavailable, rq.code, "busy")
		if r.header.Get("Retry-After") != "1" {
			t.Fatalf("503 without Retry-After: 1: %v", r.header)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("refusal took %v", d)
		}
	}
	if n, _ := e.counts(); n != 0 {
		t.Fatalf("%d orders stored while refusing", n)
	}
	release()
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "REFUSED"}), secretKey, ms(e.clock.Now()))})
	checkEnvelope(t, r, "200")
}

// When the store's write queue is full, a create is refused at once with
// 503 and Retry-After and stores nothing (background writes would wait
// instead; see sqlite.TestGroupCommitAdmission).
func TestOverloadRefusesWhenWriteQueueFull(t *testing.T) {
	envWriteQueue = 1
	defer func() { envWriteQueue = 0 }()
	e := newEnv(t, nil)
	db := e.store

	// Hold the writer, then fill its one-place queue.
	running, gate := make(chan struct{}), make(chan struct{})
	held := make(chan error, 2)
	go func() {
		held <- db.Update(t.Context(), func(cashier.Tx) error { close(running); <-gate; return nil })
	}()
	<-running
	go func() { held <- db.Update(t.Context(), func(cashier.Tx) error { return nil }) }()
	waitFor(t, func() bool { return db.WritesWaiting() == 1 })

	start := time.Now()
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "Q1"}), secretKey, ms(e.clock.Now()))})
	expectError(t, r, http.StatusServiceUnavailable, "000503", "busy")
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("503 without Retry-After: 1: %v", r.header)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("refusal took %v", d)
	}
	close(gate)
	for i := 0; i < 2; i++ {
		if err := <-held; err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := e.counts(); n != 0 {
		t.Fatalf("%d orders stored by a refused request", n)
	}
	r = e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "Q1"}), secretKey, ms(e.clock.Now()))})
	checkEnvelope(t, r, "200")
}
