package cashier

import (
	"context"
	"time"
)

// OpsStats are counts across every instance sharing the store, read for
// monitoring (the /metrics scrape), never for decisions.
type OpsStats struct {
	Collections map[string]int // collection orders by status
	Payouts     map[string]int // payout orders by status
	Events      map[string]int // outbox events by state: pending, delivered, failed
	Attempts    map[string]int // webhook delivery attempts by outcome: ok, error
	Queued      map[Chain]int  // payouts ready for the executor, not yet in a batch
	// QueuedSince is, per network, the last change of the ready payout
	// that has waited longest (its creation or approval): the queue's age.
	QueuedSince map[Chain]time.Time
	Execs       map[string]int // payout executions by "CHAIN/state", open ones only
}

// OpsStatsReader is implemented by stores that can count for monitoring.
type OpsStatsReader interface {
	OpsStats(ctx context.Context) (OpsStats, error)
}
