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

// Refunds of collection orders (migration 0020).

const refundCols = `id, merchant_id, refund_no, order_id, order_no, chain, symbol, decimals, amount, address, by_link,
	payout_id, status, fee, tx_id, block, fail_reason, reason, sent_at, created_at, updated_at, version`

func scanRefund(s scanner) (*cashier.Refund, error) {
	var (
		f                       cashier.Refund
		amount, fee             sql.NullString
		sent, created, modified sql.NullInt64
		block                   int64
	)
	err := s.Scan(&f.ID, &f.MerchantID, &f.RefundNo, &f.OrderID, &f.OrderNo, &f.Chain, &f.Symbol, &f.Decimals, &amount,
		&f.Address, &f.ByLink, &f.PayoutID, &f.Status, &fee, &f.TxID, &block, &f.FailReason, &f.Reason,
		&sent, &created, &modified, &f.Version)
	if err != nil {
		return nil, err
	}
	if f.Amount, err = fromAmountText("amount", amount); err != nil {
		return nil, err
	}
	if f.Fee, err = fromAmountText("fee", fee); err != nil {
		return nil, err
	}
	f.Block = uint64(max(block, 0))
	f.SentAt, f.CreatedAt, f.UpdatedAt = fromMillis(sent), fromMillis(created), fromMillis(modified)
	return &f, nil
}

func refundNotFound(what string) *cashier.Error {
	return cashier.Errorf(cashier.ENotFound, "refund %s not found", what)
}

// Refund implements cashier.RefundReader.
func (r reader) Refund(ctx context.Context, id string) (*cashier.Refund, error) {
	f, err := scanRefund(r.q.QueryRowContext(ctx, `SELECT `+refundCols+` FROM refunds WHERE id = ?`, id))
	if err != nil {
		return nil, readErr(err, "refund", refundNotFound(id))
	}
	return f, nil
}

// RefundByNo implements cashier.RefundReader.
func (r reader) RefundByNo(ctx context.Context, merchantID, refundNo string) (*cashier.Refund, error) {
	f, err := scanRefund(r.q.QueryRowContext(ctx, `SELECT `+refundCols+` FROM refunds WHERE merchant_id = ? AND refund_no = ?`,
		merchantID, refundNo))
	if err != nil {
		return nil, readErr(err, "refund", refundNotFound(refundNo))
	}
	return f, nil
}

// RefundByPayout implements cashier.RefundReader.
func (r reader) RefundByPayout(ctx context.Context, payoutID string) (*cashier.Refund, error) {
	if payoutID == "" {
		return nil, refundNotFound("of payout \"\"")
	}
	f, err := scanRefund(r.q.QueryRowContext(ctx, `SELECT `+refundCols+` FROM refunds WHERE payout_id = ?`, payoutID))
	if err != nil {
		return nil, readErr(err, "refund", refundNotFound("of payout "+payoutID))
	}
	return f, nil
}

// Refunds implements cashier.RefundReader.
func (r reader) Refunds(ctx context.Context, f cashier.RefundFilter) ([]cashier.Refund, error) {
	var (
		where []string
		args  []any
	)
	add := func(cond string, v any) { where, args = append(where, cond), append(args, v) }
	if f.MerchantID != "" {
		add("merchant_id = ?", f.MerchantID)
	}
	if f.OrderID != "" {
		add("order_id = ?", f.OrderID)
	}
	if f.Chain != "" {
		add("chain = ?", f.Chain)
	}
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	if f.TxID != "" {
		add("tx_id = ?", f.TxID)
	}
	order := "created_at, id"
	if !f.SentFrom.IsZero() || !f.SentTo.IsZero() {
		add("status = ?", cashier.RefundSuccess)
		order = "sent_at, id"
	}
	if !f.SentFrom.IsZero() {
		add("sent_at >= ?", f.SentFrom.UnixMilli())
	}
	if !f.SentTo.IsZero() {
		add("sent_at <= ?", f.SentTo.UnixMilli())
	}
	q := `SELECT ` + refundCols + ` FROM refunds`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY ` + order
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	return queryAll(ctx, r.q, "refunds", scanRefund, q, args...)
}

// SentRefunds implements cashier.RefundReader.
func (r reader) SentRefunds(ctx context.Context, merchantID string, from, to time.Time) ([]cashier.Refund, error) {
	if from.IsZero() {
		from = time.UnixMilli(0)
	}
	if to.IsZero() {
		to = time.UnixMilli(math.MaxInt64)
	}
	return r.Refunds(ctx, cashier.RefundFilter{MerchantID: merchantID, SentFrom: from, SentTo: to})
}

func refundArgs(f *cashier.Refund) ([]any, error) {
	if f.Amount == nil || f.Amount.Sign() <= 0 {
		return nil, cashier.Errorf(cashier.EInvalidAmount, "refund %s has no amount", f.ID)
	}
	amount, err := amountText("amount", f.Amount)
	if err != nil {
		return nil, err
	}
	fv := f.Fee
	if fv == nil {
		fv = new(big.Int)
	}
	fee, err := amountText("fee", fv)
	if err != nil {
		return nil, err
	}
	return []any{f.ID, f.MerchantID, f.RefundNo, f.OrderID, f.OrderNo, f.Chain, f.Symbol, f.Decimals, amount, f.Address, f.ByLink,
		f.PayoutID, f.Status, fee, f.TxID, int64(min(f.Block, math.MaxInt64)), f.FailReason, f.Reason,
		millis(f.SentAt), millis(f.CreatedAt), millis(f.UpdatedAt), f.Version}, nil
}

// CreateRefund implements cashier.RefundWriter.
func (t *tx) CreateRefund(ctx context.Context, f *cashier.Refund) error {
	if err := needID("refund", f.ID); err != nil {
		return err
	}
	if err := needCreatedAt("refund", f.CreatedAt); err != nil {
		return err
	}
	if f.UpdatedAt.IsZero() {
		f.UpdatedAt = f.CreatedAt
	}
	args, err := refundArgs(f)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO refunds (`+refundCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, args...)
	return inserted(res, err, "refund", fmt.Sprintf("refundNo %s exists already", f.RefundNo))
}

// UpdateRefund implements cashier.RefundWriter: every field but the
// identity, if the stored version is still f.Version.
func (t *tx) UpdateRefund(ctx context.Context, f *cashier.Refund) error {
	if err := needID("refund", f.ID); err != nil {
		return err
	}
	args, err := refundArgs(f)
	if err != nil {
		return err
	}
	// address .. updated_at, then id and version.
	set := append(args[9:21:21], f.ID, f.Version)
	res, err := t.tx.ExecContext(ctx, `UPDATE refunds SET
		address = ?, by_link = ?, payout_id = ?, status = ?, fee = ?, tx_id = ?, block = ?, fail_reason = ?, reason = ?,
		sent_at = ?, created_at = ?, updated_at = ?, version = version + 1
		WHERE id = ? AND version = ?`, set...)
	if err != nil {
		return writeErr(err, "refund", "")
	}
	if err := t.versionBumped(ctx, res, "refunds", f.ID); err != nil {
		return err
	}
	f.Version++
	return nil
}
