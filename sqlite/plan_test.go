package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The watcher's and the expiry worker's lookups, and a claim's check of
// an order's earlier events, read through their indexes, not a scan.
func TestWatcherLookupsUseIndexes(t *testing.T) {
	db := openTest(t)
	// The lookups read through their indexes, not a scan of every order.
	for q, index := range map[string]string{
		`SELECT id FROM collection_orders WHERE chain = 'TRON' AND deposit_address IN ('a', 'b')`:                                    "collection_orders_address",
		`SELECT id FROM collection_orders WHERE status = 'PENDING' AND expire_at <= 5 AND chain = 'ETH' ORDER BY expire_at LIMIT 10`: "collection_orders_status_expiry",
		// A claim's check for an earlier pending event of the same order.
		`SELECT 1 FROM events p WHERE p.order_id = 'o1' AND p.seq < 9 AND p.state || '' = 'pending'`: "events_order (order_id=? AND seq<?)",
	} {
		rows, err := readPool(db).QueryContext(ctx, "EXPLAIN QUERY PLAN "+q)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if !strings.Contains(strings.Join(plan, "; "), index) {
			t.Errorf("%s: plan %q does not use %s", q, plan, index)
		}
	}
}

// An order's insert and its event's run no trigger, neither a table's nor
// the one SQLite makes of RETURNING: a statement with a trigger copies
// every page it changes to a statement journal first (migration 0028,
// Dialect.NoReturning).
func TestHotInsertsRunNoTrigger(t *testing.T) {
	db := openTest(t)
	rows, err := readPool(db).QueryContext(ctx, `SELECT name FROM sqlite_master
		WHERE type = 'trigger' AND tbl_name IN ('collection_orders', 'payout_orders', 'events')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		t.Errorf("trigger %s on a table every order writes", name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !Dialect.NoReturning {
		t.Error("the SQLite dialect inserts with RETURNING")
	}
}

// A write's savepoint journal stays in memory however many pages the write
// changes: SQLite would otherwise move it to a temporary file past 64 KiB
// and write it a page per system call, inside the group's commit path.
func TestSavepointJournalStaysInMemory(t *testing.T) {
	db := openTest(t)
	err := db.WriteRaw(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE scratch (v BLOB NOT NULL)`); err != nil {
			return err
		}
		// 64 rows of a page each: 256 KiB to journal when all change.
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64)
			INSERT INTO scratch (v) SELECT randomblob(4000) FROM n`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = db.WriteRaw(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`SAVEPOINT big`, `UPDATE scratch SET v = randomblob(4000)`} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		var err error
		if files, err = deletedFilesOpen(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `RELEASE big`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) > 0 {
		t.Errorf("the savepoint's journal went to a temporary file: %q", files)
	}
}

// Only the writer keeps its temporary files in memory: the migrations'
// connection (an index built over a large table sorts there) and the
// readers keep SQLite's default, files.
func TestOnlyTheWriterKeepsTemporariesInMemory(t *testing.T) {
	dsn := dsns(filepath.Join(t.TempDir(), "c.db"), time.Second)
	for _, c := range []struct {
		name, dsn string
		want      int // PRAGMA temp_store: 0 the default (files), 2 memory
	}{{"migrations", dsn.migrate, 0}, {"writer", dsn.write, 2}, {"reader", dsn.read, 0}} {
		db, err := sql.Open("sqlite", c.dsn)
		if err != nil {
			t.Fatal(err)
		}
		var got int
		err = db.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&got)
		db.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: temp_store %d, want %d", c.name, got, c.want)
		}
	}
}

// deletedFilesOpen lists the files this process holds open that are
// deleted: SQLite's temporary files, unlinked as soon as opened. (It runs
// inside a write, on the writer's goroutine, so it returns its error.)
func deletedFilesOpen() ([]string, error) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, fd := range fds {
		target, err := os.Readlink("/proc/self/fd/" + fd.Name())
		if err == nil && strings.HasSuffix(target, " (deleted)") {
			names = append(names, target)
		}
	}
	return names, nil
}
