package main

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stablecashier/cashier/postgres/pgtest"
)

// CASHIER_TEST_DATABASE=postgres runs the black-box tests against
// PostgreSQL: a throwaway server starts, and binary becomes a wrapper that
// gives every command the database of its --data directory (one database
// per directory, created on first use) through CASHIER_DATABASE_URL, so
// every test, CLI call and restart runs unchanged on the other store.
// stop fails when no command used PostgreSQL, so a broken wrapper cannot
// pass for a green run.
func usePostgres(real string) (wrapper string, stop func() error, err error) {
	if os.Getenv("CASHIER_TEST_DATABASE") != "postgres" {
		return real, func() error { return nil }, nil
	}
	srv, err := pgtest.Start()
	if err != nil {
		return "", nil, err
	}
	createdb := filepath.Join(srv.Bin(), "createdb")
	script := fmt.Sprintf(`#!/bin/sh
data=""; prev=""
for a in "$@"; do
  case "$a" in --data=*) data="${a#--data=}" ;; esac
  [ "$prev" = "--data" ] && data="$a"
  prev="$a"
done
# A database named by the caller (another host's, in a multi-instance
# test) is kept.
if [ -n "$data" ] && [ -z "${CASHIER_DATABASE_URL:-}" ]; then
  name=d$(printf %%s "$(realpath -m "$data")" | md5sum | cut -c1-20)
  %s -h 127.0.0.1 -p %d -U postgres "$name" 2>/dev/null || true
  CASHIER_DATABASE_URL="postgres://postgres@127.0.0.1:%d/$name?sslmode=disable"
  export CASHIER_DATABASE_URL
fi
exec %s "$@"
`, createdb, srv.Port(), srv.Port(), real)
	wrapper = real + "-pg"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		srv.Stop()
		return "", nil, err
	}
	return wrapper, func() error {
		n, err := countDatabases(srv.URL("postgres"))
		if err == nil && n == 0 {
			err = fmt.Errorf("CASHIER_TEST_DATABASE=postgres, but no command created a database")
		}
		return errors.Join(err, srv.Stop())
	}, nil
}

func countDatabases(url string) (int, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	err = db.QueryRow(`SELECT count(*) FROM pg_database WHERE datname LIKE 'd%'`).Scan(&n)
	return n, err
}
