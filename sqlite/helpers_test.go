package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore/storetest"
)

// t0 has millisecond precision, the precision the store keeps.
var t0 = storetest.SeedTime

func newKey(t testing.TB) []byte {
	t.Helper()
	key := make([]byte, MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}

func openAt(t testing.TB, path string, key []byte) *DB {
	t.Helper()
	s, err := NewAESSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, Options{Sealer: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var (
	templateOnce sync.Once
	template     []byte
	templateErr  error
)

// newDatabase returns the path of a new database file of the current
// schema: a copy of one migrated once per test process (as package
// sqlitetest does for other packages), since migrating every test's file
// takes seconds under the race detector. The migrations' own tests start
// from empty files.
func newDatabase(t testing.TB) string {
	t.Helper()
	templateOnce.Do(func() {
		path := filepath.Join(os.TempDir(), "sqlite-template-"+rand.Text()+".db")
		defer os.Remove(path)
		var s *AESSealer
		if s, templateErr = NewAESSealer(make([]byte, MasterKeySize)); templateErr != nil {
			return
		}
		var db *DB
		if db, templateErr = Open(ctx, path, Options{Sealer: s}); templateErr != nil {
			return
		}
		if templateErr = db.Close(); templateErr != nil {
			return
		}
		template, templateErr = os.ReadFile(path)
	})
	if templateErr != nil {
		t.Fatalf("the template database: %v", templateErr)
	}
	path := filepath.Join(t.TempDir(), "cashier.db")
	if err := os.WriteFile(path, template, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// openTest opens a fresh database holding merchant m1 with cashier c1 and
// contract k1, and merchant m2 with cashier c2 and contract k2.
func openTest(t testing.TB) *DB {
	t.Helper()
	db := openAt(t, newDatabase(t), newKey(t))
	seed(t, db)
	return db
}

func seed(t testing.TB, db *DB) { storetest.Seed(t, db) }

var ctx = context.Background()

func mustUpdate(t testing.TB, db *DB, fn func(cashier.Tx) error) {
	t.Helper()
	if err := db.Update(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

func wantCode(t testing.TB, err error, code cashier.Code) {
	t.Helper()
	if got := cashier.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

var collection = storetest.Collection

func createCollection(t testing.TB, db *DB, o *cashier.CollectionOrder) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
}

func writePool(db *DB) *sql.DB { w, _ := db.Pools(); return w }
func readPool(db *DB) *sql.DB  { _, r := db.Pools(); return r }
