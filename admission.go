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
// API asks before reading a request's body, so that refusing the excess of
// an overload costs almost nothing.
type WriteLoad interface {
	WritesBusy() bool
}
