package cashier

import "context"

type refuseWhenBusyKey struct{}

// RefuseWhenBusy marks ctx so that a store whose write queue is full fails
// the write at once with EOverloaded instead of waiting for room. The HTTP
// API marks its requests: a client is better served by a quick 503 and a
// retry than by a request that waits behind thousands of others. Background
// work does not mark its context and waits.
func RefuseWhenBusy(ctx context.Context) context.Context {
	return context.WithValue(ctx, refuseWhenBusyKey{}, true)
}

// RefusesWhenBusy reports whether ctx was marked by RefuseWhenBusy.
func RefusesWhenBusy(ctx context.Context) bool {
	v, _ := ctx.Value(refuseWhenBusyKey{}).(bool)
	return v
}

// WriteLoad is implemented by stores that bound the wait of their writes
// (the SQLite store's group writer). WritesBusy reports whether a write
// whose context is marked RefuseWhenBusy would be refused now; the HTTP
// API asks before any work on a request, so that refusing the excess of an
// overload costs almost nothing.
type WriteLoad interface {
	WritesBusy() bool
}

type cpuSlotKey struct{}

// CPUSlot is a share of the CPUs a request holds while it computes (the
// HTTP API's write requests hold one). Code that blocks on something other
// than the CPU releases it for the wait, so that waiting requests do not
// keep computing ones out.
type CPUSlot interface {
	Release()
	Acquire()
}

// WithCPUSlot marks ctx as holding slot.
func WithCPUSlot(ctx context.Context, slot CPUSlot) context.Context {
	return context.WithValue(ctx, cpuSlotKey{}, slot)
}

// Blocking runs wait, which blocks without using the CPU (a commit, a
// lock), with ctx's CPU slot released, if it holds one.
func Blocking(ctx context.Context, wait func()) {
	slot, _ := ctx.Value(cpuSlotKey{}).(CPUSlot)
	if slot == nil {
		wait()
		return
	}
	slot.Release()
	defer slot.Acquire()
	wait()
}

type concurrentWriteKey struct{}

// ConcurrentWrite marks ctx for a Store.Update whose function is safe to
// run while other processes write the same database: it holds every
// invariant it checks by the row it locks or the unique key it inserts,
// not by being the only writer. A store shared by several processes
// (PostgreSQL) runs such writes in parallel across them and every other
// write alone. The function may be run again, after a conflict with
// another process or when another write committed in the same group
// failed, so it must have no effect outside the transaction but on
// variables it sets afresh.
func ConcurrentWrite(ctx context.Context) context.Context {
	return context.WithValue(ctx, concurrentWriteKey{}, true)
}

// IsConcurrentWrite reports whether ctx was marked by ConcurrentWrite.
func IsConcurrentWrite(ctx context.Context) bool {
	v, _ := ctx.Value(concurrentWriteKey{}).(bool)
	return v
}
