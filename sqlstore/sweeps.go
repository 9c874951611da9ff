package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/stablecashier/cashier"
)

// Sweeps of deposit addresses (migration 0006). They are written by the
// sweeper only, through these methods of DB rather than the shared Tx.

// SweepCandidate is a deposit address that received a token after its
// last completed sweep (or never swept), with its order.
type SweepCandidate struct {
	OrderID    string
	MerchantID string
	Address    string
	Token      string
}

// SweepCandidates returns c's deposit addresses holding confirmed token
// payments not covered by a sweep in flight or one completed after them.
// The chain's balance, read by the sweeper, decides what is really moved.
func (db *DB) SweepCandidates(ctx context.Context, c cashier.Chain) ([]SweepCandidate, error) {
	return db.sweepCandidates(ctx, c, false)
}

func (db *DB) sweepCandidates(ctx context.Context, c cashier.Chain, native bool) ([]SweepCandidate, error) {
	// The native coin is recorded with an empty token (NativeSweepCandidates).
	rows, err := db.read.QueryContext(ctx, `
		SELECT DISTINCT p.order_id, p.merchant_id, p.to_address, p.token
		FROM payments p
		WHERE p.chain = ? AND p.status = 'CONFIRMED' AND (CASE WHEN p.token = '' THEN 1 ELSE 0 END) = ?
		  AND NOT EXISTS (
			SELECT 1 FROM sweep_items i JOIN sweeps s ON s.id = i.sweep_id
			WHERE i.address = p.to_address AND s.chain = p.chain AND s.token = p.token
			  AND (s.status IN ('PREPARED', 'SENT') OR (s.status = 'DONE' AND s.created_at >= p.confirmed_at)))
		ORDER BY p.order_id, p.token`, c, native)
	if err != nil {
		return nil, fmt.Errorf("store: sweep candidates: %w", err)
	}
	defer rows.Close()
	var out []SweepCandidate
	for rows.Next() {
		var s SweepCandidate
		if err := rows.Scan(&s.OrderID, &s.MerchantID, &s.Address, &s.Token); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// CreateSweep records s as PREPARED with its items; EDuplicate when a
// sweep of the same factory and token is in flight.
func (db *DB) CreateSweep(ctx context.Context, s *cashier.Sweep) error {
	amount, err := amountText("amount", s.Amount)
	if err != nil {
		return err
	}
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sweeps (id, chain, factory, token, amount, status, tx_hash, error, attempts, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.ID, s.Chain, s.Factory, s.Token, amount, s.Status, s.TxHash, s.Error, s.Attempts,
			millis(s.CreatedAt), millis(s.UpdatedAt))
		if err := writeErr(err, "sweep", "a sweep of "+s.Token+" from factory "+s.Factory+" is in flight"); err != nil {
			return err
		}
		for _, it := range s.Items {
			a, err := amountText("amount", it.Amount)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO sweep_items (sweep_id, order_id, address, amount) VALUES (?, ?, ?, ?)`,
				s.ID, it.OrderID, it.Address, a); err != nil {
				return writeErr(err, "sweep item", "address "+it.Address+" twice in sweep "+s.ID)
			}
		}
		return nil
	})
}

// UpdateSweep moves sweep id from its stored status to s.Status (the
// state table decides), with the hash, error and attempts of s.
func (db *DB) UpdateSweep(ctx context.Context, s *cashier.Sweep) error {
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		var cur cashier.SweepStatus
		if err := tx.QueryRowContext(ctx, `SELECT status FROM sweeps WHERE id = ?`, s.ID).Scan(&cur); err != nil {
			return readErr(err, "sweep", cashier.Errorf(cashier.ENotFound, "sweep %s not found", s.ID))
		}
		if cur != s.Status && !cur.CanTransition(s.Status) {
			return cashier.Errorf(cashier.EInvalidStatus, "sweep %s is %s and cannot become %s", s.ID, cur, s.Status)
		}
		_, err := tx.ExecContext(ctx, `UPDATE sweeps SET status = ?, tx_hash = ?, error = ?, attempts = ?, updated_at = ? WHERE id = ?`,
			s.Status, s.TxHash, s.Error, s.Attempts, millis(s.UpdatedAt), s.ID)
		return writeErr(err, "sweep", "")
	})
}

// Sweeps lists c's sweeps ("" every network), in flight first, then newest
// first; with inFlight only PREPARED and SENT ones.
func (db *DB) Sweeps(ctx context.Context, c cashier.Chain, inFlight bool) ([]cashier.Sweep, error) {
	q := `SELECT id, chain, factory, token, amount, status, tx_hash, error, attempts, created_at, updated_at FROM sweeps
		WHERE (? = '' OR chain = ?)`
	if inFlight {
		q += ` AND status IN ('PREPARED', 'SENT')`
	}
	q += ` ORDER BY status IN ('PREPARED', 'SENT') DESC, created_at DESC, id`
	rows, err := db.read.QueryContext(ctx, q, c, c)
	if err != nil {
		return nil, fmt.Errorf("store: sweeps: %w", err)
	}
	var out []cashier.Sweep
	for rows.Next() {
		var (
			s                cashier.Sweep
			amount           sql.NullString
			created, updated sql.NullInt64
		)
		if err := rows.Scan(&s.ID, &s.Chain, &s.Factory, &s.Token, &amount, &s.Status, &s.TxHash, &s.Error, &s.Attempts, &created, &updated); err != nil {
			rows.Close()
			return nil, err
		}
		if s.Amount, err = fromAmountText("amount", amount); err != nil {
			rows.Close()
			return nil, err
		}
		s.CreatedAt, s.UpdatedAt = fromMillis(created), fromMillis(updated)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		items, err := db.read.QueryContext(ctx, `SELECT order_id, address, amount FROM sweep_items WHERE sweep_id = ? ORDER BY address`, out[i].ID)
		if err != nil {
			return nil, err
		}
		for items.Next() {
			var it cashier.SweepItem
			var a sql.NullString
			if err := items.Scan(&it.OrderID, &it.Address, &a); err != nil {
				items.Close()
				return nil, err
			}
			if it.Amount, err = fromAmountText("amount", a); err != nil {
				items.Close()
				return nil, err
			}
			out[i].Items = append(out[i].Items, it)
		}
		items.Close()
	}
	return out, nil
}
