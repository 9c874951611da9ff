package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/stablecashier/cashier"
)

var _ cashier.OpsStatsReader = (*DB)(nil)

// OpsStats implements cashier.OpsStatsReader. Each count walks an index
// (status or state first), so a scrape costs a few index scans.
func (db *DB) OpsStats(ctx context.Context) (cashier.OpsStats, error) {
	s := cashier.OpsStats{Collections: map[string]int{}, Payouts: map[string]int{}, Events: map[string]int{},
		Attempts: map[string]int{}, Queued: map[cashier.Chain]int{}, Execs: map[string]int{},
		QueuedSince: map[cashier.Chain]time.Time{}}
	for _, q := range []struct {
		sql string
		put func(k string, n int64)
	}{
		{`SELECT status, count(*) FROM collection_orders GROUP BY status`, func(k string, n int64) { s.Collections[k] = int(n) }},
		{`SELECT status, count(*) FROM payout_orders GROUP BY status`, func(k string, n int64) { s.Payouts[k] = int(n) }},
		{`SELECT state, count(*) FROM events GROUP BY state`, func(k string, n int64) { s.Events[k] = int(n) }},
		{`SELECT CASE WHEN error = '' THEN 'ok' ELSE 'error' END AS outcome, count(*) FROM delivery_attempts
			GROUP BY CASE WHEN error = '' THEN 'ok' ELSE 'error' END`, func(k string, n int64) { s.Attempts[k] = int(n) }},
		{`SELECT chain, count(*) FROM payout_orders
			WHERE (status = 'PENDING' AND needs_review = 0 OR status = 'PROCESSING') AND exec_id = '' GROUP BY chain`,
			func(k string, n int64) { s.Queued[cashier.Chain(k)] = int(n) }},
		{`SELECT chain, min(updated_at) FROM payout_orders
			WHERE (status = 'PENDING' AND needs_review = 0 OR status = 'PROCESSING') AND exec_id = '' GROUP BY chain`,
			func(k string, n int64) { s.QueuedSince[cashier.Chain(k)] = time.UnixMilli(n).UTC() }},
		{`SELECT chain || '/' || state, count(*) FROM payout_execs WHERE state IN ('created', 'sending', 'sent')
			GROUP BY chain, state`, func(k string, n int64) { s.Execs[k] = int(n) }},
	} {
		rows, err := db.read.QueryContext(ctx, q.sql)
		if err != nil {
			return s, fmt.Errorf("store: ops stats: %w", err)
		}
		for rows.Next() {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return s, err
			}
			q.put(k, n)
		}
		err = rows.Close()
		if err == nil {
			err = rows.Err()
		}
		if err != nil {
			return s, fmt.Errorf("store: ops stats: %w", err)
		}
	}
	return s, nil
}
