package sqlite

import (
	"database/sql"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestMigrationsAreIdempotent(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].Version != 1 {
		t.Fatalf("migrations = %+v", ms)
	}
	path, key := filepath.Join(t.TempDir(), "cashier.db"), newKey(t)

	db := openAt(t, path, key)
	seed(t, db)
	createCollection(t, db, collection("o1", "m1", "A-1", t0))
	db.Close()

	// Reopening applies nothing again and keeps the data.
	db = openAt(t, path, key)
	var n, newest int
	if err := readPool(db).QueryRow(`SELECT count(*), max(version) FROM schema_migrations`).Scan(&n, &newest); err != nil {
		t.Fatal(err)
	}
	if n != len(ms) || newest != ms[len(ms)-1].Version {
		t.Fatalf("schema_migrations has %d rows up to %d, want %d up to %d", n, newest, len(ms), ms[len(ms)-1].Version)
	}
	if o, err := db.Collection(ctx, "o1"); err != nil || o.OrderNo != "A-1" {
		t.Fatalf("after reopen: %v, %v", o, err)
	}
	if m, err := db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef1"); err != nil || m.SecretKey != "sk_1" {
		t.Fatalf("after reopen: %v, %v", m, err)
	}

	var mode string
	if err := readPool(db).QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	for _, c := range []struct {
		pool   *sql.DB
		pragma string
		want   int
	}{
		{writePool(db), "foreign_keys", 1}, {writePool(db), "synchronous", 2}, {writePool(db), "busy_timeout", 5000},
		{readPool(db), "query_only", 1}, {readPool(db), "foreign_keys", 1},
	} {
		var v int
		if err := c.pool.QueryRow(`PRAGMA ` + c.pragma).Scan(&v); err != nil || v != c.want {
			t.Errorf("PRAGMA %s = %d, %v; want %d", c.pragma, v, err, c.want)
		}
	}
	// The read pool cannot write, even by mistake.
	if _, err := readPool(db).Exec(`DELETE FROM merchants`); err == nil {
		t.Error("read pool accepted a write")
	}
}

// Processes starting together on a fresh file migrate it once.
func TestConcurrentOpen(t *testing.T) {
	path, key := filepath.Join(t.TempDir(), "cashier.db"), newKey(t)
	var wg sync.WaitGroup
	dbs := make([]*DB, 4)
	for i := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i] = openAt(t, path, key)
		}()
	}
	wg.Wait()
	seed(t, dbs[0])
	if _, err := dbs[3].Merchant(ctx, "m1"); err != nil {
		t.Fatal(err)
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	path, key := filepath.Join(t.TempDir(), "cashier.db"), newKey(t)
	db := openAt(t, path, key)
	if _, err := writePool(db).Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, _ := NewAESSealer(key)
	_, err := Open(ctx, path, Options{Sealer: s})
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

func TestOpenRejectsBadArguments(t *testing.T) {
	s, _ := NewAESSealer(newKey(t))
	dir := t.TempDir()
	if _, err := Open(ctx, filepath.Join(dir, "a.db"), Options{}); err == nil {
		t.Error("Open without a Sealer succeeded")
	}
	for _, p := range []string{"", ":memory:", "file:x.db", filepath.Join(dir, "a.db?mode=ro")} {
		if _, err := Open(ctx, p, Options{Sealer: s}); err == nil {
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

// The hot queries are answered from indexes, never by scanning a table:
// a guard against a schema change silently dropping an index they need.
func TestQueryPlansUseIndexes(t *testing.T) {
	db := openTest(t)
	for _, q := range []string{
		`SELECT count(*) FROM collection_orders WHERE merchant_id = ? AND created_at >= ? AND created_at <= ?`,
		`SELECT id FROM collection_orders WHERE merchant_id = ? AND status = ? ORDER BY created_at DESC, rowid DESC LIMIT 10`,
		`SELECT id FROM collection_orders WHERE status = ? ORDER BY created_at DESC, rowid DESC LIMIT 10`,
		`SELECT id FROM payout_orders WHERE contract_id = ? AND status = ? ORDER BY created_at DESC, rowid DESC LIMIT 10`,
		`SELECT id FROM payout_orders WHERE merchant_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 10`,
		`SELECT id FROM payout_orders WHERE chain = ? AND from_address = ? AND status = ? ORDER BY created_at DESC, rowid DESC LIMIT 10`,
		`SELECT id FROM merchants WHERE api_key_hash = ?`,
		`SELECT e.seq FROM events e WHERE e.state = 'pending' AND e.next_attempt_at <= ?
		   AND (e.order_id = '' OR NOT EXISTS (SELECT 1 FROM events p
		     WHERE p.order_id = e.order_id AND p.seq < e.seq AND p.state = 'pending'))
		 ORDER BY e.seq LIMIT 10`,
		`SELECT seq FROM events WHERE order_id = ? ORDER BY seq DESC LIMIT 100`,
		`SELECT id FROM delivery_attempts WHERE event_id = ? ORDER BY id`,
	} {
		args := make([]any, strings.Count(q, "?"))
		rows, err := readPool(db).Query(`EXPLAIN QUERY PLAN `+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") || strings.Contains(step, "TEMP B-TREE") {
				t.Errorf("%s\nplan: %s", q, strings.Join(plan, " | "))
			}
		}
	}
}
