package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stablecashier/cashier"
)

// The dashboard's accounts, sessions, audit log and network overrides
// (migration 0007), on the same file and write connection as orders so a
// dashboard change and its audit entry commit in one transaction.

var (
	_ cashier.AccountStore = (*DB)(nil)
	_ cashier.AccountTx    = (*tx)(nil)
)

// UpdateAccounts runs fn in one write transaction, like Update.
func (db *DB) UpdateAccounts(ctx context.Context, fn func(cashier.AccountTx) error) error {
	return db.Update(ctx, func(t cashier.Tx) error { return fn(t.(*tx)) })
}

const userCols = `id, email, merchant_id, role, password_hash, totp_sealed, disabled, created_at, totp_step`

func (r reader) scanUser(s scanner) (*cashier.User, error) {
	var (
		u        cashier.User
		totp     []byte
		disabled int64
		created  sql.NullInt64
	)
	if err := s.Scan(&u.ID, &u.Email, &u.MerchantID, &u.Role, &u.PasswordHash, &totp, &disabled, &created, &u.TOTPStep); err != nil {
		return nil, err
	}
	u.Disabled, u.CreatedAt = disabled != 0, fromMillis(created)
	if totp != nil {
		secret, err := r.sealer.Open(totp, sealContext(u.ID, "totp"))
		if err != nil {
			return nil, fmt.Errorf("store: user %s TOTP secret: %w", u.ID, err)
		}
		u.TOTPSecret = secret
	}
	return &u, nil
}

func (r reader) User(ctx context.Context, id string) (*cashier.User, error) {
	u, err := r.scanUser(r.q.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	if err != nil {
		return nil, readErr(err, "user", cashier.Errorf(cashier.ENotFound, "user %s not found", id))
	}
	return u, nil
}

func (r reader) UserByEmail(ctx context.Context, email string) (*cashier.User, error) {
	u, err := r.scanUser(r.q.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE email = ?`, email))
	if err != nil {
		return nil, readErr(err, "user", cashier.Errorf(cashier.ENotFound, "user %s not found", email))
	}
	return u, nil
}

// Users lists a merchant's users; merchantID "" lists the operators.
func (r reader) Users(ctx context.Context, merchantID string) ([]cashier.User, error) {
	return queryAll(ctx, r.q, "users", func(s scanner) (*cashier.User, error) { return r.scanUser(s) },
		`SELECT `+userCols+` FROM users WHERE merchant_id = ? ORDER BY created_at, id`, merchantID)
}

func (r reader) SessionByHash(ctx context.Context, hash []byte) (*cashier.Session, error) {
	var (
		s                      cashier.Session
		created, seen, expires sql.NullInt64
	)
	err := r.q.QueryRowContext(ctx, `SELECT token_hash, user_id, csrf, ip, created_at, seen_at, expires_at
		FROM sessions WHERE token_hash = ?`, hash).Scan(&s.TokenHash, &s.UserID, &s.CSRF, &s.IP, &created, &seen, &expires)
	if err != nil {
		return nil, readErr(err, "session", cashier.Errorf(cashier.ENotFound, "no such session"))
	}
	s.CreatedAt, s.SeenAt, s.ExpiresAt = fromMillis(created), fromMillis(seen), fromMillis(expires)
	return &s, nil
}

func (r reader) Audit(ctx context.Context, f cashier.AuditFilter) ([]cashier.AuditEntry, error) {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 200
	}
	q := `SELECT id, at, user_id, email, merchant_id, action, target, detail, ip FROM audit_log`
	args := []any{}
	if f.MerchantID != "" {
		q += ` WHERE merchant_id = ?`
		args = append(args, f.MerchantID)
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, f.Limit)
	return queryAll(ctx, r.q, "audit log", func(s scanner) (*cashier.AuditEntry, error) {
		var (
			e  cashier.AuditEntry
			at sql.NullInt64
		)
		err := s.Scan(&e.ID, &at, &e.UserID, &e.Email, &e.MerchantID, &e.Action, &e.Target, &e.Detail, &e.IP)
		e.At = fromMillis(at)
		return &e, err
	}, q, args...)
}

func (r reader) NetworkStates(ctx context.Context) ([]cashier.NetworkState, error) {
	return queryAll(ctx, r.q, "network states", func(s scanner) (*cashier.NetworkState, error) {
		var (
			n  cashier.NetworkState
			at sql.NullInt64
		)
		err := s.Scan(&n.Chain, &n.Status, &at)
		n.UpdatedAt = fromMillis(at)
		return &n, err
	}, `SELECT chain, status, updated_at FROM network_states ORDER BY chain`)
}

// Merchants lists every merchant (operators' view), oldest first.
func (r reader) Merchants(ctx context.Context) ([]cashier.Merchant, error) {
	return queryAll(ctx, r.q, "merchants", func(s scanner) (*cashier.Merchant, error) { return r.scanMerchant(s) },
		`SELECT `+merchantCols+` FROM merchants ORDER BY created_at, id`)
}

// queryAll runs query on q and returns every row read by scan (an empty
// list, not nil, when there is none); what names the list in errors.
func queryAll[T any](ctx context.Context, q querier, what string, scan func(scanner) (*T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list %s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list %s: %w", what, err)
		}
		out = append(out, *v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list %s: %w", what, err)
	}
	return out, nil
}

func (t *tx) sealTOTP(u *cashier.User) (any, error) {
	if u.TOTPSecret == nil {
		return nil, nil
	}
	b, err := t.sealer.Seal(u.TOTPSecret, sealContext(u.ID, "totp"))
	if err != nil {
		return nil, fmt.Errorf("store: seal TOTP secret: %w", err)
	}
	return b, nil
}

func (t *tx) CreateUser(ctx context.Context, u *cashier.User) error {
	if err := needID("user", u.ID); err != nil {
		return err
	}
	if err := needCreatedAt("user", u.CreatedAt); err != nil {
		return err
	}
	totp, err := t.sealTOTP(u)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO users (`+userCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Email, u.MerchantID, u.Role, u.PasswordHash, totp, boolInt(u.Disabled), millis(u.CreatedAt), u.TOTPStep)
	return writeErr(err, "user", fmt.Sprintf("a user with email %s exists already", u.Email))
}

func (t *tx) UpdateUser(ctx context.Context, u *cashier.User) error {
	totp, err := t.sealTOTP(u)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE users SET role = ?, password_hash = ?, totp_sealed = ?, disabled = ? WHERE id = ?`,
		u.Role, u.PasswordHash, totp, boolInt(u.Disabled), u.ID)
	return oneRow(res, err, "user", u.ID)
}

// AcceptTOTPStep moves the user's last accepted step forward, in one
// conditional UPDATE: the row lock (PostgreSQL) or the one writer (SQLite)
// lets only one of two sign-ins with the same code through.
func (t *tx) AcceptTOTPStep(ctx context.Context, userID string, step int64) error {
	if step <= 0 {
		return cashier.Errorf(cashier.EInvalid, "TOTP step %d is not positive", step)
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE users SET totp_step = ? WHERE id = ? AND totp_step < ?`, step, userID, step)
	if err != nil {
		return writeErr(err, "user", "")
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		return nil
	}
	if _, err := t.User(ctx, userID); err != nil {
		return err // not found
	}
	return cashier.ErrTOTPReused
}

func (t *tx) CreateSession(ctx context.Context, s *cashier.Session) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, csrf, ip, created_at, seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, s.TokenHash, s.UserID, s.CSRF, s.IP, millis(s.CreatedAt), millis(s.SeenAt), millis(s.ExpiresAt))
	return writeErr(err, "session", "session exists already")
}

func (t *tx) TouchSession(ctx context.Context, hash []byte, seen time.Time) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE sessions SET seen_at = ? WHERE token_hash = ?`, millis(seen), hash)
	return oneRow(res, err, "session", "")
}

func (t *tx) DeleteSession(ctx context.Context, hash []byte) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hash)
	return writeErr(err, "session", "")
}

func (t *tx) EndSessions(ctx context.Context, userID string) (int, error) {
	res, err := t.tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID)
	if err != nil {
		return 0, writeErr(err, "sessions", "")
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (t *tx) DeleteUser(ctx context.Context, id string) error {
	if _, err := t.EndSessions(ctx, id); err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, id)
	return oneRow(res, err, "user", id)
}

func (t *tx) AddAudit(ctx context.Context, e *cashier.AuditEntry) error {
	// RETURNING rather than LastInsertId, which not every driver has.
	err := t.tx.QueryRowContext(ctx, `INSERT INTO audit_log (at, user_id, email, merchant_id, action, target, detail, ip)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, millis(e.At), e.UserID, e.Email, e.MerchantID, e.Action, e.Target, e.Detail, e.IP).Scan(&e.ID)
	if err != nil {
		return writeErr(err, "audit entry", "")
	}
	return nil
}

// sealKeys checks that m has an API key and seals its secret and webhook
// keys for storage.
func (t *tx) sealKeys(m *cashier.Merchant) (secret, webhook []byte, err error) {
	if m.APIKey == "" {
		return nil, nil, cashier.Errorf(cashier.EInvalid, "merchant %s has no API key", m.ID)
	}
	if secret, err = t.sealer.Seal([]byte(m.SecretKey), sealContext(m.ID, "secret_key")); err != nil {
		return nil, nil, fmt.Errorf("store: seal secret key: %w", err)
	}
	if webhook, err = t.sealer.Seal([]byte(m.WebhookKey), sealContext(m.ID, "webhook_key")); err != nil {
		return nil, nil, fmt.Errorf("store: seal webhook key: %w", err)
	}
	return secret, webhook, nil
}

func (t *tx) ReplaceMerchantKeys(ctx context.Context, m *cashier.Merchant) error {
	secret, webhook, err := t.sealKeys(m)
	if err != nil {
		return err
	}
	h := apiKeyHash(m.APIKey)
	var res sql.Result
	if m.PrevKeyUntil.IsZero() {
		res, err = t.tx.ExecContext(ctx, `UPDATE merchants SET api_key_hash = ?, api_key_prefix = ?, secret_key_sealed = ?,
		webhook_key_sealed = ?, status = ?, prev_api_key_hash = NULL, prev_api_key_prefix = '', prev_secret_key_sealed = NULL,
		prev_webhook_key_sealed = NULL, prev_key_until = 0 WHERE id = ?`, h[:], apiKeyPrefix(m.APIKey), secret, webhook, m.Status, m.ID)
	} else {
		// The key being replaced becomes the previous one: its digest,
		// sealed secret and sealed webhook key move as they are (the seal
		// context names the merchant and the column kind, not the column).
		res, err = t.tx.ExecContext(ctx, `UPDATE merchants SET prev_api_key_hash = api_key_hash, prev_api_key_prefix = api_key_prefix,
		prev_secret_key_sealed = secret_key_sealed, prev_webhook_key_sealed = webhook_key_sealed, prev_key_until = ?, api_key_hash = ?, api_key_prefix = ?, secret_key_sealed = ?,
		webhook_key_sealed = ?, status = ? WHERE id = ?`, millis(m.PrevKeyUntil), h[:], apiKeyPrefix(m.APIKey), secret, webhook, m.Status, m.ID)
	}
	return oneRow(res, err, "merchant", m.ID)
}

func (t *tx) EndPreviousKey(ctx context.Context, merchantID string) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE merchants SET prev_api_key_hash = NULL, prev_api_key_prefix = '',
		prev_secret_key_sealed = NULL, prev_webhook_key_sealed = NULL, prev_key_until = 0 WHERE id = ? AND prev_api_key_hash IS NOT NULL`, merchantID)
	return oneRow(res, err, "previous API key of merchant", merchantID)
}

func (t *tx) UpdateCashier(ctx context.Context, c *cashier.Cashier) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE cashiers SET name = ?, webhook_url = ?, status = ?, allowed_origins = ? WHERE id = ?`,
		c.Name, c.WebhookURL, c.Status, strings.Join(c.AllowedOrigins, ","), c.ID)
	return oneRow(res, err, "cashier", c.ID)
}

func (t *tx) SetNetworkState(ctx context.Context, s cashier.NetworkState) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO network_states (chain, status, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (chain) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
		s.Chain, s.Status, millis(s.UpdatedAt))
	return writeErr(err, "network state", "")
}

func oneRow(res sql.Result, err error, what, id string) error {
	if err != nil {
		return writeErr(err, what, what+" "+id+" exists already")
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return cashier.Errorf(cashier.ENotFound, "%s %s not found", what, id)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// searchWhere is the condition of an order search. The order number
// matches as a prefix (a merchant types the start of it); the txId in any
// letter case (explorers and wallets show hashes in either), and for a
// collection also any payment's transaction, not only the one recorded on
// the order (an underpaid order paid in two transfers has two).
func searchWhere(f cashier.OrderSearch, collections bool, addressCols ...string) where {
	var w where
	w.eq("merchant_id", f.MerchantID)
	w.eq("status", f.Status)
	w.eq("chain", string(f.Chain))
	w.eq("symbol", f.Symbol)
	if f.OrderNo != "" {
		// substr rather than LIKE: LIKE's case rules differ between SQLite
		// and PostgreSQL, and order numbers may hold % and _.
		w.conds = append(w.conds, "substr(order_no, 1, ?) = ?")
		w.args = append(w.args, utf8.RuneCountInString(f.OrderNo), f.OrderNo)
	}
	if f.TxID != "" {
		tx := strings.ToLower(f.TxID)
		if collections {
			w.conds = append(w.conds, "(lower(tx_id) = ? OR id IN (SELECT order_id FROM payments WHERE lower(tx_hash) = ?))")
			w.args = append(w.args, tx, tx)
		} else {
			w.add("lower(tx_id) = ?", tx)
		}
	}
	if f.Address != "" {
		conds := make([]string, len(addressCols))
		for i, c := range addressCols {
			conds[i] = c + " = ?"
		}
		w.conds = append(w.conds, "("+strings.Join(conds, " OR ")+")")
		for range addressCols {
			w.args = append(w.args, f.Address)
		}
	}
	if !f.Start.IsZero() {
		w.add("created_at >= ?", f.Start.UnixMilli())
	}
	if !f.End.IsZero() {
		w.add("created_at <= ?", f.End.UnixMilli())
	}
	return w
}

func (r reader) SearchCollections(ctx context.Context, f cashier.OrderSearch) ([]cashier.CollectionOrder, int, error) {
	w := searchWhere(f, true, "deposit_address", "from_address")
	out, total, err := listRows(ctx, r, "collection_orders", collectionCols, w, f.Page, f.PageSize, []cashier.CollectionOrder{}, scanCollection)
	if err != nil {
		return nil, 0, fmt.Errorf("store: search collection orders: %w", err)
	}
	return out, total, nil
}

func (r reader) SearchPayouts(ctx context.Context, f cashier.OrderSearch) ([]cashier.PayoutOrder, int, error) {
	w := searchWhere(f, false, "recipient", "from_address")
	out, total, err := listRows(ctx, r, "payout_orders", payoutCols, w, f.Page, f.PageSize, []cashier.PayoutOrder{}, scanPayout)
	if err != nil {
		return nil, 0, fmt.Errorf("store: search payout orders: %w", err)
	}
	return out, total, nil
}

// oneTimeContext binds a sealed one-time view to its token: a body moved
// to another row does not open.
func oneTimeContext(tokenHash []byte) []byte {
	return append([]byte("cashier/one-time-view/"), tokenHash...)
}

func (t *tx) PutOneTimeView(ctx context.Context, v *cashier.OneTimeView, now time.Time) error {
	if len(v.TokenHash) == 0 || len(v.Session) == 0 {
		return cashier.Errorf(cashier.EInternal, "a one-time view needs its token hash and session")
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM one_time_views WHERE until_at <= ?`, now.UnixMilli()); err != nil {
		return fmt.Errorf("store: expire one-time views: %w", err)
	}
	body, err := t.sealer.Seal(v.Body, oneTimeContext(v.TokenHash))
	if err != nil {
		return fmt.Errorf("store: seal one-time view: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO one_time_views (token_hash, session, body, until_at) VALUES (?, ?, ?, ?)`,
		v.TokenHash, v.Session, body, v.Until.UnixMilli())
	return writeErr(err, "one-time view", "one-time view exists already")
}

func (t *tx) TakeOneTimeView(ctx context.Context, tokenHash, session []byte, now time.Time) ([]byte, error) {
	var sealed []byte
	var until int64
	err := t.tx.QueryRowContext(ctx, `DELETE FROM one_time_views WHERE token_hash = ? AND session = ? RETURNING body, until_at`,
		tokenHash, session).Scan(&sealed, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: take one-time view: %w", err)
	}
	if until <= now.UnixMilli() {
		return nil, nil
	}
	body, err := t.sealer.Open(sealed, oneTimeContext(tokenHash))
	if err != nil {
		return nil, fmt.Errorf("store: one-time view: %w", err)
	}
	return body, nil
}
