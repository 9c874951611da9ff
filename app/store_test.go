package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sqlstore"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// CASHIER_DATABASE_URL selects PostgreSQL; instances with their own data
// directories share it only with the same master key: a fresh directory's
// new key is refused at start (and its key file removed), the shared key
// through CASHIER_MASTER_KEY works.
func TestOpenStorePostgres(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	first := config.Default()
	first.Data, first.DatabaseURL = t.TempDir(), url
	st, err := OpenStore(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMerchant("Shared Merchant", cashier.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(filepath.Join(first.Data, DBFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a SQLite file was created beside the PostgreSQL store: %v", err)
	}

	second := first
	second.Data = t.TempDir()
	if st, err := OpenStore(ctx, second); !errors.Is(err, sqlstore.ErrWrongKey) {
		if st != nil {
			st.Close()
		}
		t.Fatalf("another key opened the shared database: %v", err)
	}
	if _, err := os.Stat(filepath.Join(second.Data, "master.key")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refused new key file stayed: %v", err)
	}

	key, err := os.ReadFile(filepath.Join(first.Data, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	second.MasterKey = string(key)
	st, err = OpenStore(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.MerchantByAPIKey(ctx, m.APIKey)
	if err != nil || got.SecretKey != m.SecretKey {
		t.Fatalf("second instance reads %+v, %v", got, err)
	}
}
