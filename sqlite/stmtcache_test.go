package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// rawConn runs fn on db's one connection's cache.
func withCache(t *testing.T, db *sql.DB, fn func(c *cachingConn)) {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*cachingConn)
		if !ok {
			return fmt.Errorf("connection %T has no statement cache", dc)
		}
		fn(c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestStatementsAreKeptPerConnection(t *testing.T) {
	ctx := context.Background()
	db := openDB(filepath.Join(t.TempDir(), "s.db"))
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)`); err != nil {
		t.Fatal(err)
	}
	const ins = `INSERT INTO t (k, v) VALUES (?, ?)`
	for i := range 3 {
		if _, err := db.ExecContext(ctx, ins, i, fmt.Sprint("v", i)); err != nil {
			t.Fatal(err)
		}
	}
	var first any
	withCache(t, db, func(c *cachingConn) {
		if c.stmts[ins] == nil {
			t.Fatal("the insert was not kept")
		}
		first = c.stmts[ins].stmt
	})
	if _, err := db.ExecContext(ctx, ins, 9, "v9"); err != nil {
		t.Fatal(err)
	}
	withCache(t, db, func(c *cachingConn) {
		if c.stmts[ins].stmt != first {
			t.Fatal("the insert was prepared again")
		}
	})

	// The same text again while its rows are open: the second use gets a
	// statement of its own, and both read every row right.
	const sel = `SELECT k, v FROM t WHERE k >= ? ORDER BY k`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	outer, err := tx.QueryContext(ctx, sel, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for outer.Next() {
		var k int
		var v string
		if err := outer.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+sel+`)`, k).Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := tx.QueryContext(ctx, sel, k)
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		for inner.Next() {
			m++
		}
		inner.Close()
		got = append(got, fmt.Sprintf("%d:%s:%d:%d", k, v, n, m))
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if want := "[0:v0:4:4 1:v1:3:3 2:v2:2:2 9:v9:1:1]"; fmt.Sprint(got) != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
	tx.Rollback()

	// A failing statement leaves its kept statement usable.
	if _, err := db.ExecContext(ctx, ins, 1, "dup"); err == nil {
		t.Fatal("a duplicate key was inserted")
	}
	if _, err := db.ExecContext(ctx, ins, 10, "v10"); err != nil {
		t.Fatalf("the kept insert after a failure: %v", err)
	}
}

func TestStatementCacheIsBounded(t *testing.T) {
	ctx := context.Background()
	db := openDB(filepath.Join(t.TempDir(), "s.db"))
	defer db.Close()
	db.SetMaxOpenConns(1)
	for i := range maxCachedStmts + 10 {
		var n int
		if err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d, %v", i, n, err)
		}
	}
	withCache(t, db, func(c *cachingConn) {
		if len(c.stmts) != maxCachedStmts {
			t.Fatalf("%d statements kept, want %d", len(c.stmts), maxCachedStmts)
		}
	})
}
