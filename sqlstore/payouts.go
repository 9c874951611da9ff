package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"strings"
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
		return nil, fmt.Errorf("store: read pool %s: %w", pool, err)
	}
	if v, err := fromAmountText("locked", locked); err != nil {
		return nil, err
	} else if v != nil {
		sum.Add(sum, v)
	}
	settled, err := r.settlesAfter(ctx, pool, afterBlock)
	if err != nil {
		return nil, err
	}
	return sum.Add(sum, settled), nil
}

// settlesAfter sums pool's settles above block afterBlock.
func (r reader) settlesAfter(ctx context.Context, pool string, afterBlock uint64) (*big.Int, error) {
	sum := new(big.Int)
	after := int64(min(afterBlock, math.MaxInt64)) // SQLite integers are signed
	rows, err := r.q.QueryContext(ctx, `SELECT amount FROM funding_settles WHERE pool = ? AND block > ?`, pool, after)
	if err != nil {
		return nil, fmt.Errorf("store: read settles of %s: %w", pool, err)
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
		return nil, fmt.Errorf("store: read pools: %w", err)
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
		return nil, fmt.Errorf("store: read review policy: %w", err)
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
		return nil, fmt.Errorf("store: %s key of %s: %w", role, c, err)
	}
	k.CreatedAt = fromMillis(at)
	return k, nil
}

func signerContext(merchantID string, c cashier.Chain) []byte {
	return []byte("cashier/merchant-signer/" + merchantID + "/" + string(c))
}

// MerchantSigner implements cashier.PayoutReader.
func (r reader) MerchantSigner(ctx context.Context, merchantID string, c cashier.Chain) (*cashier.MerchantSigner, error) {
	k := &cashier.MerchantSigner{MerchantID: merchantID, Chain: c}
	var (
		sealed []byte
		at     sql.NullInt64
	)
	err := r.q.QueryRowContext(ctx, `SELECT address, key_sealed, created_at FROM merchant_signers WHERE merchant_id = ? AND chain = ?`, merchantID, c).
		Scan(&k.Address, &sealed, &at)
	if err != nil {
		return nil, readErr(err, "merchant signer", cashier.Errorf(cashier.ENotFound, "merchant %s has no signer on %s", merchantID, c))
	}
	if k.PrivateKey, err = r.sealer.Open(sealed, signerContext(merchantID, c)); err != nil {
		return nil, fmt.Errorf("store: signer of merchant %s on %s: %w", merchantID, c, err)
	}
	k.CreatedAt = fromMillis(at)
	return k, nil
}

// SignerOwner implements cashier.PayoutReader.
func (r reader) SignerOwner(ctx context.Context, c cashier.Chain, address string) (string, error) {
	var id string
	err := r.q.QueryRowContext(ctx, `SELECT merchant_id FROM merchant_signers WHERE chain = ? AND address = ?`, c, address).Scan(&id)
	if err != nil {
		return "", readErr(err, "merchant signer", cashier.Errorf(cashier.ENotFound, "%s is no merchant's signer on %s", address, c))
	}
	return id, nil
}

// ContractByAddress implements cashier.PayoutReader.
func (r reader) ContractByAddress(ctx context.Context, c cashier.Chain, address string) (*cashier.Contract, error) {
	k, err := scanContract(r.q.QueryRowContext(ctx, `SELECT `+contractRead+` FROM contracts WHERE chain = ? AND address = ?`, c, address))
	if err != nil {
		return nil, readErr(err, "contract", cashier.Errorf(cashier.EContractNotFound, "contract %s on %s is not registered", address, c))
	}
	return k, nil
}

// lockPool reads the running locked total of pool inside the write
// transaction. Where writers run in parallel (Dialect.ForUpdate), it first
// makes sure the pool's row exists and then locks it until the commit: a
// payout created on another instance waits, then reads the total this
// transaction leaves, so two instances never both spend the same funds.
func (t *tx) lockPool(ctx context.Context, pool string) (*big.Int, error) {
	if t.d.ForUpdate != "" {
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO funding_pools (pool, locked) VALUES (?, '0') ON CONFLICT DO NOTHING`, pool); err != nil {
			return nil, fmt.Errorf("store: add pool %s: %w", pool, err)
		}
	}
	cur := new(big.Int)
	var locked sql.NullString
	err := t.tx.QueryRowContext(ctx, `SELECT locked FROM funding_pools WHERE pool = ?`+t.d.ForUpdate, pool).Scan(&locked)
	if err != nil && err != sql.ErrNoRows {
		return nil, fmt.Errorf("store: read pool %s: %w", pool, err)
	}
	if v, err := fromAmountText("locked", locked); err != nil {
		return nil, err
	} else if v != nil {
		cur.Set(v)
	}
	return cur, nil
}

// PoolLocked implements cashier.PayoutReader in a write transaction: the
// pool's row is locked (lockPool) before its settles are read, so a
// settle committed by the writer this one waited for is seen too.
func (t *tx) PoolLocked(ctx context.Context, pool string, afterBlock uint64) (*big.Int, error) {
	cur, err := t.lockPool(ctx, pool)
	if err != nil {
		return nil, err
	}
	settled, err := t.reader.settlesAfter(ctx, pool, afterBlock)
	if err != nil {
		return nil, err
	}
	return cur.Add(cur, settled), nil
}

// AddPoolLock implements cashier.PayoutWriter.
func (t *tx) AddPoolLock(ctx context.Context, pool string, delta *big.Int) error {
	cur, err := t.lockPool(ctx, pool)
	if err != nil {
		return err
	}
	cur.Add(cur, delta)
	if cur.Sign() < 0 {
		return cashier.Errorf(cashier.EInternal, "pool %s would lock %s, below zero", pool, cur)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO funding_pools (pool, locked) VALUES (?, ?)
		ON CONFLICT (pool) DO UPDATE SET locked = excluded.locked`, pool, cur.String())
	if err != nil {
		return fmt.Errorf("store: write pool %s: %w", pool, err)
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
		return 0, fmt.Errorf("store: prune settles: %w", err)
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
		return fmt.Errorf("store: seal %s key: %w", k.Role, err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO service_keys (chain, role, address, key_sealed, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (chain, role) DO UPDATE SET address = excluded.address, key_sealed = excluded.key_sealed, created_at = excluded.created_at`,
		k.Chain, k.Role, k.Address, sealed, k.CreatedAt.UnixMilli())
	return writeErr(err, "service key", "service key exists")
}

// CreateMerchantSigner implements cashier.PayoutWriter.
func (t *tx) CreateMerchantSigner(ctx context.Context, k *cashier.MerchantSigner) error {
	if len(k.PrivateKey) != 32 && len(k.PrivateKey) != 0 { // empty: held by Clef
		return cashier.Errorf(cashier.EInvalid, "a signer key is 32 bytes, not %d", len(k.PrivateKey))
	}
	sealed, err := t.sealer.Seal(k.PrivateKey, signerContext(k.MerchantID, k.Chain))
	if err != nil {
		return fmt.Errorf("store: seal signer key: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO merchant_signers (merchant_id, chain, address, key_sealed, created_at) VALUES (?, ?, ?, ?, ?)`,
		k.MerchantID, k.Chain, k.Address, sealed, k.CreatedAt.UnixMilli())
	return writeErr(err, "merchant signer", fmt.Sprintf("merchant %s has a signer on %s already, or %s is another merchant's signer", k.MerchantID, k.Chain, k.Address))
}

// UpdateContract implements cashier.PayoutWriter.
func (t *tx) UpdateContract(ctx context.Context, c *cashier.Contract) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE contracts SET webhook_url = ?, status = ?, signer = ? WHERE id = ?`, c.WebhookURL, c.Status, c.Signer, c.ID)
	if err != nil {
		return writeErr(err, "contract", "contract exists")
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return cashier.Errorf(cashier.EContractNotFound, "contract %s not found", c.ID)
	}
	return nil
}

const execCols = `id, chain, contract_id, contract, symbol, mode, from_address, nonce, timestamp, state, tx_hashes,
	ambiguous, start_block, attempts, last_error, tx_id, block, created_at, updated_at`

func scanExec(s scanner) (*cashier.PayoutExec, error) {
	var (
		e                cashier.PayoutExec
		nonce, hashes    string
		created, updated sql.NullInt64
	)
	err := s.Scan(&e.ID, &e.Chain, &e.ContractID, &e.Contract, &e.Symbol, &e.Mode, &e.From, &nonce, &e.Timestamp, &e.State, &hashes,
		&e.Ambiguous, &e.StartBlock, &e.Attempts, &e.LastError, &e.TxID, &e.Block, &created, &updated)
	if err != nil {
		return nil, err
	}
	var ok bool
	if e.Nonce, ok = new(big.Int).SetString(nonce, 10); !ok {
		return nil, fmt.Errorf("store: execution %s has nonce %q", e.ID, nonce)
	}
	if hashes != "" {
		e.TxHashes = strings.Split(hashes, ",")
	}
	e.CreatedAt, e.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &e, nil
}

func execArgs(e *cashier.PayoutExec) []any {
	return []any{e.ID, e.Chain, e.ContractID, e.Contract, e.Symbol, int64(e.Mode), e.From, e.Nonce.String(), e.Timestamp, e.State,
		strings.Join(e.TxHashes, ","), e.Ambiguous, int64(e.StartBlock), e.Attempts, e.LastError, e.TxID, int64(e.Block),
		e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli()}
}

// Exec implements cashier.ExecReader.
func (r reader) Exec(ctx context.Context, id string) (*cashier.PayoutExec, error) {
	e, err := scanExec(r.q.QueryRowContext(ctx, `SELECT `+execCols+` FROM payout_execs WHERE id = ?`, id))
	if err != nil {
		return nil, readErr(err, "execution", cashier.Errorf(cashier.ENotFound, "execution %s not found", id))
	}
	return e, nil
}

// OpenExecs implements cashier.ExecReader.
func (r reader) OpenExecs(ctx context.Context) ([]cashier.PayoutExec, error) {
	return queryAll(ctx, r.q, "executions", scanExec,
		`SELECT `+execCols+` FROM payout_execs WHERE state NOT IN ('done', 'failed') ORDER BY created_at, rowid`)
}

func (r reader) payoutRows(ctx context.Context, query string, args ...any) ([]cashier.PayoutOrder, error) {
	return queryAll(ctx, r.q, "payout orders", scanPayout, query, args...)
}

// ExecOrders implements cashier.ExecReader.
func (r reader) ExecOrders(ctx context.Context, execID string) ([]cashier.PayoutOrder, error) {
	return r.payoutRows(ctx, `SELECT `+payoutCols+` FROM payout_orders WHERE exec_id = ? ORDER BY created_at, rowid`, execID)
}

// ExecutablePayouts implements cashier.ExecReader.
func (r reader) ExecutablePayouts(ctx context.Context, n int) ([]cashier.PayoutOrder, error) {
	return r.payoutRows(ctx, `SELECT `+payoutCols+` FROM payout_orders
		WHERE (status = 'PENDING' AND needs_review = 0 OR status = 'PROCESSING') AND exec_id = ''
		ORDER BY created_at, rowid LIMIT ?`, n)
}

// CreateExec implements cashier.ExecWriter.
func (t *tx) CreateExec(ctx context.Context, e *cashier.PayoutExec) error {
	if err := needID("execution", e.ID); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO payout_execs (`+execCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, execArgs(e)...)
	return writeErr(err, "execution", fmt.Sprintf("execution %s or nonce %s on %s exists already", e.ID, e.Nonce, e.Contract))
}

// UpdateExec implements cashier.ExecWriter; the state must follow the
// execution state table.
func (t *tx) UpdateExec(ctx context.Context, e *cashier.PayoutExec) error {
	var cur cashier.ExecState
	var nonce string
	if err := t.tx.QueryRowContext(ctx, `SELECT state, nonce FROM payout_execs WHERE id = ?`, e.ID).Scan(&cur, &nonce); err != nil {
		return readErr(err, "execution", cashier.Errorf(cashier.ENotFound, "execution %s not found", e.ID))
	}
	if cur != e.State && !cur.CanTransition(e.State) {
		return cashier.Errorf(cashier.EInvalidStatus, "execution %s cannot go from %s to %s", e.ID, cur, e.State)
	}
	if nonce != e.Nonce.String() {
		return cashier.Errorf(cashier.EInternal, "execution %s: the contract nonce never changes", e.ID)
	}
	args := execArgs(e)
	_, err := t.tx.ExecContext(ctx, `UPDATE payout_execs SET timestamp = ?, state = ?, tx_hashes = ?, ambiguous = ?, start_block = ?,
		attempts = ?, last_error = ?, tx_id = ?, block = ?, updated_at = ? WHERE id = ?`,
		args[8], args[9], args[10], args[11], args[12], args[13], args[14], args[15], args[16], args[18], e.ID)
	return writeErr(err, "execution", "execution exists")
}
