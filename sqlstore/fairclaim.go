package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// ClaimEventsFair is ClaimEvents taking due events in turns: merchants
// first, then each merchant's receiving hosts (the host and port of the
// URL). Within a merchant the oldest event of each of its hosts comes
// first, then the second oldest of each, and so on (at most f.PerHost per
// host); across merchants the first in each merchant's turn comes first,
// then the second, and so on (at most f.PerMerchant per merchant).
// Merchants and hosts listed in f.Skip* (already busy in the caller) get
// none. A merchant with thousands of due events at many hosts thus takes
// only its own share of a claim, and a hanging host only its share of its
// merchant's.
//
// One write transaction reads the due events' merchants and hosts, picks
// in Go and leases the picked by seq, so two claimers never get the same
// event. It reads at most fairClaimWindow due events, oldest first, of
// the merchants and hosts not skipped: a backlog of thousands then costs a
// claim no more than a few hundred, and a merchant whose old events fill
// the window gets its share and is skipped by the next claim, which sees
// past it.
func (db *DB) ClaimEventsFair(ctx context.Context, owner string, now time.Time, lease time.Duration, f cashier.FairClaim) ([]cashier.Event, error) {
	if owner == "" || lease <= 0 || f.PerHost <= 0 || f.PerMerchant <= 0 {
		return nil, cashier.Errorf(cashier.EInvalid, "claim needs an owner, a positive lease and positive per-merchant and per-host shares")
	}
	if f.N <= 0 {
		return nil, nil
	}
	nowMs := now.UnixMilli()
	args := []any{nowMs, nowMs}
	skip := ""
	if len(f.SkipHosts) > 0 {
		skip += " AND e.claim_host NOT IN (" + marks(len(f.SkipHosts)) + ")"
		for _, h := range f.SkipHosts {
			args = append(args, strings.ToLower(h))
		}
	}
	if len(f.SkipMerchants) > 0 {
		skip += " AND e.merchant_id NOT IN (" + marks(len(f.SkipMerchants)) + ")"
		for _, m := range f.SkipMerchants {
			args = append(args, m)
		}
	}
	var out []cashier.Event
	err := db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		out = nil
		rows, err := tx.QueryContext(ctx, `SELECT e.seq, e.merchant_id, e.claim_host FROM events e
			WHERE e.state = 'pending' AND e.next_attempt_at <= ?
			  AND (e.lease_owner = '' OR e.lease_until <= ?)`+skip+`
			  AND `+noEarlierPending+`
			ORDER BY e.seq
			LIMIT ?`, append(args, fairClaimWindow)...)
		if err != nil {
			return err
		}
		var due []dueEvent
		for rows.Next() {
			var d dueEvent
			if err := rows.Scan(&d.seq, &d.merchant, &d.host); err != nil {
				rows.Close()
				return err
			}
			due = append(due, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		picked := pickFair(due, f)
		if len(picked) == 0 {
			return nil
		}
		upd := []any{owner, now.Add(lease).UnixMilli()}
		for _, s := range picked {
			upd = append(upd, s)
		}
		// The picked are leased only if still free: where writers run in
		// parallel, another instance may have leased one since the read
		// (the recheck sees its commit) or hold it now (skipped).
		rows, err = tx.QueryContext(ctx, `UPDATE events SET lease_owner = ?, lease_until = ?
			WHERE seq IN (SELECT seq FROM events WHERE seq IN (`+marks(len(picked))+`)
				AND state = 'pending' AND (lease_owner = '' OR lease_until <= ?)`+db.dialect.SkipLocked+`)
			RETURNING `+eventCols, append(upd, nowMs)...)
		if err != nil {
			return err
		}
		out, err = scanEvents(rows)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim events: %w", err)
	}
	slices.SortFunc(out, func(a, b cashier.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// fairClaimWindow bounds the due events one fair claim reads.
const fairClaimWindow = 512

// dueEvent is what a fair claim needs to know of a due event.
type dueEvent struct {
	seq            int64
	merchant, host string
}

// pickFair returns the seqs of up to f.N of due (oldest first) in turns:
// hrank numbers each merchant's events per host by age, a merchant's turn
// orders its events by (hrank, seq), and the claim takes the first of
// every merchant's turn, then the second, and so on.
func pickFair(due []dueEvent, f cashier.FairClaim) []int64 {
	type ranked struct {
		seq   int64
		hrank int
	}
	perHost := map[[2]string]int{}
	byMerchant := map[string][]ranked{}
	for _, d := range due {
		k := [2]string{d.merchant, d.host}
		perHost[k]++
		if perHost[k] <= f.PerHost {
			byMerchant[d.merchant] = append(byMerchant[d.merchant], ranked{d.seq, perHost[k]})
		}
	}
	type turn struct {
		seq   int64
		mrank int
	}
	var all []turn
	for _, evs := range byMerchant {
		slices.SortFunc(evs, func(a, b ranked) int { return cmp.Or(cmp.Compare(a.hrank, b.hrank), cmp.Compare(a.seq, b.seq)) })
		for i, e := range evs[:min(len(evs), f.PerMerchant)] {
			all = append(all, turn{e.seq, i + 1})
		}
	}
	slices.SortFunc(all, func(a, b turn) int { return cmp.Or(cmp.Compare(a.mrank, b.mrank), cmp.Compare(a.seq, b.seq)) })
	out := make([]int64, 0, min(len(all), f.N))
	for _, t := range all[:min(len(all), f.N)] {
		out = append(out, t.seq)
	}
	return out
}

// marks is n comma-separated parameter marks.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }
