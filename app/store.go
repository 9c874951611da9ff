// Package app wires the service together from its configuration: the
// store, the registry, the order service, chain clients, the HTTP server and
// the background workers. cmd/cashier is a thin shell around it.
package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/postgres"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlstore"
)

// cacheTTL maps the setting (0: off) onto sqlite.Options (negative: off);
// the max-wait setting maps the same way.
func cacheTTL(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// DBFile is the database file name inside the data directory.
const DBFile = "cashier.db"

// HasDatabase reports whether cfg names a database that exists already:
// a PostgreSQL URL always does (the server holds it), SQLite when its file
// is in the data directory.
func HasDatabase(cfg config.Config) bool {
	if cfg.DatabaseURL != "" {
		return true
	}
	_, err := os.Stat(filepath.Join(cfg.Data, DBFile))
	return err == nil
}

// OpenStore opens the store: PostgreSQL when cfg.DatabaseURL is set,
// otherwise the SQLite file in cfg.Data. The data directory is created
// either way: it holds the master key (from CASHIER_MASTER_KEY when set,
// otherwise DATA/master.key) and the remembered settings, so a copy of the
// database alone does not reveal any merchant secret.
func OpenStore(ctx context.Context, cfg config.Config) (*sqlstore.DB, error) {
	if cfg.Data == "" {
		return nil, fmt.Errorf("no data directory (--data or CASHIER_DATA)")
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return nil, err
	}
	var key []byte
	var err error
	keyPath := filepath.Join(cfg.Data, "master.key")
	_, statErr := os.Stat(keyPath)
	created := cfg.MasterKey == "" && os.IsNotExist(statErr)
	if cfg.MasterKey != "" {
		key, err = sqlite.DecodeMasterKey(cfg.MasterKey)
	} else {
		key, err = sqlite.LoadOrCreateMasterKey(keyPath)
	}
	if err != nil {
		return nil, fmt.Errorf("master key: %w", err)
	}
	sealer, err := sqlite.NewAESSealer(key)
	if err != nil {
		return nil, err
	}
	if cfg.DatabaseURL != "" {
		db, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.Options{Sealer: sealer, WriteQueue: cfg.WriteQueue, CacheTTL: cacheTTL(cfg.CacheTTL), MaxWriteWait: cacheTTL(cfg.MaxWait)})
		if err != nil {
			return nil, err
		}
		// Instances share the database but not the data directory: one
		// with another key must not start.
		if err := db.VerifyKey(ctx); err != nil {
			db.Close()
			if created {
				os.Remove(keyPath) // made just now, for a database that has its own
			}
			return nil, err
		}
		return db, nil
	}
	return sqlite.Open(ctx, filepath.Join(cfg.Data, DBFile), sqlite.Options{Sealer: sealer, WriteQueue: cfg.WriteQueue, CacheTTL: cacheTTL(cfg.CacheTTL), MaxWriteWait: cacheTTL(cfg.MaxWait)})
}

// NeedStore reports an error when cfg names no existing database: the
// operator commands work on a service's data and must not start an empty
// database (and a new master key) behind a mistyped --data.
func NeedStore(cfg config.Config) error {
	if !HasDatabase(cfg) {
		return fmt.Errorf("no database in %q: create a merchant there first, or check --data", cfg.Data)
	}
	return nil
}
