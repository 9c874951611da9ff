package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strings"

	"github.com/stablecashier/cashier"
)

// The nonce journals of the service's EVM accounts (migration 0022).

var _ cashier.TxJournals = (*DB)(nil)

// AppendTx implements cashier.TxJournals.
func (db *DB) AppendTx(ctx context.Context, chainID uint64, account string, e cashier.JournaledTx) error {
	if e.Send == "" || e.Hash == "" || len(e.Raw) == 0 || e.TipCap == nil || e.FeeCap == nil || e.Time.IsZero() {
		return cashier.Errorf(cashier.EInvalid, "journal entry %q is incomplete", e.Hash)
	}
	account = strings.ToLower(account)
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		// seq under the store's write lock (SQLite's writer, PostgreSQL's
		// write lock): the order of recording.
		_, err := tx.ExecContext(ctx, `INSERT INTO tx_journal
			(chain_id, account, hash, send, nonce, raw, tip_cap, fee_cap, signed_at, seq)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(MAX(seq), 0) + 1 FROM tx_journal WHERE chain_id = ? AND account = ?
			ON CONFLICT (chain_id, account, hash) DO NOTHING`,
			int64(chainID), account, e.Hash, e.Send, int64(e.Nonce), e.Raw, e.TipCap.String(), e.FeeCap.String(), e.Time.UnixMilli(),
			int64(chainID), account)
		if err != nil {
			return fmt.Errorf("store: journal append: %w", err)
		}
		return nil
	})
}

// SettleSend implements cashier.TxJournals.
func (db *DB) SettleSend(ctx context.Context, chainID uint64, account, send, mined string) error {
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tx_journal SET settled = 1, mined = ? WHERE chain_id = ? AND account = ? AND send = ? AND settled = 0`,
			mined, int64(chainID), strings.ToLower(account), send)
		if err != nil {
			return fmt.Errorf("store: journal settle: %w", err)
		}
		return nil
	})
}

// UnsettledTxs implements cashier.TxJournals.
func (db *DB) UnsettledTxs(ctx context.Context, chainID uint64, account string) ([]cashier.JournaledTx, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT send, nonce, hash, raw, tip_cap, fee_cap, signed_at FROM tx_journal
		WHERE chain_id = ? AND account = ? AND settled = 0 ORDER BY seq`, int64(chainID), strings.ToLower(account))
	if err != nil {
		return nil, fmt.Errorf("store: journal read: %w", err)
	}
	defer rows.Close()
	var out []cashier.JournaledTx
	for rows.Next() {
		var e cashier.JournaledTx
		var nonce int64
		var tip, fee string
		var at sql.NullInt64
		if err := rows.Scan(&e.Send, &nonce, &e.Hash, &e.Raw, &tip, &fee, &at); err != nil {
			return nil, fmt.Errorf("store: journal read: %w", err)
		}
		var ok1, ok2 bool
		e.TipCap, ok1 = new(big.Int).SetString(tip, 10)
		e.FeeCap, ok2 = new(big.Int).SetString(fee, 10)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("store: journal entry %s: fee caps %q, %q are not integers", e.Hash, tip, fee)
		}
		e.Nonce, e.Time = uint64(nonce), fromMillis(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// NextJournalNonce implements cashier.TxJournals.
func (db *DB) NextJournalNonce(ctx context.Context, chainID uint64, account string) (uint64, error) {
	var n sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT MAX(nonce) FROM tx_journal
		WHERE chain_id = ? AND account = ? AND (settled = 0 OR mined <> '')`, int64(chainID), strings.ToLower(account)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: journal nonce: %w", err)
	}
	if !n.Valid {
		return 0, nil
	}
	return uint64(n.Int64) + 1, nil
}
