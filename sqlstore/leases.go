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

// Leases (migration 0008). Every write is a compare-and-set on the row's
// token and expiry, so it stays correct where transactions do not
// serialise a read and the write after it (PostgreSQL at READ COMMITTED).

var _ cashier.Leases = (*DB)(nil)

const leaseColumns = `name, holder, token, expires_at, acquired_at, renewed_at`

func scanLease(row interface{ Scan(...any) error }) (cashier.Lease, error) {
	var l cashier.Lease
	var exp, acq, ren sql.NullInt64
	err := row.Scan(&l.Name, &l.Holder, &l.Token, &exp, &acq, &ren)
	l.Expires, l.AcquiredAt, l.RenewedAt = fromMillis(exp), fromMillis(acq), fromMillis(ren)
	return l, err
}

func checkLease(name, holder string, ttl time.Duration) error {
	if name == "" || holder == "" {
		return cashier.Errorf(cashier.EMissing, "a lease needs a name and a holder")
	}
	if ttl <= 0 {
		return cashier.Errorf(cashier.EInvalid, "lease %s: ttl must be positive", name)
	}
	return nil
}

// AcquireLease implements cashier.Leases.
func (db *DB) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (cashier.Lease, bool, error) {
	if err := checkLease(name, holder, ttl); err != nil {
		return cashier.Lease{}, false, err
	}
	nowMs, exp := now.UnixMilli(), now.Add(ttl).UnixMilli()
	// Most attempts find the lease held: answered from a read connection,
	// they take no write lock from the instances doing real writes.
	cur, err := scanLease(db.read.QueryRowContext(ctx, `SELECT `+leaseColumns+` FROM leases WHERE name = ?`, name))
	if err == nil && cur.Holder != holder && cur.Expires.UnixMilli() > nowMs {
		return cur, false, nil
	}
	var out cashier.Lease
	var got bool
	// Compare-and-set on the lease's row (insert if absent, else update
	// where the row is still what was read): safe beside other instances'
	// writes, as PostgreSQL rechecks the WHERE on the row a parallel
	// writer committed.
	err = db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		out, got = cashier.Lease{}, false // run again after a conflict
		cur, err := scanLease(tx.QueryRowContext(ctx, `SELECT `+leaseColumns+` FROM leases WHERE name = ?`, name))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := tx.ExecContext(ctx, `INSERT INTO leases (`+leaseColumns+`) VALUES (?, ?, 1, ?, ?, ?)
				ON CONFLICT (name) DO NOTHING`, name, holder, exp, nowMs, nowMs)
			if err != nil {
				return fmt.Errorf("store: acquire lease %s: %w", name, err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				got = true
				out = cashier.Lease{Name: name, Holder: holder, Token: 1, Expires: time.UnixMilli(exp).UTC(),
					AcquiredAt: time.UnixMilli(nowMs).UTC(), RenewedAt: time.UnixMilli(nowMs).UTC()}
				return nil
			}
			// Another instance inserted it between the read and the write.
			out, err = scanLease(tx.QueryRowContext(ctx, `SELECT `+leaseColumns+` FROM leases WHERE name = ?`, name))
			return err
		case err != nil:
			return fmt.Errorf("store: read lease %s: %w", name, err)
		}
		mine := cur.Holder == holder && cur.Expires.UnixMilli() > nowMs
		if !mine && cur.Expires.UnixMilli() > nowMs {
			out = cur // held by another
			return nil
		}
		next, acquired := cur.Token+1, nowMs
		if mine {
			next, acquired = cur.Token, cur.AcquiredAt.UnixMilli()
		}
		res, err := tx.ExecContext(ctx, `UPDATE leases SET holder = ?, token = ?, expires_at = ?, acquired_at = ?, renewed_at = ?
			WHERE name = ? AND token = ? AND holder = ? AND expires_at = ?`,
			holder, next, exp, acquired, nowMs, name, cur.Token, cur.Holder, cur.Expires.UnixMilli())
		if err != nil {
			return fmt.Errorf("store: acquire lease %s: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			// Renewed or taken meanwhile: report whoever holds it now.
			out, err = scanLease(tx.QueryRowContext(ctx, `SELECT `+leaseColumns+` FROM leases WHERE name = ?`, name))
			return err
		}
		got = true
		out = cashier.Lease{Name: name, Holder: holder, Token: next, Expires: time.UnixMilli(exp).UTC(),
			AcquiredAt: time.UnixMilli(acquired).UTC(), RenewedAt: time.UnixMilli(nowMs).UTC()}
		return nil
	})
	if err != nil {
		return cashier.Lease{}, false, err
	}
	return out, got, nil
}

// RenewLease implements cashier.Leases. A matching token and holder mean
// nobody took the lease since, so even a lease that expired unnoticed is
// safely extended.
func (db *DB) RenewLease(ctx context.Context, l cashier.Lease, now time.Time, ttl time.Duration) (cashier.Lease, error) {
	if err := checkLease(l.Name, l.Holder, ttl); err != nil {
		return l, err
	}
	exp := now.Add(ttl)
	err := db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE leases SET expires_at = ?, renewed_at = ? WHERE name = ? AND holder = ? AND token = ?`,
			exp.UnixMilli(), now.UnixMilli(), l.Name, l.Holder, l.Token)
		if err != nil {
			return fmt.Errorf("store: renew lease %s: %w", l.Name, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return cashier.ErrLeaseLost
		}
		return nil
	})
	if err != nil {
		return l, err
	}
	l.Expires, l.RenewedAt = time.UnixMilli(exp.UnixMilli()).UTC(), time.UnixMilli(now.UnixMilli()).UTC()
	return l, nil
}

// ReleaseLease implements cashier.Leases: the lease expires at once (the
// row stays, keeping the token for the next holder's epoch).
func (db *DB) ReleaseLease(ctx context.Context, l cashier.Lease) error {
	return db.writeTx(cashier.ConcurrentWrite(ctx), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND token = ?`,
			l.Name, l.Holder, l.Token)
		if err != nil {
			return fmt.Errorf("store: release lease %s: %w", l.Name, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return cashier.ErrLeaseLost
		}
		return nil
	})
}

// ListLeases implements cashier.Leases.
func (db *DB) ListLeases(ctx context.Context) ([]cashier.Lease, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+leaseColumns+` FROM leases ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: list leases: %w", err)
	}
	defer rows.Close()
	var out []cashier.Lease
	for rows.Next() {
		l, err := scanLease(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// PruneLeases implements cashier.Leases.
func (db *DB) PruneLeases(ctx context.Context, prefix string, before time.Time) (int, error) {
	if prefix == "" || strings.ContainsAny(prefix, "%_\\") {
		return 0, cashier.Errorf(cashier.EInvalid, "lease prefix %q: empty or holding a LIKE wildcard", prefix)
	}
	var n int64
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE name LIKE ? AND expires_at < ?`, prefix+"%", before.UnixMilli())
		if err != nil {
			return fmt.Errorf("store: prune leases: %w", err)
		}
		n, _ = res.RowsAffected()
		return nil
	})
	return int(n), err
}
