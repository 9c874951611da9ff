package sqlstore

import (
	"context"

	"github.com/stablecashier/cashier"
)

// NativeSweepCandidates returns c's deposit addresses that received the
// native coin (payments with an empty token) after their last completed
// native sweep, or never swept; native sweeps are recorded with an empty
// token too.
func (db *DB) NativeSweepCandidates(ctx context.Context, c cashier.Chain) ([]SweepCandidate, error) {
	return db.sweepCandidates(ctx, c, true)
}
