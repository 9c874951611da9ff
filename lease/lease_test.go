package lease_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/lease"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
)

// openAt opens one more handle on the database file at path, as another
// process would.
func openAt(t *testing.T, path string, key []byte) *sqlite.DB {
	t.Helper()
	s, err := sqlite.NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{Sealer: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// worker records who runs and fails the test when two run at once.
type worker struct {
	t      *testing.T
	mu     sync.Mutex
	active string
	starts []string
}

func (w *worker) run(name string) func(context.Context) {
	return func(ctx context.Context) {
		w.mu.Lock()
		if w.active != "" {
			w.t.Errorf("%s started while %s runs", name, w.active)
		}
		w.active = name
		w.starts = append(w.starts, name)
		w.mu.Unlock()
		<-ctx.Done()
		w.mu.Lock()
		w.active = ""
		w.mu.Unlock()
	}
}

func (w *worker) current() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.active
}

func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

func setup(t *testing.T) (dbA, dbB *sqlite.DB) {
	path := sqlitetest.Path(t)
	key := make([]byte, sqlite.MasterKeySize)
	return openAt(t, path, key), openAt(t, path, key)
}

// A holder whose database goes away stops its work before the lease's
// expiry, and the other instance takes over after it: never both at once.
func TestTakeoverWhenHolderCannotRenew(t *testing.T) {
	dbA, dbB := setup(t)
	ttl := 900 * time.Millisecond
	a := &lease.Runner{Leases: dbA, Holder: "A", TTL: ttl, Clock: cashier.SystemClock{}}
	b := &lease.Runner{Leases: dbB, Holder: "B", TTL: ttl, Clock: cashier.SystemClock{}}
	w := &worker{t: t}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a.Run(ctx, "watch/ETH", w.run("A")) }()
	waitFor(t, 5*time.Second, "A holds the lease", func() bool { return w.current() == "A" })
	wg.Add(1)
	go func() { defer wg.Done(); b.Run(ctx, "watch/ETH", w.run("B")) }()
	// B keeps waiting while A renews.
	time.Sleep(3 * ttl)
	if got := w.current(); got != "A" {
		t.Fatalf("after three TTLs of renewals %q runs, want A", got)
	}
	if err := a.Healthy(time.Now()); err != nil {
		t.Fatalf("A renewing but unhealthy: %v", err)
	}

	dbA.Close() // A can no longer renew
	took := waitFor(t, 10*ttl, "B takes over", func() bool { return w.current() == "B" })
	if took > 3*ttl {
		t.Errorf("takeover took %s, TTL %s", took, ttl)
	}
	if err := a.Healthy(time.Now()); err == nil {
		t.Error("A cannot reach its database but reports healthy")
	}
	st := b.Statuses()
	if len(st) != 1 || !st[0].Held || st[0].Token != 2 {
		t.Fatalf("B's status: %+v", st)
	}
	cancel()
	wg.Wait()
	if len(w.starts) != 2 || w.starts[0] != "A" || w.starts[1] != "B" {
		t.Fatalf("runs: %v", w.starts)
	}
}

// A holder that stops releases the lease: the other takes over at once,
// not after the TTL.
func TestReleaseOnStop(t *testing.T) {
	dbA, dbB := setup(t)
	ttl := 30 * time.Second
	a := &lease.Runner{Leases: dbA, Holder: "A", TTL: ttl, Clock: cashier.SystemClock{}}
	b := &lease.Runner{Leases: dbB, Holder: "B", TTL: 600 * time.Millisecond, Clock: cashier.SystemClock{}}
	w := &worker{t: t}
	actx, stopA := context.WithCancel(context.Background())
	bctx, stopB := context.WithCancel(context.Background())
	defer stopB()
	aDone := make(chan struct{})
	go func() { defer close(aDone); a.Run(actx, "expiry", w.run("A")) }()
	waitFor(t, 5*time.Second, "A holds the lease", func() bool { return w.current() == "A" })
	bDone := make(chan struct{})
	go func() { defer close(bDone); b.Run(bctx, "expiry", w.run("B")) }()
	time.Sleep(300 * time.Millisecond)
	stopA()
	<-aDone
	waitFor(t, 5*time.Second, "B takes over after A's release", func() bool { return w.current() == "B" })
	stopB()
	<-bDone
	list, err := dbA.ListLeases(context.Background())
	if err != nil || len(list) != 1 || list[0].Token != 2 || list[0].Expires.After(time.Now()) {
		t.Fatalf("after both stopped: %+v %v (want token 2, released)", list, err)
	}
}

// Work that a replaced holder is still doing stops as soon as its renewal
// finds the lease taken (here another holder takes it after the stored
// expiry while the first one's clock is behind).
func TestLostLeaseStopsWork(t *testing.T) {
	dbA, dbB := setup(t)
	clock := cashier.NewManualClock(time.Now())
	a := &lease.Runner{Leases: dbA, Holder: "A", TTL: 600 * time.Millisecond, Clock: clock}
	var stopped atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Run(ctx, "sweep/ETH", func(ctx context.Context) { <-ctx.Done(); stopped.Store(true) })
	}()
	waitFor(t, 5*time.Second, "A holds the lease", func() bool { st := a.Statuses(); return len(st) == 1 && st[0].Held })
	// B, whose clock is ahead, sees the lease expired and takes it.
	if _, ok, err := dbB.AcquireLease(ctx, "sweep/ETH", "B", clock.Now().Add(time.Hour), time.Hour); err != nil || !ok {
		t.Fatalf("B's acquire: %v %v", ok, err)
	}
	waitFor(t, 5*time.Second, "A's work stops", stopped.Load)
	// The status follows once the work has returned and the lease's
	// release was tried.
	waitFor(t, 5*time.Second, "A no longer thinks it holds the lease", func() bool { return !a.Statuses()[0].Held })
	cancel()
	<-done
}

// A holder known to have exited is not waited out: its lease is released
// on its behalf and taken at once; a live holder is left alone.
func TestDeadHolderTakenAtOnce(t *testing.T) {
	dbA, dbB := setup(t)
	now := time.Now()
	if _, ok, err := dbA.AcquireLease(context.Background(), "payouts/ETH", "A", now, time.Hour); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, ok, err := dbA.AcquireLease(context.Background(), "payouts/TRON", "alive", now, time.Hour); err != nil || !ok {
		t.Fatal(ok, err)
	}
	b := &lease.Runner{Leases: dbB, Holder: "B", TTL: time.Hour, Clock: cashier.SystemClock{},
		Dead: func(h string) bool { return h == "A" }}
	w := &worker{t: t}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{}, 2)
	go func() { b.Run(ctx, "payouts/ETH", w.run("B")); done <- struct{}{} }()
	var other atomic.Bool
	go func() {
		b.Run(ctx, "payouts/TRON", func(ctx context.Context) { other.Store(true); <-ctx.Done() })
		done <- struct{}{}
	}()
	waitFor(t, 5*time.Second, "B takes the exited holder's lease", func() bool { return w.current() == "B" })
	time.Sleep(200 * time.Millisecond)
	if other.Load() {
		t.Fatal("B took a lease from a live holder")
	}
	cancel()
	<-done
	<-done
	list, _ := dbA.ListLeases(context.Background())
	if len(list) != 2 || list[0].Token != 2 || list[1].Holder != "alive" {
		t.Fatalf("leases: %+v", list)
	}
}

// Shared work spreads: one instance alone takes every lease; when a second
// joins, the first gives leases back one per renewal period until each
// holds its fair share; when the second crashes (its leases expire, not
// released), the first takes them all back within about a TTL. No lease
// ever runs on both at once.
func TestSharedLeasesSpread(t *testing.T) {
	dbA, dbB := setup(t)
	ttl := 600 * time.Millisecond
	var live atomic.Int64
	live.Store(1)
	liveFn := func() int { return int(live.Load()) }
	a := &lease.Runner{Leases: dbA, Holder: "A", TTL: ttl, Clock: cashier.SystemClock{}, Live: liveFn}
	b := &lease.Runner{Leases: dbB, Holder: "B", TTL: ttl, Clock: cashier.SystemClock{}, Live: liveFn}
	names := []string{"watch/ETH", "watch/ARB", "watch/TRON", "payouts/ETH", "payouts/ARB", "payouts/TRON", "expiry"}
	workers := map[string]*worker{}
	for _, n := range names {
		workers[n] = &worker{t: t}
	}
	held := func() (onA, onB int) {
		for _, w := range workers {
			switch w.current() {
			case "A":
				onA++
			case "B":
				onB++
			}
		}
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() { defer wg.Done(); a.RunShared(ctx, n, workers[n].run("A")) }()
	}
	waitFor(t, 5*time.Second, "A alone holds every lease", func() bool { onA, _ := held(); return onA == len(names) })

	// B joins (a crash is simulated below: its leases are never released).
	bctx, crashB := context.WithCancel(context.Background())
	var bwg sync.WaitGroup
	for _, n := range names {
		bwg.Add(1)
		go func() { defer bwg.Done(); b.RunShared(bctx, n, workers[n].run("B")) }()
	}
	live.Store(2)
	waitFor(t, 10*ttl, "the work spread 4/3", func() bool {
		onA, onB := held()
		return onA+onB == len(names) && onA <= 4 && onB <= 4 && onA >= 3 && onB >= 3
	})
	// Balanced, it stays so: no lease changes hands for a few periods.
	starts := func() (n int) {
		for _, w := range workers {
			w.mu.Lock()
			n += len(w.starts)
			w.mu.Unlock()
		}
		return
	}
	before := starts()
	time.Sleep(2 * ttl)
	if after := starts(); after != before {
		t.Errorf("leases kept moving once balanced: %d starts became %d", before, after)
	}

	// B "crashes": its database handle goes away, it renews nothing and
	// releases nothing; A takes its leases when they expire.
	_, onB := held()
	dbB.Close()
	crashB()
	live.Store(1)
	took := waitFor(t, 10*ttl, "A takes every lease back", func() bool { onA, _ := held(); return onA == len(names) })
	t.Logf("B held %d; A had them all back %s after the crash (TTL %s)", onB, took, ttl)
	if took > 2*ttl {
		t.Errorf("takeover after a crash took %s, over two TTLs (%s)", took, ttl)
	}
	cancel()
	wg.Wait()
	bwg.Wait()
}
