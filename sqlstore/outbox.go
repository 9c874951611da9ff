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

const eventCols = `seq, id, merchant_id, type, order_id, order_no, status, url, body, created_at,
	state, attempts, next_attempt_at, last_error, delivered_at, lease_owner, lease_until`

// noEarlierPending holds for an event e with no earlier pending event of
// its order: an order's events go out one at a time, in order. The
// earlier events are found through events_order (an order has a handful);
// comparing the state with an empty string appended keeps the planner
// from walking events_state instead, which holds every pending event of
// every order.
const noEarlierPending = `(e.order_id = '' OR NOT EXISTS (
	SELECT 1 FROM events p
	WHERE p.order_id = e.order_id AND p.seq < e.seq AND p.state || '' = 'pending'))`

// scanEvents reads every row of rows as an event and closes rows.
func scanEvents(rows *sql.Rows) ([]cashier.Event, error) {
	defer rows.Close()
	var out []cashier.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *e)
	}
	return out, rows.Err()
}

func scanEvent(s scanner) (*cashier.Event, error) {
	var (
		e                                 cashier.Event
		created, due, delivered, leaseEnd sql.NullInt64
	)
	err := s.Scan(&e.Seq, &e.ID, &e.MerchantID, &e.Type, &e.OrderID, &e.OrderNo, &e.Status, &e.URL, &e.Body, &created,
		&e.State, &e.Attempts, &due, &e.LastError, &delivered, &e.LeaseOwner, &leaseEnd)
	if err != nil {
		return nil, err
	}
	e.CreatedAt, e.NextAttemptAt = fromMillis(created), fromMillis(due)
	e.DeliveredAt, e.LeaseUntil = fromMillis(delivered), fromMillis(leaseEnd)
	return &e, nil
}

// ClaimEvents leases up to n due events to owner. One UPDATE ... RETURNING
// on the write connection picks and leases them, so two claimers, in this
// process or another sharing the file, never get the same event. An event
// is skipped while an earlier event of the same order is still pending, so
// a receiver never sees an order's SUCCESS before its PENDING. Where
// writers run in parallel (PostgreSQL), the pick skips the rows another
// claim holds and rechecks the lease on the newest version of each row.
func (db *DB) ClaimEvents(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]cashier.Event, error) {
	if owner == "" || lease <= 0 {
		return nil, cashier.Errorf(cashier.EInvalid, "claim needs an owner and a positive lease")
	}
	if n <= 0 {
		return nil, nil
	}
	nowMs := now.UnixMilli()
	return db.claim(ctx, `UPDATE events SET lease_owner = ?, lease_until = ?
			WHERE seq IN (
				SELECT e.seq FROM events e
				WHERE e.state = 'pending' AND e.next_attempt_at <= ?
				  AND (e.lease_owner = '' OR e.lease_until <= ?)
				  AND `+noEarlierPending+`
				ORDER BY e.seq
				LIMIT ?`+db.dialect.SkipLocked+`)
			RETURNING `+eventCols,
		owner, now.Add(lease).UnixMilli(), nowMs, nowMs, n)
}

// claim runs a claiming UPDATE … RETURNING eventCols on the write
// connection and returns the leased events oldest first (RETURNING gives
// no order).
func (db *DB) claim(ctx context.Context, query string, args ...any) ([]cashier.Event, error) {
	var out []cashier.Event
	err := db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
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

// RecordAttempt logs a and moves the event to state, releasing the lease,
// if owner still holds it. The store numbers the attempt itself (the
// event's attempt count plus one) so the log cannot disagree with the
// counter. An owner whose lease ran out but was not taken over still holds
// it: nobody else can have delivered meanwhile.
func (db *DB) RecordAttempt(ctx context.Context, owner string, a cashier.DeliveryAttempt, state cashier.EventState) error {
	return db.RecordAttempts(ctx, owner, []cashier.AttemptOutcome{{Attempt: a, State: state}})[0]
}

// RecordAttempts is RecordAttempt for many outcomes in one write: the
// events' rows are read in one statement and the log rows inserted in
// one, so a dispatcher recording what its workers finished together pays
// for the statements once rather than per attempt.
func (db *DB) RecordAttempts(ctx context.Context, owner string, outcomes []cashier.AttemptOutcome) []error {
	errs := make([]error, len(outcomes))
	var ids []any
	for i, o := range outcomes {
		if errs[i] = checkOutcome(o); errs[i] == nil {
			ids = append(ids, o.Attempt.EventID)
		}
	}
	if len(ids) == 0 {
		return errs
	}
	type row struct {
		leaseOwner string
		attempts   int
		state      cashier.EventState
	}
	// The events' rows are locked while checked and written: a claim
	// running in parallel skips them, or has taken one first and its
	// outcome is refused. The function may run again (ConcurrentWrite):
	// everything it decides is decided afresh on each run.
	var refused []error
	err := db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		refused = slices.Clone(errs)
		rows, err := tx.QueryContext(ctx, `SELECT id, lease_owner, attempts, state FROM events WHERE id IN (`+marks(len(ids))+`)`+db.dialect.ForUpdate, ids...)
		if err != nil {
			return fmt.Errorf("store: record attempts: %w", err)
		}
		found := make(map[string]*row, len(ids))
		for rows.Next() {
			var (
				id string
				r  row
			)
			if err := rows.Scan(&id, &r.leaseOwner, &r.attempts, &r.state); err != nil {
				rows.Close()
				return fmt.Errorf("store: record attempts: %w", err)
			}
			found[id] = &r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: record attempts: %w", err)
		}
		var logArgs []any
		for i, o := range outcomes {
			if refused[i] != nil {
				continue
			}
			a := o.Attempt
			r := found[a.EventID]
			switch {
			case r == nil:
				refused[i] = cashier.Errorf(cashier.ENotFound, "event %s not found", a.EventID)
				continue
			case owner == "" || r.leaseOwner != owner || r.state != cashier.EventPending:
				refused[i] = cashier.Errorf(cashier.EInvalidStatus, "event %s is not leased to %s", a.EventID, owner)
				continue
			}
			// A second outcome of the same event in one call is refused
			// like a second record after the first released the lease.
			r.attempts++
			r.leaseOwner, r.state = "", o.State
			logArgs = append(logArgs, a.EventID, r.attempts, a.At.UnixMilli(), a.HTTPStatus, a.Latency.Microseconds(), a.Error, millis(a.NextAttemptAt))
			var delivered any
			if o.State == cashier.EventDelivered {
				delivered = a.At.UnixMilli()
			}
			if _, err := tx.ExecContext(ctx, `UPDATE events SET
				state = ?, attempts = ?, next_attempt_at = coalesce(?, next_attempt_at), last_error = ?,
				delivered_at = ?, lease_owner = '', lease_until = NULL
				WHERE id = ?`,
				o.State, r.attempts, millis(a.NextAttemptAt), a.Error, delivered, a.EventID); err != nil {
				return fmt.Errorf("store: record attempt: %w", err)
			}
		}
		if len(logArgs) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO delivery_attempts
			(event_id, attempt, at, http_status, latency_us, error, next_attempt_at)
			VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?),", len(logArgs)/7), ","), logArgs...); err != nil {
			return fmt.Errorf("store: log attempts: %w", err)
		}
		return nil
	})
	if err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs
	}
	return refused
}

// checkOutcome is what RecordAttempts requires of an outcome before it
// reads the store.
func checkOutcome(o cashier.AttemptOutcome) error {
	switch o.State {
	case cashier.EventPending:
		if o.Attempt.NextAttemptAt.IsZero() {
			return cashier.Errorf(cashier.EInvalid, "a pending event needs the time of its next attempt")
		}
	case cashier.EventDelivered, cashier.EventFailed:
	default:
		return cashier.Errorf(cashier.EInvalid, "unknown event state %q", o.State)
	}
	if o.Attempt.At.IsZero() {
		return cashier.Errorf(cashier.EInvalid, "delivery attempt has no time")
	}
	return nil
}

// Resend puts the event back to pending, due at now, with a fresh attempt
// count so it gets the whole retry schedule again.
func (db *DB) Resend(ctx context.Context, id string, now time.Time) error {
	// One UPDATE of one row: safe beside parallel claims and records.
	return db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE events SET
			state = 'pending', attempts = 0, next_attempt_at = ?, delivered_at = NULL,
			lease_owner = '', lease_until = NULL
			WHERE id = ?`, now.UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("store: resend event: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: resend event: %w", err)
		} else if n == 0 {
			return cashier.Errorf(cashier.ENotFound, "event %s not found", id)
		}
		return nil
	})
}

// Event returns one event by id.
func (db *DB) Event(ctx context.Context, id string) (*cashier.Event, error) {
	e, err := scanEvent(db.read.QueryRowContext(ctx, `SELECT `+eventCols+` FROM events WHERE id = ?`, id))
	if err != nil {
		return nil, readErr(err, "event", cashier.Errorf(cashier.ENotFound, "event %s not found", id))
	}
	return e, nil
}

// DefaultEventLimit is how many events Events returns when f.Limit is not
// positive.
const DefaultEventLimit = 100

// Events lists events newest first.
func (db *DB) Events(ctx context.Context, f cashier.EventFilter) ([]cashier.Event, error) {
	var w where
	w.eq("merchant_id", f.MerchantID)
	w.eq("order_id", f.OrderID)
	w.eq("state", string(f.State))
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultEventLimit
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+eventCols+` FROM events`+w.String()+` ORDER BY seq DESC LIMIT ?`,
		append(w.args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("store: list events: %w", err)
	}
	out, err := scanEvents(rows)
	if err != nil {
		return nil, fmt.Errorf("store: list events: %w", err)
	}
	return out, nil
}

// Attempts returns the event's delivery log, oldest first; empty for an
// event never attempted or unknown.
func (db *DB) Attempts(ctx context.Context, eventID string) ([]cashier.DeliveryAttempt, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT event_id, attempt, at, http_status, latency_us, error, next_attempt_at
		FROM delivery_attempts WHERE event_id = ? ORDER BY id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("store: list attempts: %w", err)
	}
	defer rows.Close()
	var out []cashier.DeliveryAttempt
	for rows.Next() {
		var (
			a         cashier.DeliveryAttempt
			at, next  sql.NullInt64
			latencyUs int64
		)
		if err := rows.Scan(&a.EventID, &a.Attempt, &at, &a.HTTPStatus, &latencyUs, &a.Error, &next); err != nil {
			return nil, fmt.Errorf("store: list attempts: %w", err)
		}
		a.At, a.NextAttemptAt = fromMillis(at), fromMillis(next)
		a.Latency = time.Duration(latencyUs) * time.Microsecond
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list attempts: %w", err)
	}
	return out, nil
}
