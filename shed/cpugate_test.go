package shed

import (
	"context"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// Slots beyond the gate's size are handed over in arrival order, one per
// release, except to a request back from its commit, which goes first; a
// release with nobody waiting frees the slot.
func TestCPUGateHandsOverInOrder(t *testing.T) {
	var g CPUGate
	size := GateSize()
	for i := 0; i < size; i++ {
		g.Acquire()
	}
	got := make(chan int, 3)
	for i := 0; i < 3; i++ {
		go func() { g.Acquire(); got <- i }()
		waiters(t, &g, i+1)
	}
	select {
	case i := <-got:
		t.Fatalf("waiter %d got a slot while all were held", i)
	case <-time.After(20 * time.Millisecond):
	}
	// One back from its commit goes first.
	go func() { g.AcquireFirst(); got <- 99 }()
	waiters(t, &g, 4)
	for _, want := range []int{99, 0, 1, 2} {
		g.Release()
		if i := <-got; i != want {
			t.Fatalf("slot went to waiter %d, want %d", i, want)
		}
	}
	for i := 0; i < size; i++ { // the slots held: handed over, not added
		g.Release()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy != 0 || len(g.waiters) != 0 {
		t.Fatalf("after every release: busy %d, %d waiting", g.busy, len(g.waiters))
	}
}

// A request waiting for its commit does not hold a slot: cashier.Blocking
// releases it for the wait and takes it back after.
func TestBlockingReleasesTheSlot(t *testing.T) {
	var g CPUGate
	slot := &Slot{g: &g}
	for i := 0; i < GateSize()-1; i++ {
		g.Acquire()
	}
	slot.Take()
	ctx := cashier.WithCPUSlot(context.Background(), slot)
	cashier.Blocking(ctx, func() {
		done := make(chan struct{})
		go func() { g.Acquire(); g.Release(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the slot was not released during the wait")
		}
	})
	if g.busy != GateSize() {
		t.Fatalf("after the wait %d slots busy, want %d (taken back)", g.busy, GateSize())
	}
	slot.Done()
	if g.busy != GateSize()-1 {
		t.Fatalf("after done %d slots busy, want %d", g.busy, GateSize()-1)
	}
}

// waiters waits until n requests wait at g.
func waiters(t *testing.T, g *CPUGate, n int) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		got := len(g.waiters)
		g.mu.Unlock()
		if got == n {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d waiting at the gate, want %d", got, n)
		}
	}
}
