package http

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/shed"
	"github.com/stablecashier/cashier/sqlite"
)

// envWriteQueue is the store's write queue bound in newEnv (0: default).
var envWriteQueue int

// admitted is the number of write requests admitted and not yet answered.
// admit.InFlight counts a request from its arrival, so it also counts one still
// being decided, which may yet be refused.
func admitted(s *server) int { return s.admit.Writes() }

// holdRequests puts n creates in progress and keeps them there until
// release: it takes every CPU slot itself, so the creates, admitted and
// their bodies read, wait for one. Released, they complete (orders
// HELD-0 … HELD-n-1).
func holdRequests(t testing.TB, e *env, n int) (release func()) {
	t.Helper()
	s := e.srv.Config.Handler.(*server)
	for range shed.GateSize() {
		s.gate.Acquire()
	}
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock),
		client.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}))
	done := make(chan error, n)
	for i := range n {
		go func() {
			_, err := cli.CreateCollection(context.Background(), client.CollectionRequest{CashierID: cashierID,
				OrderNo: fmt.Sprintf("HELD-%d", i), Amount: "25.00", Symbol: "USDT", ChainID: "ETH"})
			done <- err
		}()
	}
	waitFor(t, func() bool { return admitted(s) == n })
	released := false
	return func() {
		if released {
			return
		}
		released = true
		for range shed.GateSize() {
			s.gate.Release()
		}
		for range n {
			if err := <-done; err != nil {
				t.Errorf("held create: %v", err)
			}
		}
		waitFor(t, func() bool { return s.admit.InFlight() == 0 })
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
	// The refused create kept its place: sent again after its Retry-After
	// into a writer as busy as before, it waits for room instead of being
	// refused again.
	running, gate = make(chan struct{}), make(chan struct{})
	go func() {
		held <- db.Update(t.Context(), func(cashier.Tx) error { close(running); <-gate; return nil })
	}()
	<-running
	go func() { held <- db.Update(t.Context(), func(cashier.Tx) error { return nil }) }()
	waitFor(t, func() bool { return db.WritesWaiting() == 1 })
	time.Sleep(time.Second) // as Retry-After said
	answer := make(chan response, 1)
	go func() {
		answer <- e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "Q1"}), secretKey, ms(e.clock.Now()))})
	}()
	s := e.srv.Config.Handler.(*server)
	waitFor(t, func() bool { return admitted(s) == 1 }) // waiting for room
	close(gate)
	for i := 0; i < 2; i++ {
		if err := <-held; err != nil {
			t.Fatal(err)
		}
	}
	checkEnvelope(t, <-answer, "200")
	r = e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "Q2"}), secretKey, ms(e.clock.Now()))})
	checkEnvelope(t, r, "200")
}

// envWriteWait is the store's MaxWriteWait in newEnv: off unless a test
// is about it, so that tests of other things, some with bursts of
// concurrent writes under the race detector, are never refused for it.
var envWriteWait time.Duration = -1

// gatedStore slows the write path down for a test: every Update, once its
// function has done its work, waits for hold (inside the writer, so that
// the writes behind it queue).
type gatedStore struct {
	*sqlite.DB
	hold    func()
	entered *atomic.Int64
}

func (g gatedStore) Update(ctx context.Context, fn func(cashier.Tx) error) error {
	return g.DB.Update(ctx, func(tx cashier.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		g.entered.Add(1)
		g.hold()
		return nil
	})
}

// retryAfterCheck counts 503 answers and those of them lacking a
// Retry-After of 1 to 10 seconds.
type retryAfterCheck struct {
	refused, without atomic.Int64
}

func (c *retryAfterCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusServiceUnavailable {
		c.refused.Add(1)
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n < 1 || n > 10 {
			c.without.Add(1)
		}
	}
	return resp, err
}

// More creates than the writer can take in the admitted wait: the writer
// is slowed by a hook to at least 30 ms per write (the first API write,
// held that long, sets the store's estimate) and then held; 40 creates
// arrive together. Those that would wait beyond MaxWriteWait (100 ms)
// are refused once the store's minimum of 16 writes ahead is reached, so
// at most 16 get in front of the writer; the rest are refused with 503
// and Retry-After while the writer is still held, i.e. without waiting
// for it; the accepted ones all succeed once it moves, and exactly they
// are stored. The write queue's length bound (1024) plays no part.
func TestOverloadRefusesExcessByWait(t *testing.T) {
	envWriteWait = 100 * time.Millisecond
	defer func() { envWriteWait = -1 }()
	e := newEnv(t, nil)
	gate := make(chan struct{})
	var release sync.Once // a failing test must let the held write go, or its cleanup waits forever
	defer release.Do(func() { close(gate) })
	var held atomic.Bool
	var entered atomic.Int64
	e.svc.Store = gatedStore{DB: e.store, entered: &entered, hold: func() {
		if held.Load() {
			<-gate
		} else {
			time.Sleep(30 * time.Millisecond) // the warm-up write
		}
	}}
	ra := &retryAfterCheck{}
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock), client.WithHTTPClient(&http.Client{Transport: ra}))
	create := func(no string) error {
		_, err := cli.CreateCollection(context.Background(), client.CollectionRequest{CashierID: cashierID, OrderNo: no, Amount: "25.00", Symbol: "USDT", ChainID: "ETH"})
		return err
	}
	if err := create("WARM"); err != nil {
		t.Fatal(err)
	}
	held.Store(true)
	entered.Store(0)

	const n = 40
	type answer struct {
		no  string
		err error
	}
	answers := make(chan answer, n)
	for i := 0; i < n; i++ {
		no := fmt.Sprintf("X-%d", i)
		go func() { answers <- answer{no, create(no)} }()
	}
	// Every request is either answered or has its write held in front
	// of the writer (running, taken into the running group, or queued);
	// only then is the writer let go.
	var before []answer
	waitFor(t, func() bool {
		for {
			select {
			case a := <-answers:
				before = append(before, a)
				continue
			default:
			}
			break
		}
		return len(before)+e.store.WritesAhead() == n
	})
	release.Do(func() { close(gate) })
	var after []answer
	for len(before)+len(after) < n {
		after = append(after, <-answers)
	}

	var stored, refused []string
	for _, a := range before {
		if !client.IsCode(a.err, "000503") {
			t.Fatalf("%s answered while the writer was held, and not with 503: %v", a.no, a.err)
		}
		refused = append(refused, a.no)
	}
	for _, a := range after {
		if a.err != nil {
			t.Fatalf("%s was admitted but failed: %v", a.no, a.err)
		}
		stored = append(stored, a.no)
	}
	if len(stored) == 0 || len(stored) > 16 || len(refused) == 0 {
		t.Fatalf("%d accepted (want 1 to 16), %d refused", len(stored), len(refused))
	}
	t.Logf("%d accepted, %d refused while the writer was held", len(stored), len(refused))
	if got := ra.refused.Load(); got != int64(len(refused)) || ra.without.Load() != 0 {
		t.Fatalf("%d answers of 503, %d of them without a Retry-After of 1 to 10 s; want %d and 0", got, ra.without.Load(), len(refused))
	}
	for _, no := range stored {
		if _, err := e.store.CollectionByOrderNo(context.Background(), "m_1", no); err != nil {
			t.Fatalf("accepted %s is not stored: %v", no, err)
		}
	}
	for _, no := range refused {
		if _, err := e.store.CollectionByOrderNo(context.Background(), "m_1", no); cashier.ErrorCode(err) != cashier.ENotFound {
			t.Fatalf("refused %s: %v, want not found", no, err)
		}
	}
	if c, _ := e.counts(); c != 1+len(stored) {
		t.Fatalf("%d orders stored, want %d", c, 1+len(stored))
	}
}

// While the demand outruns the service (an open-loop overload), a new
// write is admitted only within max-cpu-wait of wait, not max-wait: with
// 16 creates ahead at 1 ms each, one more is refused at once although
// 16 ms is well within max-wait; with the demand not outrunning, the
// same create is admitted.
func TestOverrunShortensTheQueue(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxWait, c.MaxCPUWait = 100*time.Millisecond, 5*time.Millisecond })
	s := e.srv.Config.Handler.(*server)
	s.cpu.Pin(false) // no reading: the flags below stay
	release := holdRequests(t, e, shed.MinWritesAhead)
	defer release()
	s.admit.SetTimePerWrite(time.Millisecond)
	create := func(no string) response {
		return e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": no}), secretKey, ms(e.clock.Now()))})
	}
	// send answers the create's answer, or nil once it is admitted and
	// waits behind the held ones (answered after release).
	send := func(no string) (answer *response, later chan response) {
		later = make(chan response, 1)
		go func() { later <- create(no) }()
		waitFor(t, func() bool {
			select {
			case r := <-later:
				answer = &r
				return true
			default:
				return admitted(s) == shed.MinWritesAhead+1
			}
		})
		return answer, later
	}
	s.cpu.Pin(true)
	r, _ := send("OVERRUN")
	if r == nil {
		t.Fatal("admitted with 16 ms of writes ahead while the demand outruns")
	}
	expectError(t, *r, http.StatusServiceUnavailable, "000503", "wait would exceed")
	s.cpu.Pin(false)
	r, later := send("NOT-OVERRUN")
	if r != nil {
		t.Fatalf("answered while the creates ahead are held: %d %s", r.status, r.body)
	}
	release()
	checkEnvelope(t, <-later, "200")
}
