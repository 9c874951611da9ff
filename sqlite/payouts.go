package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"time"

	"github.com/stablecashier/cashier"
)

// Payout lifecycle storage: funding pools, settles, review policies, the
// service's keys and contract updates (migration 0003).

// PoolLocked implements cashier.PayoutReader: one primary-key probe plus an
// index range over the pool's recent settles, whatever the number of
// pending orders.
func (r reader) PoolLocked(ctx context.Context, pool string, afterBlock uint64) (*big.Int, error) {
	sum := new(big.Int)
	var locked sql.NullString
	err := r.q.QueryRowContext(ctx, `SELECT locked FROM funding_pools WHERE pool = ?`, pool).Scan(&locked)
	if err != nil && err != sql.ErrNoRows {
		return nil, fmt.Errorf("sqlite: read pool %s: %w", pool, err)
	}
	if v, err := fromAmountText("locked", locked); err != nil {
		return nil, err
	} else if v != nil {
		sum.Add(sum, v)
	}
	rows, err := r.q.QueryContext(ctx, `SELECT amount FROM funding_settles WHERE pool = ? AND block > ?`, pool, int64(afterBlock))
	if err != nil {
		return nil, fmt.Errorf("sqlite: read settles of %s: %w", pool, err)
	}
	defer rows.Close()
	for rows.Next() {
		var a sql.NullString
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		v, err := fromAmountText("settle amount", a)
		if err != nil {
			return nil, err
		}
		sum.Add(sum, v)
	}
	return sum, rows.Err()
}

// PoolTotals implements cashier.PayoutReader.
func (r reader) PoolTotals(ctx context.Context) (map[string]*big.Int, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT pool, locked FROM funding_pools`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: read pools: %w", err)
	}
	defer rows.Close()
	out := map[string]*big.Int{}
	for rows.Next() {
		var (
			p string
			l sql.NullString
		)
		if err := rows.Scan(&p, &l); err != nil {
			return nil, err
		}
		v, err := fromAmountText("locked", l)
		if err != nil {
			return nil, err
		}
		out[p] = v
	}
	return out, rows.Err()
}

// ReviewPolicy implements cashier.PayoutReader.
func (r reader) ReviewPolicy(ctx context.Context, merchantID string) (*cashier.ReviewPolicy, error) {
	p := &cashier.ReviewPolicy{MerchantID: merchantID, Mode: cashier.ReviewDefault}
	var at sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT mode, above, updated_at FROM review_policies WHERE merchant_id = ?`, merchantID).
		Scan(&p.Mode, &p.Above, &at)
	if err == sql.ErrNoRows {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: read review policy: %w", err)
	}
	p.UpdatedAt = fromMillis(at)
	return p, nil
}

func keyContext(c cashier.Chain, role cashier.KeyRole) []byte {
	return []byte("cashier/service-key/" + string(c) + "/" + string(role))
}

// ServiceKey implements cashier.PayoutReader.
func (r reader) ServiceKey(ctx context.Context, c cashier.Chain, role cashier.KeyRole) (*cashier.ServiceKey, error) {
	k := &cashier.ServiceKey{Chain: c, Role: role}
	var (
		sealed []byte
		at     sql.NullInt64
	)
	err := r.q.QueryRowContext(ctx, `SELECT address, key_sealed, created_at FROM service_keys WHERE chain = ? AND role = ?`, c, role).
		Scan(&k.Address, &sealed, &at)
	if err != nil {
		return nil, readErr(err, "service key", cashier.Errorf(cashier.ENotFound, "no %s key for %s", role, c))
	}
	if k.PrivateKey, err = r.sealer.Open(sealed, keyContext(c, role)); err != nil {
		return nil, fmt.Errorf("sqlite: %s key of %s: %w", role, c, err)
	}
	k.CreatedAt = fromMillis(at)
	return k, nil
}

// ContractByAddress implements cashier.PayoutReader.
func (r reader) ContractByAddress(ctx context.Context, c cashier.Chain, address string) (*cashier.Contract, error) {
	k, err := scanContract(r.q.QueryRowContext(ctx, `SELECT `+contractCols+` FROM contracts WHERE chain = ? AND address = ?`, c, address))
	if err != nil {
		return nil, readErr(err, "contract", cashier.Errorf(cashier.EContractNotFound, "contract %s on %s is not registered", address, c))
	}
	return k, nil
}

// AddPoolLock implements cashier.PayoutWriter.
func (t *tx) AddPoolLock(ctx context.Context, pool string, delta *big.Int) error {
	cur := new(big.Int)
	var locked sql.NullString
	err := t.tx.QueryRowContext(ctx, `SELECT locked FROM funding_pools WHERE pool = ?`, pool).Scan(&locked)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("sqlite: read pool %s: %w", pool, err)
	}
	if v, err := fromAmountText("locked", locked); err != nil {
		return err
	} else if v != nil {
		cur.Set(v)
	}
	cur.Add(cur, delta)
	if cur.Sign() < 0 {
		return cashier.Errorf(cashier.EInternal, "pool %s would lock %s, below zero", pool, cur)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO funding_pools (pool, locked) VALUES (?, ?)
		ON CONFLICT (pool) DO UPDATE SET locked = excluded.locked`, pool, cur.String())
	if err != nil {
		return fmt.Errorf("sqlite: write pool %s: %w", pool, err)
	}
	return nil
}

// AddSettle implements cashier.PayoutWriter.
func (t *tx) AddSettle(ctx context.Context, s *cashier.Settle) error {
	a, err := amountText("settle amount", s.Amount)
	if err != nil || a == nil {
		return cashier.Errorf(cashier.EInvalidAmount, "settle of %s has no valid amount", s.OrderID)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO funding_settles (order_id, pool, block, amount, settled_at) VALUES (?, ?, ?, ?, ?)`,
		s.OrderID, s.Pool, int64(s.Block), a, s.At.UnixMilli())
	return writeErr(err, "settle", fmt.Sprintf("order %s is settled on %s already", s.OrderID, s.Pool))
}

// PruneSettles implements cashier.PayoutWriter.
func (t *tx) PruneSettles(ctx context.Context, before time.Time) (int, error) {
	res, err := t.tx.ExecContext(ctx, `DELETE FROM funding_settles WHERE settled_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune settles: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// SetReviewPolicy implements cashier.PayoutWriter.
func (t *tx) SetReviewPolicy(ctx context.Context, p *cashier.ReviewPolicy) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO review_policies (merchant_id, mode, above, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (merchant_id) DO UPDATE SET mode = excluded.mode, above = excluded.above, updated_at = excluded.updated_at`,
		p.MerchantID, p.Mode, p.Above, p.UpdatedAt.UnixMilli())
	return writeErr(err, "review policy", "review policy exists")
}

// PutServiceKey implements cashier.PayoutWriter.
func (t *tx) PutServiceKey(ctx context.Context, k *cashier.ServiceKey) error {
	if len(k.PrivateKey) != 32 {
		return cashier.Errorf(cashier.EInvalid, "a %s key is 32 bytes, not %d", k.Role, len(k.PrivateKey))
	}
	sealed, err := t.sealer.Seal(k.PrivateKey, keyContext(k.Chain, k.Role))
	if err != nil {
		return fmt.Errorf("sqlite: seal %s key: %w", k.Role, err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO service_keys (chain, role, address, key_sealed, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (chain, role) DO UPDATE SET address = excluded.address, key_sealed = excluded.key_sealed, created_at = excluded.created_at`,
		k.Chain, k.Role, k.Address, sealed, k.CreatedAt.UnixMilli())
	return writeErr(err, "service key", "service key exists")
}

// UpdateContract implements cashier.PayoutWriter.
func (t *tx) UpdateContract(ctx context.Context, c *cashier.Contract) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE contracts SET webhook_url = ?, status = ? WHERE id = ?`, c.WebhookURL, c.Status, c.ID)
	if err != nil {
		return writeErr(err, "contract", "contract exists")
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return cashier.Errorf(cashier.EContractNotFound, "contract %s not found", c.ID)
	}
	return nil
}
