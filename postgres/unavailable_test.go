package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stablecashier/cashier"
)

// Only errors that say the database cannot be reached become
// EUnavailable; SQL errors and a caller's own deadline keep their meaning,
// and the cause stays visible to errors.Is (database/sql's ErrBadConn).
func TestUnavailableClassifies(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"starting up", &pgconn.PgError{Code: "57P03"}, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, false},
		{"bad connection", fmt.Errorf("exec: %w", driver.ErrBadConn), true},
		{"cut mid-answer", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{"caller gave up", context.DeadlineExceeded, false},
		{"a plain error", errors.New("sql: no rows"), false},
	} {
		got := unavailable(c.err)
		if is := cashier.ErrorCode(got) == cashier.EUnavailable; is != c.want {
			t.Errorf("%s: unavailable = %v, want %v (%v)", c.name, is, c.want, got)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the cause is hidden: %v", c.name, got)
		}
	}
	if errors.Is(unavailable(driver.ErrBadConn), driver.ErrBadConn) != true {
		t.Error("database/sql would not see ErrBadConn and would not retry on a fresh connection")
	}
}
