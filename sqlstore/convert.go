package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/stablecashier/cashier"
)

// Times are stored as Unix milliseconds, the interface's unit; a zero
// time.Time is stored as NULL so every real instant, the epoch included,
// round-trips.

func millis(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

func fromMillis(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64).UTC()
}

// Amounts are stored as decimal text of base units: exact at any size and
// still readable in a SQL shell. nil is stored as NULL.

func amountText(field string, v *big.Int) (any, error) {
	if v == nil {
		return nil, nil
	}
	if v.Sign() < 0 {
		return nil, cashier.Errorf(cashier.EInvalidAmount, "%s is negative", field)
	}
	return v.String(), nil
}

func fromAmountText(field string, s sql.NullString) (*big.Int, error) {
	if !s.Valid {
		return nil, nil
	}
	v, ok := new(big.Int).SetString(s.String, 10)
	if !ok {
		return nil, fmt.Errorf("store: stored %s %q is not a decimal integer", field, s.String)
	}
	return v, nil
}

// writeErr turns a failed insert or update into a domain error where the
// cause is the caller's (duplicate, dangling reference) and wraps the rest.
// The dialect of the one open store classifies the driver's errors.
func writeErr(err error, what string, dupMsg string) error {
	switch {
	case err == nil:
		return nil
	case isUnique(err):
		return cashier.Errorf(cashier.EDuplicate, "%s", dupMsg)
	case isForeignKey(err):
		return cashier.Errorf(cashier.EInvalid, "%s refers to an unknown merchant, cashier or contract", what)
	}
	return fmt.Errorf("store: write %s: %w", what, err)
}

// inserted turns the result of an INSERT … ON CONFLICT DO NOTHING into
// EDuplicate when it inserted nothing. The hot inserts are written so: a
// duplicate then fails no statement, which keeps a PostgreSQL transaction
// usable without a statement savepoint (two round trips saved).
func inserted(res sql.Result, err error, what, dupMsg string) error {
	if err != nil {
		return writeErr(err, what, dupMsg)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: write %s: %w", what, err)
	}
	if n == 0 {
		return cashier.Errorf(cashier.EDuplicate, "%s", dupMsg)
	}
	return nil
}

// insertedNum is inserted for a numbered insert (Dialect.NextNum), whose
// RETURNING gives no row when the row's unique keys existed already.
func insertedNum(err error, what, dupMsg string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return cashier.Errorf(cashier.EDuplicate, "%s", dupMsg)
	}
	if err != nil {
		return writeErr(err, what, dupMsg)
	}
	return nil
}

// readErr maps "no rows" to the not-found error and wraps the rest.
func readErr(err error, what string, notFound *cashier.Error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return notFound
	}
	return fmt.Errorf("store: read %s: %w", what, err)
}

func needID(what, id string) error {
	if id == "" {
		return cashier.Errorf(cashier.EInvalid, "%s has no ID", what)
	}
	return nil
}

func needCreatedAt(what string, t time.Time) error {
	if t.IsZero() {
		return cashier.Errorf(cashier.EInvalid, "%s has no CreatedAt", what)
	}
	return nil
}
