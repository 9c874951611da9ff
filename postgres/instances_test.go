package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"math/big"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlstore"
)

func sealer(t testing.TB) sqlstore.Sealer {
	t.Helper()
	key := make([]byte, sqlstore.MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func open(t testing.TB, url string, s sqlstore.Sealer) *sqlstore.DB {
	t.Helper()
	db, err := Open(context.Background(), url, Options{Sealer: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Instances starting together on a new database migrate it once: all
// open, and every migration is recorded exactly once.
func TestMigrationsOnceConcurrently(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	const n = 4
	dbs := make([]*sqlstore.DB, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dbs[i], errs[i] = Open(context.Background(), url, Options{Sealer: s}) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
		defer dbs[i].Close()
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	_, read := dbs[0].Pools()
	var rows, distinct int
	if err := read.QueryRow(`SELECT count(*), count(DISTINCT version) FROM schema_migrations`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != len(ms) || distinct != len(ms) {
		t.Fatalf("%d migration rows (%d distinct), want %d", rows, distinct, len(ms))
	}
	// A database newer than the program is refused.
	w, _ := dbs[0].Pools()
	if _, err := w.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(context.Background(), url, Options{Sealer: s}); err == nil {
		db.Close()
		t.Fatal("opened a database with a newer schema")
	}
}

// Bad URLs are refused with a clear error before anything connects.
func TestOpenRefusesBadURL(t *testing.T) {
	for _, u := range []string{"", "mysql://x", "/var/lib/cashier/cashier.db", "postgres://user@host:notaport/db"} {
		if db, err := Open(context.Background(), u, Options{Sealer: sealer(t)}); err == nil {
			db.Close()
			t.Fatalf("%q opened", u)
		}
	}
	if _, err := Open(context.Background(), "postgres://h/db", Options{}); err == nil {
		t.Fatal("opened without a sealer")
	}
}

// The PostgreSQL schema has every table and column of SQLite's (a new
// SQLite migration needs its twin in postgres/migrations), and nothing
// more than the explicit rowid columns.
func TestSchemaMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	lite, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cashier.db"), sqlite.Options{Sealer: sealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	_, lread := lite.Pools()
	want := columns(t, lread, `SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_xinfo(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`)

	pg := open(t, pgtest.URL(t), sealer(t))
	_, pread := pg.Pools()
	got := columns(t, pread, `SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = 'public' AND column_name <> 'rowid'`)
	if !slices.Equal(got, want) {
		t.Fatalf("columns differ: only in postgres %v, only in sqlite %v", minus(got, want), minus(want, got))
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func columns(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// Three instances reserving from one funding pool at once never lock more
// than it holds: each reservation reads the pool, checks and writes in one
// Update marked ConcurrentWrite, so the instances' groups run in parallel
// and only the pool's row lock (PoolLocked) keeps them from spending the
// same funds.
func TestPoolNotOverspentAcrossInstances(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	stores := []*sqlstore.DB{open(t, url, s), open(t, url, s), open(t, url, s)}
	const (
		pool     = "ETH:0xpool:USDT"
		capacity = 100
		each     = 7
		tries    = 60
	)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		won int
	)
	errs := make(chan error, tries)
	for i := range tries {
		wg.Go(func() {
			db := stores[i%len(stores)]
			reserved := false
			err := db.Update(cashier.ConcurrentWrite(context.Background()), func(tx cashier.Tx) error {
				reserved = false // run again after a conflict
				locked, err := tx.PoolLocked(context.Background(), pool, 0)
				if err != nil {
					return err
				}
				if new(big.Int).Add(locked, big.NewInt(each)).Cmp(big.NewInt(capacity)) > 0 {
					return nil
				}
				reserved = true
				return tx.AddPoolLock(context.Background(), pool, big.NewInt(each))
			})
			if err != nil {
				errs <- err
				return
			}
			if reserved {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	locked, err := stores[0].PoolLocked(context.Background(), pool, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := capacity / each; won != want || locked.Int64() != int64(want*each) {
		t.Fatalf("%d reservations locking %s, want %d locking %d", won, locked, want, want*each)
	}
}

// rebind numbers placeholders outside quotes and comments only.
func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`:                               `SELECT 1`,
		`a = ? AND b IN (?, ?)`:                  `a = $1 AND b IN ($2, $3)`,
		`x = '?' AND y = ? -- why?` + "\n" + `?`: `x = '?' AND y = $1 -- why?` + "\n" + `$2`,
		`"we?ird" = ?`:                           `"we?ird" = $1`,
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

// A failed INSERT inside a transaction undoes only itself, as on SQLite:
// the statement savepoint keeps PostgreSQL's transaction usable, whether
// the insert failed on a duplicate or a dangling reference.
func TestFailedInsertLeavesTransactionUsable(t *testing.T) {
	ctx := context.Background()
	db := open(t, pgtest.URL(t), sealer(t))
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	shop := func(id, merchant string) *cashier.Cashier {
		return &cashier.Cashier{ID: id, MerchantID: merchant, Name: "Shop " + id, Status: cashier.CashierActive, CreatedAt: t0}
	}
	err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", Name: "M", APIKey: "ak_live_0123456789abcdef1",
			SecretKey: "sk", WebhookKey: "wk", Status: cashier.MerchantActive, CreatedAt: t0}); err != nil {
			return err
		}
		if err := tx.CreateCashier(ctx, shop("c1", "m1")); err != nil {
			return err
		}
		if err := tx.CreateCashier(ctx, shop("c1", "m1")); cashier.ErrorCode(err) != cashier.EDuplicate {
			t.Errorf("duplicate cashier: %v", err)
		}
		if err := tx.CreateCashier(ctx, shop("c2", "nobody")); cashier.ErrorCode(err) != cashier.EInvalid {
			t.Errorf("cashier of an unknown merchant: %v", err)
		}
		return tx.CreateCashier(ctx, shop("c3", "m1"))
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"c1": true, "c2": false, "c3": true} {
		_, err := db.Cashier(ctx, id)
		if (err == nil) != want {
			t.Errorf("cashier %s: %v, want stored %v", id, err, want)
		}
	}
	// Numbers come from a sequence (writers run in parallel): a failed
	// insert may leave a gap, but c3 is numbered after c1.
	n1, err1 := db.NumericID(ctx, "cashiers", "c1")
	n3, err3 := db.NumericID(ctx, "cashiers", "c3")
	if err1 != nil || err3 != nil || n1 < 1 || n3 <= n1 {
		t.Fatalf("numbers: c1 %d %v, c3 %d %v", n1, err1, n3, err3)
	}
}
