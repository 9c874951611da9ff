package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// tx implements cashier.Tx on one write transaction.
type tx struct {
	reader
	tx   writeStmts
	prep prepared // the hot statements, prepared once on the write connection
	d    *Dialect
}

// newTx is the cashier.Tx of sqlTx, a transaction of the writer.
func newTx(sqlTx *sql.Tx, sealer Sealer, prep prepared, d *Dialect) *tx {
	w := writeStmts{sqlTx}
	return &tx{reader: reader{q: w, sealer: sealer}, tx: w, prep: prep, d: d}
}

// writeStmts runs a write transaction's statements without the caller's
// cancellation. Watching a context that can end costs a goroutine and its
// wake-ups per statement (database/sql and the driver start one each),
// paid by the writer, which runs every write of the process. Nothing is
// lost by it: the writer skips a write whose caller has gone before it
// starts (groupWriter.runGroup), and a caller waits for the answer of a
// write that has started (groupWriter.do).
type writeStmts struct{ tx *sql.Tx }

func (w writeStmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return w.tx.ExecContext(context.WithoutCancel(ctx), query, args...)
}

func (w writeStmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return w.tx.QueryContext(context.WithoutCancel(ctx), query, args...)
}

func (w writeStmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return w.tx.QueryRowContext(context.WithoutCancel(ctx), query, args...)
}

var _ cashier.Tx = (*tx)(nil)

func (t *tx) CreateMerchant(ctx context.Context, m *cashier.Merchant) error {
	if err := needID("merchant", m.ID); err != nil {
		return err
	}
	if err := needCreatedAt("merchant", m.CreatedAt); err != nil {
		return err
	}
	secret, webhook, err := t.sealKeys(m)
	if err != nil {
		return err
	}
	h := apiKeyHash(m.APIKey)
	_, err = t.tx.ExecContext(ctx, `INSERT INTO merchants
		(id, name, api_key_hash, api_key_prefix, secret_key_sealed, webhook_key_sealed, status, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.Name, h[:], apiKeyPrefix(m.APIKey), secret, webhook, m.Status, millis(m.CreatedAt))
	return writeErr(err, "merchant", fmt.Sprintf("merchant %s or its API key exists already", m.ID))
}

func (t *tx) CreateCashier(ctx context.Context, c *cashier.Cashier) error {
	if err := needID("cashier", c.ID); err != nil {
		return err
	}
	if err := needCreatedAt("cashier", c.CreatedAt); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO cashiers (`+cashierCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.MerchantID, c.Name, c.WebhookURL, c.Status, millis(c.CreatedAt), strings.Join(c.AllowedOrigins, ","))
	if err = writeErr(err, "cashier", fmt.Sprintf("cashier %s exists already", c.ID)); err != nil {
		return err
	}
	return t.readNum(ctx, "cashiers", c.ID, &c.Num)
}

func (t *tx) CreateContract(ctx context.Context, c *cashier.Contract) error {
	if err := needID("contract", c.ID); err != nil {
		return err
	}
	if err := needCreatedAt("contract", c.CreatedAt); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO contracts (`+contractCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.MerchantID, c.Chain, c.Address, c.WebhookURL, c.Status, millis(c.CreatedAt),
		c.DepositFactory, c.DepositImplementation, c.Signer)
	if err = writeErr(err, "contract", fmt.Sprintf("contract %s exists already, or %s is registered on %s already", c.ID, c.Address, c.Chain)); err != nil {
		return err
	}
	return t.readNum(ctx, "contracts", c.ID, &c.Num)
}

// collectionArgs returns o's columns in collectionCols order.
func collectionArgs(o *cashier.CollectionOrder) ([]any, error) {
	if o.Amount == nil {
		return nil, cashier.Errorf(cashier.EInvalidAmount, "order %s has no amount", o.ID)
	}
	amount, err := amountText("amount", o.Amount)
	if err != nil {
		return nil, err
	}
	paid, err := amountText("paid amount", o.PaidAmount)
	if err != nil {
		return nil, err
	}
	return []any{o.ID, o.MerchantID, o.CashierID, o.OrderNo, o.CustNo, o.Chain, o.Symbol, o.Decimals,
		amount, paid, o.DepositAddress, o.RedirectURL, o.Status, o.TxID, o.FromAddress,
		millis(o.ExpireAt), millis(o.CreatedAt), millis(o.UpdatedAt), o.Version, millis(o.PayTime), o.Origin,
		millis(o.ReorgedAt), o.Choose}, nil
}

func (t *tx) CreateCollection(ctx context.Context, o *cashier.CollectionOrder) error {
	if err := needID("collection order", o.ID); err != nil {
		return err
	}
	if err := needCreatedAt("collection order", o.CreatedAt); err != nil {
		return err
	}
	args, err := collectionArgs(o)
	if err != nil {
		return err
	}
	err = t.insertNumbered(ctx, t.d.inserts().collection, &o.Num, args...)
	return insertedNum(err, "collection order", fmt.Sprintf("order number %s exists already", o.OrderNo))
}

// UpdateCollection writes every field of o but its ID, if the stored
// version is still o.Version.
func (t *tx) UpdateCollection(ctx context.Context, o *cashier.CollectionOrder) error {
	if err := needID("collection order", o.ID); err != nil {
		return err
	}
	args, err := collectionArgs(o)
	if err != nil {
		return err
	}
	// SET takes every column but id, version, origin and choose (set once,
	// at creation); WHERE takes id and version. collectionCols ends with
	// version, pay_time, origin, reorged_at, choose.
	n := len(args)
	payTime, reorged := args[n-4], args[n-2]
	args = append(args[1:n-5:n-5], payTime, reorged, o.ID, o.Version)
	res, err := t.tx.ExecContext(ctx, `UPDATE collection_orders SET
		merchant_id = ?, cashier_id = ?, order_no = ?, cust_no = ?, chain = ?, symbol = ?, decimals = ?,
		amount = ?, paid_amount = ?, deposit_address = ?, redirect_url = ?, status = ?, tx_id = ?, from_address = ?,
		expire_at = ?, created_at = ?, updated_at = ?, pay_time = ?, reorged_at = ?, version = version + 1
		WHERE id = ? AND version = ?`, args...)
	if err != nil {
		return writeErr(err, "collection order", fmt.Sprintf("order number %s exists already", o.OrderNo))
	}
	if err := t.versionBumped(ctx, res, "collection_orders", o.ID); err != nil {
		return err
	}
	o.Version++
	return nil
}

// payoutArgs returns o's columns in payoutCols order.
func payoutArgs(o *cashier.PayoutOrder) ([]any, error) {
	if o.Amount == nil {
		return nil, cashier.Errorf(cashier.EInvalidAmount, "order %s has no amount", o.ID)
	}
	amount, err := amountText("amount", o.Amount)
	if err != nil {
		return nil, err
	}
	fee, err := amountText("fee", o.Fee)
	if err != nil {
		return nil, err
	}
	return []any{o.ID, o.MerchantID, o.ContractID, o.BatchID, o.OrderNo, o.Chain, o.Recipient, o.Symbol, o.Decimals,
		amount, fee, int64(o.PayoutType), o.FromAddress, o.Remark, o.Status, o.TxID, o.GasAmount, o.FailReason,
		millis(o.CreatedAt), millis(o.UpdatedAt), o.Version, o.NeedsReview, o.ExecID, int64(o.BlockNumber), o.GasSpent, o.CustNo}, nil
}

func (t *tx) CreatePayout(ctx context.Context, o *cashier.PayoutOrder) error {
	if err := needID("payout order", o.ID); err != nil {
		return err
	}
	if err := needCreatedAt("payout order", o.CreatedAt); err != nil {
		return err
	}
	args, err := payoutArgs(o)
	if err != nil {
		return err
	}
	err = t.insertNumbered(ctx, t.d.inserts().payout, &o.Num, args...)
	return insertedNum(err, "payout order", fmt.Sprintf("order number %s exists already", o.OrderNo))
}

// UpdatePayout writes every field of o but its ID, if the stored version is
// still o.Version.
func (t *tx) UpdatePayout(ctx context.Context, o *cashier.PayoutOrder) error {
	if err := needID("payout order", o.ID); err != nil {
		return err
	}
	args, err := payoutArgs(o)
	if err != nil {
		return err
	}
	// SET takes every column but id and version; WHERE takes id and version.
	const versionAt = 20 // index of version in payoutCols
	args = append(append(args[1:versionAt:versionAt], args[versionAt+1:]...), o.ID, o.Version)
	res, err := t.tx.ExecContext(ctx, `UPDATE payout_orders SET
		merchant_id = ?, contract_id = ?, batch_id = ?, order_no = ?, chain = ?, recipient = ?, symbol = ?, decimals = ?,
		amount = ?, fee = ?, payout_type = ?, from_address = ?, remark = ?, status = ?, tx_id = ?, gas_amount = ?, fail_reason = ?,
		created_at = ?, updated_at = ?, needs_review = ?, exec_id = ?, block_number = ?, gas_spent = ?, cust_no = ?, version = version + 1
		WHERE id = ? AND version = ?`, args...)
	if err != nil {
		return writeErr(err, "payout order", fmt.Sprintf("order number %s exists already", o.OrderNo))
	}
	if err := t.versionBumped(ctx, res, "payout_orders", o.ID); err != nil {
		return err
	}
	o.Version++
	return nil
}

// insertNumbered inserts a row with ins and sets num to its number;
// sql.ErrNoRows when the row's unique keys existed already (insertedNum).
func (t *tx) insertNumbered(ctx context.Context, ins numberedInsert, num *int64, args ...any) error {
	if ins.readBack == "" {
		return t.prep.queryRow(ctx, t.tx.tx, ins.insert, args...).Scan(num)
	}
	rowid, err := t.insertedRowid(ctx, ins.insert, args...)
	if err != nil {
		return err
	}
	return t.prep.queryRow(ctx, t.tx.tx, ins.readBack, rowid).Scan(num)
}

// insertedRowid runs query, an INSERT … ON CONFLICT DO NOTHING, and
// returns the rowid of the row it added; sql.ErrNoRows when it added none.
func (t *tx) insertedRowid(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := t.prep.exec(ctx, t.tx.tx, query, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, sql.ErrNoRows
	}
	return res.LastInsertId()
}

// versionBumped tells a stale write (EInvalidStatus) from a missing order
// (ENotFound) when an optimistic update matched no row.
func (t *tx) versionBumped(ctx context.Context, res sql.Result, table, id string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: update %s: %w", table, err)
	}
	if n == 1 {
		return nil
	}
	var exists bool
	if err := t.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+table+` WHERE id = ?)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("store: update %s: %w", table, err)
	}
	if !exists {
		return cashier.Errorf(cashier.ENotFound, "order %s not found", id)
	}
	return cashier.Errorf(cashier.EInvalidStatus, "order %s was changed concurrently; reload and retry", id)
}

// AddEvent appends e to the outbox, due at e.NextAttemptAt or else
// e.CreatedAt, and sets e.Seq, e.State and e.NextAttemptAt accordingly.
func (t *tx) AddEvent(ctx context.Context, e *cashier.Event) error {
	if err := needID("event", e.ID); err != nil {
		return err
	}
	if err := needCreatedAt("event", e.CreatedAt); err != nil {
		return err
	}
	due := e.NextAttemptAt
	if due.IsZero() {
		due = e.CreatedAt
	}
	body := e.Body
	if body == nil {
		body = []byte{}
	}
	args := []any{e.ID, e.MerchantID, e.Type, e.OrderID, e.OrderNo, e.Status, e.URL, body, millis(e.CreatedAt), due.UnixMilli()}
	var err error
	if q := t.d.inserts().event; t.d.NoReturning {
		e.Seq, err = t.insertedRowid(ctx, q, args...) // seq is the rowid
	} else {
		err = t.prep.queryRow(ctx, t.tx.tx, q, args...).Scan(&e.Seq)
	}
	if errors.Is(err, sql.ErrNoRows) { // ON CONFLICT DO NOTHING inserted nothing
		return cashier.Errorf(cashier.EDuplicate, "event %s exists already", e.ID)
	}
	if err != nil {
		return writeErr(err, "event", fmt.Sprintf("event %s exists already", e.ID))
	}
	e.State, e.NextAttemptAt = cashier.EventPending, due
	e.Attempts, e.LastError, e.DeliveredAt, e.LeaseOwner, e.LeaseUntil = 0, "", time.Time{}, "", time.Time{}
	return nil
}
