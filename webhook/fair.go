package webhook

import (
	"context"
	"time"

	"github.com/stablecashier/cashier"
)

// FairClaimer is an outbox that can claim round-robin across receiving
// hosts (sqlite.DB does). With one, the dispatcher never holds more than
// hostShare events of one host in memory, so a slow or hanging receiver
// only ever slows itself; an outbox without it is claimed oldest first.
type FairClaimer interface {
	ClaimEventsFair(ctx context.Context, owner string, now time.Time, lease time.Duration, n, perHost int, skip []string) ([]cashier.Event, error)
}

// hostShare is how many events of one host the dispatcher holds at most
// (running and queued) when claiming fairly: its concurrent deliveries plus
// as many waiting, so the host never idles between claims.
func (d *Dispatcher) hostShare() int { return 2 * d.cfg.HostConcurrency }

// claim leases up to n due events: fairly across hosts, skipping hosts
// whose share is full, when the outbox can; else oldest first.
func (d *Dispatcher) claim(ctx context.Context, n int) ([]cashier.Event, error) {
	fc, ok := d.outbox.(FairClaimer)
	if !ok {
		return d.outbox.ClaimEvents(ctx, d.cfg.Owner, d.clock.Now(), d.cfg.Lease, n)
	}
	d.mu.Lock()
	var skip []string
	for key, h := range d.hosts {
		if h.running+len(h.queue) >= d.hostShare() {
			skip = append(skip, key)
		}
	}
	d.mu.Unlock()
	return fc.ClaimEventsFair(ctx, d.cfg.Owner, d.clock.Now(), d.cfg.Lease, n, d.hostShare(), skip)
}
