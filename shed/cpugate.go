package shed

import (
	"runtime"
	"sync"
)

// CPUGate lets write requests compute on all but one of the Go scheduler's
// Ps at a time (app gives the process one P more than its CPUs). The free P
// is what reads new requests while the others compute: a Go process whose
// Ps are all busy polls the network only every 10 ms, so without it every
// request under overload, even one refused at once, would first wait up to
// 10 ms to be read and then queue behind the creates running. Requests
// release their slot while they wait for a commit (cashier.Blocking). Slots
// are handed over first come, first served.
type CPUGate struct {
	mu      sync.Mutex
	busy    int
	waiters []chan struct{}
}

// GateSize is the number of write requests that compute at once.
func GateSize() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// Acquire waits for a slot, after the others waiting.
func (g *CPUGate) Acquire() { g.acquire(false) }

// AcquireFirst waits for a slot, before the others waiting: a request
// back from its commit has little left to do (its answer), and finishing
// it first keeps the requests in progress few. Behind the new ones, with
// dozens admitted, every create would queue at the gate twice.
func (g *CPUGate) AcquireFirst() { g.acquire(true) }

func (g *CPUGate) acquire(first bool) {
	g.mu.Lock()
	if g.busy < GateSize() {
		g.busy++
		g.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	if first {
		g.waiters = append([]chan struct{}{ch}, g.waiters...)
	} else {
		g.waiters = append(g.waiters, ch)
	}
	g.mu.Unlock()
	<-ch
}

// Release hands the slot to the longest waiter, or frees it.
func (g *CPUGate) Release() {
	g.mu.Lock()
	if len(g.waiters) > 0 {
		ch := g.waiters[0]
		g.waiters = g.waiters[1:]
		g.mu.Unlock()
		close(ch) // the slot passes to the waiter: busy is unchanged
		return
	}
	g.busy--
	g.mu.Unlock()
}

// Slot is a write request's place at the gate: taken once its body is
// read, released while it waits for a commit (cashier.Blocking), given
// back when it ends.
type Slot struct {
	g    *CPUGate
	held bool
}

// Take waits for a slot. The wait is bounded by the requests admitted
// (admission.go), not here: a burst of creates must queue, not be refused.
func (s *Slot) Take() {
	if !s.held {
		s.g.Acquire()
		s.held = true
	}
}

func (s *Slot) Release() {
	if s.held {
		s.g.Release()
	}
}

// Acquire takes the slot back after a wait (cashier.Blocking), first.
func (s *Slot) Acquire() {
	if s.held {
		s.g.AcquireFirst()
	}
}

// Done gives the slot back at the end of the request.
func (s *Slot) Done() {
	if s.held {
		s.held = false
		s.g.Release()
	}
}

// NewSlot is a write request's place at g, not yet taken.
func NewSlot(g *CPUGate) *Slot { return &Slot{g: g} }
