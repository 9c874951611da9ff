package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/stablecashier/cashier"
)

// Signed sends of payout executions (migration 0009).

// SignedSends implements cashier.SendJournalReader.
func (r reader) SignedSends(ctx context.Context, execID string) ([]cashier.SignedSend, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT tx_id, raw, expiration, created_at FROM signed_sends
		WHERE exec_id = ? ORDER BY created_at, tx_id`, execID)
	if err != nil {
		return nil, fmt.Errorf("store: read signed sends: %w", err)
	}
	defer rows.Close()
	var out []cashier.SignedSend
	for rows.Next() {
		s := cashier.SignedSend{ExecID: execID}
		var exp, at sql.NullInt64
		if err := rows.Scan(&s.TxID, &s.Raw, &exp, &at); err != nil {
			return nil, fmt.Errorf("store: read signed sends: %w", err)
		}
		s.Expiration, s.CreatedAt = fromMillis(exp), fromMillis(at)
		out = append(out, s)
	}
	return out, rows.Err()
}

// AddSignedSend implements cashier.SendJournalWriter.
func (t *tx) AddSignedSend(ctx context.Context, s *cashier.SignedSend) error {
	if s.ExecID == "" || s.TxID == "" || len(s.Raw) == 0 || s.Expiration.IsZero() {
		return cashier.Errorf(cashier.EInvalid, "signed send of %q is incomplete", s.ExecID)
	}
	if err := needCreatedAt("signed send", s.CreatedAt); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO signed_sends (exec_id, tx_id, raw, expiration, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (exec_id, tx_id) DO NOTHING`, s.ExecID, s.TxID, s.Raw, s.Expiration.UnixMilli(), s.CreatedAt.UnixMilli())
	return writeErr(err, "signed send", "signed send "+s.TxID+" is recorded already")
}
