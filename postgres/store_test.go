package postgres

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sqlstore"
	"github.com/stablecashier/cashier/sqlstore/storetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestStore runs the store's conformance suite on PostgreSQL.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		NewDatabase: func(t testing.TB) string { return pgtest.URL(t) },
		Open: func(ctx context.Context, url string, o sqlstore.Options) (*sqlstore.DB, error) {
			return Open(ctx, url, Options{Sealer: o.Sealer, WriteQueue: o.WriteQueue, MaxBatch: o.MaxBatch, CacheTTL: o.CacheTTL})
		},
		RawBytes: func(t testing.TB, url string) []byte {
			// Everything written reaches the data files at a checkpoint;
			// the WAL holds it before. Both are in the data directory.
			db, err := sql.Open("pgx", url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CHECKPOINT`); err != nil {
				t.Fatal(err)
			}
			var all []byte
			err = filepath.WalkDir(pgtest.Shared().DataDir(), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				all = append(all, b...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return all
		},
	})
}
