package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// Received transfers, watcher cursors and the lookups of the chain watcher
// and the expiry worker (migration 0002).

const paymentCols = `chain, tx_hash, log_index, order_id, merchant_id, token, symbol, decimals,
	from_address, to_address, amount, block_number, block_hash, block_time, status, effect,
	seen_at, confirmed_at, updated_at, reorged_at`

func scanPayment(s scanner) (*cashier.Payment, error) {
	var (
		p                     cashier.Payment
		amount                sql.NullString
		logIndex, block       int64
		blockTime, seen, conf sql.NullInt64
		updated, reorged      sql.NullInt64
	)
	err := s.Scan(&p.Chain, &p.TxHash, &logIndex, &p.OrderID, &p.MerchantID, &p.Token, &p.Symbol, &p.Decimals,
		&p.From, &p.To, &amount, &block, &p.BlockHash, &blockTime, &p.Status, &p.Effect,
		&seen, &conf, &updated, &reorged)
	if err != nil {
		return nil, err
	}
	if p.Amount, err = fromAmountText("amount", amount); err != nil {
		return nil, err
	}
	p.LogIndex, p.BlockNumber = uint(logIndex), uint64(block)
	p.BlockTime, p.SeenAt, p.ConfirmedAt, p.UpdatedAt = fromMillis(blockTime), fromMillis(seen), fromMillis(conf), fromMillis(updated)
	p.ReorgedAt = fromMillis(reorged)
	return &p, nil
}

func paymentArgs(p *cashier.Payment) ([]any, error) {
	if p.Amount == nil {
		return nil, cashier.Errorf(cashier.EInvalidAmount, "payment %s/%d has no amount", p.TxHash, p.LogIndex)
	}
	amount, err := amountText("amount", p.Amount)
	if err != nil {
		return nil, err
	}
	if p.TxHash == "" || p.OrderID == "" || p.SeenAt.IsZero() {
		return nil, cashier.Errorf(cashier.EInvalid, "payment needs a transaction hash, an order and a seen time")
	}
	return []any{p.Chain, p.TxHash, int64(p.LogIndex), p.OrderID, p.MerchantID, p.Token, p.Symbol, p.Decimals,
		p.From, p.To, amount, int64(p.BlockNumber), p.BlockHash, millis(p.BlockTime), p.Status, p.Effect,
		millis(p.SeenAt), millis(p.ConfirmedAt), millis(p.UpdatedAt), millis(p.ReorgedAt)}, nil
}

func (t *tx) CreatePayment(ctx context.Context, p *cashier.Payment) error {
	args, err := paymentArgs(p)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO payments (`+paymentCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, args...)
	return inserted(res, err, "payment", fmt.Sprintf("transfer %s/%d on %s is recorded already", p.TxHash, p.LogIndex, p.Chain))
}

func (t *tx) UpdatePayment(ctx context.Context, p *cashier.Payment) error {
	args, err := paymentArgs(p)
	if err != nil {
		return err
	}
	// SET takes every column but the key; WHERE takes the key.
	args = append(args[3:], args[0], args[1], args[2])
	res, err := t.tx.ExecContext(ctx, `UPDATE payments SET
		order_id = ?, merchant_id = ?, token = ?, symbol = ?, decimals = ?, from_address = ?, to_address = ?,
		amount = ?, block_number = ?, block_hash = ?, block_time = ?, status = ?, effect = ?,
		seen_at = ?, confirmed_at = ?, updated_at = ?, reorged_at = ?
		WHERE chain = ? AND tx_hash = ? AND log_index = ?`, args...)
	if err != nil {
		return fmt.Errorf("store: update payment: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return cashier.Errorf(cashier.ENotFound, "transfer %s/%d on %s is not recorded", p.TxHash, p.LogIndex, p.Chain)
	}
	return nil
}

func (t *tx) RekeyPayment(ctx context.Context, c cashier.Chain, txHash string, from, to uint) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE payments SET log_index = ? WHERE chain = ? AND tx_hash = ? AND log_index = ?`,
		int64(to), c, txHash, int64(from))
	if err != nil {
		return writeErr(err, "payment", fmt.Sprintf("transfer %s/%d on %s is recorded already", txHash, to, c))
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return cashier.Errorf(cashier.ENotFound, "transfer %s/%d on %s is not recorded", txHash, from, c)
	}
	return nil
}

func (t *tx) SetCursor(ctx context.Context, c cashier.ChainCursor) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO chain_cursors (chain, confirmed, confirmed_hash, head, updated_at, confirmed_time)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (chain) DO UPDATE SET confirmed = excluded.confirmed, confirmed_hash = excluded.confirmed_hash,
			head = excluded.head, updated_at = excluded.updated_at, confirmed_time = excluded.confirmed_time`,
		c.Chain, int64(c.Confirmed), c.ConfirmedHash, int64(c.Head), c.UpdatedAt.UnixMilli(), millis(c.ConfirmedTime))
	if err != nil {
		return fmt.Errorf("store: set cursor: %w", err)
	}
	return nil
}

func (r reader) Cursor(ctx context.Context, c cashier.Chain) (cashier.ChainCursor, error) {
	cur := cashier.ChainCursor{Chain: c}
	var conf, head, updated int64
	var at sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT confirmed, confirmed_hash, head, updated_at, confirmed_time FROM chain_cursors WHERE chain = ?`, c).
		Scan(&conf, &cur.ConfirmedHash, &head, &updated, &at)
	if err == sql.ErrNoRows {
		return cur, nil
	}
	if err != nil {
		return cur, fmt.Errorf("store: cursor: %w", err)
	}
	cur.Confirmed, cur.Head, cur.UpdatedAt = uint64(conf), uint64(head), time.UnixMilli(updated).UTC()
	cur.ConfirmedTime = fromMillis(at)
	return cur, nil
}

func (r reader) Payment(ctx context.Context, c cashier.Chain, txHash string, logIndex uint) (*cashier.Payment, error) {
	p, err := scanPayment(r.q.QueryRowContext(ctx, `SELECT `+paymentCols+` FROM payments
		WHERE chain = ? AND tx_hash = ? AND log_index = ?`, c, txHash, int64(logIndex)))
	if err != nil {
		return nil, readErr(err, "payment", cashier.Errorf(cashier.ENotFound, "transfer %s/%d on %s is not recorded", txHash, logIndex, c))
	}
	return p, nil
}

func (r reader) payments(ctx context.Context, what, query string, args ...any) ([]cashier.Payment, error) {
	return queryAll(ctx, r.q, what, scanPayment, query, args...)
}

func (r reader) PaymentsByOrder(ctx context.Context, orderID string) ([]cashier.Payment, error) {
	return r.payments(ctx, "payments of order", `SELECT `+paymentCols+` FROM payments
		WHERE order_id = ? ORDER BY block_number, log_index, tx_hash`, orderID)
}

func (r reader) SeenPayments(ctx context.Context, c cashier.Chain) ([]cashier.Payment, error) {
	return r.payments(ctx, "seen payments", `SELECT `+paymentCols+` FROM payments
		WHERE chain = ? AND status = 'SEEN' ORDER BY block_number, log_index`, c)
}

func (r reader) ConfirmedPaymentsFrom(ctx context.Context, c cashier.Chain, from uint64) ([]cashier.Payment, error) {
	return r.payments(ctx, "confirmed payments", `SELECT `+paymentCols+` FROM payments
		WHERE chain = ? AND status = 'CONFIRMED' AND block_number >= ? ORDER BY block_number DESC, log_index`, c, int64(from))
}

func (r reader) ReorgedPayments(ctx context.Context, c cashier.Chain) ([]cashier.Payment, error) {
	return r.payments(ctx, "reorged payments", `SELECT `+paymentCols+` FROM payments
		WHERE chain = ? AND reorged_at IS NOT NULL ORDER BY block_number, log_index`, c)
}

func (r reader) ReorgAlerts(ctx context.Context, c cashier.Chain) (orders, missing int, err error) {
	err = r.q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM collection_orders WHERE chain = ? AND reorged_at IS NOT NULL),
		(SELECT count(*) FROM payments WHERE chain = ? AND reorged_at IS NOT NULL)`, c, c).Scan(&orders, &missing)
	if err != nil {
		return 0, 0, fmt.Errorf("store: reorg alerts: %w", err)
	}
	return orders, missing, nil
}

// addressBatch bounds the IN list of one lookup (SQLite's default limit on
// host parameters is far higher; 500 keeps statements small).
const addressBatch = 500

func (r reader) CollectionsByAddress(ctx context.Context, c cashier.Chain, addrs []string) ([]cashier.CollectionOrder, error) {
	var out []cashier.CollectionOrder
	for len(addrs) > 0 {
		n := min(len(addrs), addressBatch)
		batch := addrs[:n]
		addrs = addrs[n:]
		args := make([]any, 0, n+1)
		args = append(args, c)
		for _, a := range batch {
			args = append(args, a)
		}
		some, err := queryAll(ctx, r.q, "orders by address", scanCollection, `SELECT `+collectionCols+` FROM collection_orders
			WHERE chain = ? AND deposit_address IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, some...)
	}
	return out, nil
}

func (r reader) ShownAddresses(ctx context.Context, c cashier.Chain, addrs []string) (map[string]string, error) {
	out := map[string]string{}
	for len(addrs) > 0 {
		n := min(len(addrs), addressBatch)
		args := make([]any, 0, n+1)
		args = append(args, c)
		for _, a := range addrs[:n] {
			args = append(args, a)
		}
		addrs = addrs[n:]
		rows, err := r.q.QueryContext(ctx, `SELECT address, order_id FROM collection_addresses
			WHERE chain = ? AND address IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: shown addresses: %w", err)
		}
		for rows.Next() {
			var a, id string
			if err := rows.Scan(&a, &id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: shown addresses: %w", err)
			}
			out[a] = id
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("store: shown addresses: %w", err)
		}
	}
	return out, nil
}

func (t *tx) AddShownAddress(ctx context.Context, c cashier.Chain, addr, orderID string) error {
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO collection_addresses (chain, address, order_id)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, c, addr, orderID); err != nil {
		return fmt.Errorf("store: add shown address: %w", err)
	}
	return nil
}

func (r reader) ExpiringCollections(ctx context.Context, c cashier.Chain, t time.Time, n int) ([]cashier.CollectionOrder, error) {
	return queryAll(ctx, r.q, "expiring orders", scanCollection, `SELECT `+collectionCols+` FROM collection_orders
		WHERE status = 'PENDING' AND expire_at <= ? AND chain = ? ORDER BY expire_at LIMIT ?`, t.UnixMilli(), c, n)
}

func (r reader) NextCollectionExpiry(ctx context.Context) (time.Time, error) {
	var v sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT min(expire_at) FROM collection_orders WHERE status = 'PENDING'`).Scan(&v)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: next expiry: %w", err)
	}
	return fromMillis(v), nil
}
