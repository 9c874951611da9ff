package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore/storetest"
)

// A backup taken while the store is open, with commits still only in the
// WAL, holds them; it refuses to overwrite a file.
func TestBackupOfOpenDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	key := newKey(t)
	db := openAt(t, filepath.Join(dir, "cashier.db"), key)
	storetest.Seed(t, db)
	o := storetest.Collection("co_1", "m1", "B-1", t0)
	if err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "cashier.db-wal")); err != nil || st.Size() == 0 {
		t.Fatalf("the commit is not in the WAL: %v", err)
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	n, err := Backup(ctx, filepath.Join(dir, "cashier.db"), out)
	if err != nil || n <= 0 {
		t.Fatalf("backup: %d %v", n, err)
	}
	if _, err := Backup(ctx, filepath.Join(dir, "cashier.db"), out); err == nil {
		t.Fatal("a backup overwrote an existing file")
	}
	cp := openAt(t, out, key)
	got, err := cp.Collection(ctx, "co_1")
	if err != nil || got.OrderNo != "B-1" {
		t.Fatalf("the copy lacks the order: %v %v", got, err)
	}
	if m, err := cp.Merchant(ctx, "m1"); err != nil || m.SecretKey == "" {
		t.Fatalf("the copy's sealed secrets do not open with the key: %v", err)
	}
}
