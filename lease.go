package cashier

import (
	"context"
	"errors"
	"time"
)

// Lease is a named, time-limited right to do one-owner work (a network's
// chain watcher, its payout executor, its sweeper, the expiry worker)
// among several service instances sharing one database.
type Lease struct {
	Name   string
	Holder string // instance id of the holder
	// Token is the fencing epoch: it grows by one every time the lease
	// changes hands, so a holder that was replaced can tell (its renewal
	// with the old token fails) and nothing older can pass for it.
	Token      int64
	Expires    time.Time // the holder must have stopped by then
	AcquiredAt time.Time
	RenewedAt  time.Time
}

// ErrLeaseLost reports a renewal or release of a lease that another
// holder has taken since (or that was never held with that token).
var ErrLeaseLost = errors.New("lease lost: another holder took it")

// Leases is the store's table of leases. Times come from the caller's
// clock, so expiry is decided by the instances' clocks (kept in step by
// NTP), not the database server's.
type Leases interface {
	// AcquireLease takes name for holder until now+ttl when it is free,
	// expired, or already holder's (then it is extended, same token). It
	// reports false with the current holder's lease when another holds it.
	AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (Lease, bool, error)
	// RenewLease extends l to now+ttl if l.Holder still holds it with
	// l.Token; otherwise ErrLeaseLost.
	RenewLease(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error)
	// ReleaseLease gives l up at once so another instance can take it
	// without waiting for the expiry; ErrLeaseLost when it was taken.
	ReleaseLease(ctx context.Context, l Lease) error
	// ListLeases returns every lease, expired or not, by name.
	ListLeases(ctx context.Context) ([]Lease, error)
	// PruneLeases deletes the leases whose name starts with prefix and
	// that expired before t (the heartbeats of instances long gone).
	PruneLeases(ctx context.Context, prefix string, before time.Time) (int, error)
}
