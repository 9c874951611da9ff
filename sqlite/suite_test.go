package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stablecashier/cashier/sqlstore"
	"github.com/stablecashier/cashier/sqlstore/storetest"
)

// TestStore runs the store's conformance suite on SQLite files.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		NewDatabase: newDatabase,
		Open: func(ctx context.Context, path string, o sqlstore.Options) (*DB, error) {
			return Open(ctx, path, Options{Sealer: o.Sealer, WriteQueue: o.WriteQueue, MaxBatch: o.MaxBatch, CacheTTL: o.CacheTTL})
		},
		RawBytes: func(t testing.TB, path string) []byte {
			files, _ := filepath.Glob(path + "*") // the file, its WAL and shared memory
			var all []byte
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, b...)
			}
			return all
		},
	})
}
