package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/stablecashier/cashier"
)

// Token approvals to payout contracts and the allowances they set
// (migration 0009).

// Approval implements cashier.AllowanceReader.
func (r reader) Approval(ctx context.Context, c cashier.Chain, txHash string, logIndex uint) (*cashier.Approval, error) {
	a := &cashier.Approval{Chain: c, TxHash: txHash, LogIndex: logIndex}
	var (
		value sql.NullString
		block int64
		at    sql.NullInt64
	)
	err := r.q.QueryRowContext(ctx, `SELECT token, owner, spender, value, block, block_hash, block_time
		FROM token_approvals WHERE chain = ? AND tx_hash = ? AND log_index = ?`, c, txHash, int64(logIndex)).
		Scan(&a.Token, &a.Owner, &a.Spender, &value, &block, &a.BlockHash, &at)
	if err != nil {
		return nil, readErr(err, "approval", cashier.Errorf(cashier.ENotFound, "approval %s/%d on %s is not recorded", txHash, logIndex, c))
	}
	if a.Value, err = fromAmountText("approval value", value); err != nil {
		return nil, err
	}
	a.BlockNumber, a.BlockTime = uint64(block), fromMillis(at)
	return a, nil
}

const allowanceCols = `chain, token, owner, spender, symbol, approved, spent, tx_hash, log_index, block, block_time, checked, updated_at`

func scanAllowance(s scanner) (*cashier.Allowance, error) {
	a := &cashier.Allowance{}
	var (
		approved, spent sql.NullString
		logIndex, block int64
		at, updated     sql.NullInt64
	)
	if err := s.Scan(&a.Chain, &a.Token, &a.Owner, &a.Spender, &a.Symbol, &approved, &spent, &a.TxHash, &logIndex, &block, &at,
		&a.Checked, &updated); err != nil {
		return nil, err
	}
	var err error
	if a.Approved, err = fromAmountText("approved", approved); err != nil {
		return nil, err
	}
	if a.Spent, err = fromAmountText("spent", spent); err != nil {
		return nil, err
	}
	a.LogIndex, a.Block, a.BlockTime, a.UpdatedAt = uint(logIndex), uint64(block), fromMillis(at), fromMillis(updated)
	return a, nil
}

func (r reader) allowances(ctx context.Context, query string, args ...any) ([]cashier.Allowance, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+allowanceCols+` FROM allowances WHERE `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: read allowances: %w", err)
	}
	defer rows.Close()
	var out []cashier.Allowance
	for rows.Next() {
		a, err := scanAllowance(rows)
		if err != nil {
			return nil, fmt.Errorf("store: read allowances: %w", err)
		}
		out = append(out, *a)
	}
	return out, rows.Err()
}

// Allowances implements cashier.AllowanceReader.
func (r reader) Allowances(ctx context.Context, c cashier.Chain, spender string) ([]cashier.Allowance, error) {
	return r.allowances(ctx, `chain = ? AND spender = ? ORDER BY symbol, owner`, c, spender)
}

// UncheckedAllowances implements cashier.AllowanceReader.
func (r reader) UncheckedAllowances(ctx context.Context, c cashier.Chain) ([]cashier.Allowance, error) {
	return r.allowances(ctx, `chain = ? AND checked = 0 ORDER BY block, log_index`, c)
}

// ContractAddresses implements cashier.AllowanceReader.
func (r reader) ContractAddresses(ctx context.Context, c cashier.Chain) ([]string, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT address FROM contracts WHERE chain = ? ORDER BY address`, c)
	if err != nil {
		return nil, fmt.Errorf("store: read contract addresses: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// RecordApproval implements cashier.AllowanceWriter.
func (t *tx) RecordApproval(ctx context.Context, a *cashier.Approval, symbol string, spentAfter *big.Int, now time.Time) (bool, error) {
	if a.Value == nil || a.TxHash == "" || a.Token == "" || a.Owner == "" || a.Spender == "" || a.BlockNumber > math.MaxInt64 {
		return false, cashier.Errorf(cashier.EInvalid, "approval %s/%d is incomplete", a.TxHash, a.LogIndex)
	}
	value, err := amountText("approval value", a.Value)
	if err != nil {
		return false, err
	}
	if spentAfter == nil {
		spentAfter = new(big.Int)
	}
	spent, err := amountText("spent", spentAfter)
	if err != nil {
		return false, err
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO token_approvals
		(chain, tx_hash, log_index, token, owner, spender, value, block, block_hash, block_time, recorded_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (chain, tx_hash, log_index) DO NOTHING`,
		a.Chain, a.TxHash, int64(a.LogIndex), a.Token, a.Owner, a.Spender, value, int64(a.BlockNumber), a.BlockHash, millis(a.BlockTime), now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("store: record approval: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	var block, logIndex int64
	err = t.tx.QueryRowContext(ctx, `SELECT block, log_index FROM allowances WHERE chain = ? AND token = ? AND owner = ? AND spender = ?`,
		a.Chain, a.Token, a.Owner, a.Spender).Scan(&block, &logIndex)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return false, fmt.Errorf("store: read allowance: %w", err)
	case uint64(block) > a.BlockNumber || (uint64(block) == a.BlockNumber && uint(logIndex) >= a.LogIndex):
		return n == 1, nil // an approval at or after this one already sets the allowance
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO allowances (`+allowanceCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
		ON CONFLICT (chain, token, owner, spender) DO UPDATE SET symbol = excluded.symbol, approved = excluded.approved,
			spent = excluded.spent, tx_hash = excluded.tx_hash, log_index = excluded.log_index, block = excluded.block,
			block_time = excluded.block_time, checked = 0, updated_at = excluded.updated_at`,
		a.Chain, a.Token, a.Owner, a.Spender, symbol, value, spent, a.TxHash, int64(a.LogIndex), int64(a.BlockNumber), millis(a.BlockTime), now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("store: write allowance: %w", err)
	}
	return n == 1, nil
}

// SpendAllowance implements cashier.AllowanceWriter.
func (t *tx) SpendAllowance(ctx context.Context, c cashier.Chain, token, owner, spender string, block uint64, n *big.Int) error {
	var (
		spent sql.NullString
		from  int64
	)
	err := t.tx.QueryRowContext(ctx, `SELECT spent, block FROM allowances WHERE chain = ? AND token = ? AND owner = ? AND spender = ?`,
		c, token, owner, spender).Scan(&spent, &from)
	if err == sql.ErrNoRows || (err == nil && uint64(from) > block) {
		return nil // no approval recorded yet, or the payment predates it
	}
	if err != nil {
		return fmt.Errorf("store: read allowance: %w", err)
	}
	cur, err := fromAmountText("spent", spent)
	if err != nil {
		return err
	}
	if n == nil || n.Sign() < 0 {
		return cashier.Errorf(cashier.EInvalidAmount, "spent amount must not be negative")
	}
	_, err = t.tx.ExecContext(ctx, `UPDATE allowances SET spent = ? WHERE chain = ? AND token = ? AND owner = ? AND spender = ?`,
		new(big.Int).Add(cur, n).String(), c, token, owner, spender)
	if err != nil {
		return fmt.Errorf("store: write allowance: %w", err)
	}
	return nil
}

// MarkAllowanceChecked implements cashier.AllowanceWriter.
func (t *tx) MarkAllowanceChecked(ctx context.Context, c cashier.Chain, token, owner, spender, txHash string, logIndex uint) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE allowances SET checked = 1
		WHERE chain = ? AND token = ? AND owner = ? AND spender = ? AND tx_hash = ? AND log_index = ?`,
		c, token, owner, spender, txHash, int64(logIndex))
	if err != nil {
		return fmt.Errorf("store: write allowance: %w", err)
	}
	return nil
}
