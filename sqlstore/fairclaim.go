package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// ClaimEventsFair is ClaimEvents taking due events round-robin across
// receiving hosts (the host and port of the URL): at most perHost per host,
// the oldest of every host first, then the second oldest of each, and so
// on; hosts listed in skip (already busy in the caller) get none. One slow
// or hanging host with thousands of due events thus takes only its own
// share of a claim, and other merchants' events go out beside it.
func (db *DB) ClaimEventsFair(ctx context.Context, owner string, now time.Time, lease time.Duration, n, perHost int, skip []string) ([]cashier.Event, error) {
	if owner == "" || lease <= 0 || perHost <= 0 {
		return nil, cashier.Errorf(cashier.EInvalid, "claim needs an owner, a positive lease and a positive per-host share")
	}
	if n <= 0 {
		return nil, nil
	}
	nowMs := now.UnixMilli()
	args := []any{owner, now.Add(lease).UnixMilli(), nowMs, nowMs}
	notSkipped := ""
	if len(skip) > 0 {
		notSkipped = "AND e.claim_host NOT IN (" + strings.TrimSuffix(strings.Repeat("?,", len(skip)), ",") + ")"
		for _, h := range skip {
			args = append(args, strings.ToLower(h))
		}
	}
	args = append(args, perHost, n)
	return db.claim(ctx, `UPDATE events SET lease_owner = ?, lease_until = ?
			WHERE seq IN (
				SELECT seq FROM (
					SELECT e.seq, ROW_NUMBER() OVER (PARTITION BY e.claim_host ORDER BY e.seq) AS rank
					FROM events e
					WHERE e.state = 'pending' AND e.next_attempt_at <= ?
					  AND (e.lease_owner = '' OR e.lease_until <= ?)
					  `+notSkipped+`
					  AND (e.order_id = '' OR NOT EXISTS (
						SELECT 1 FROM events p
						WHERE p.order_id = e.order_id AND p.seq < e.seq AND p.state = 'pending'))) ranked
				WHERE rank <= ?
				ORDER BY rank, seq
				LIMIT ?)
			RETURNING `+eventCols, args...)
}
