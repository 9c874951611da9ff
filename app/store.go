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
	"github.com/stablecashier/cashier/sqlite"
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

// OpenStore opens the SQLite store in cfg.Data, creating the directory and
// the master key on first use. The master key comes from CASHIER_MASTER_KEY
// when set, otherwise from DATA/master.key, so a copy of the database file
// alone does not reveal any merchant secret.
func OpenStore(ctx context.Context, cfg config.Config) (*sqlite.DB, error) {
	if cfg.Data == "" {
		return nil, fmt.Errorf("no data directory (--data or CASHIER_DATA)")
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return nil, err
	}
	var key []byte
	var err error
	if cfg.MasterKey != "" {
		key, err = sqlite.DecodeMasterKey(cfg.MasterKey)
	} else {
		key, err = sqlite.LoadOrCreateMasterKey(filepath.Join(cfg.Data, "master.key"))
	}
	if err != nil {
		return nil, fmt.Errorf("master key: %w", err)
	}
	sealer, err := sqlite.NewAESSealer(key)
	if err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, filepath.Join(cfg.Data, DBFile), sqlite.Options{Sealer: sealer, WriteQueue: cfg.WriteQueue, CacheTTL: cacheTTL(cfg.CacheTTL), MaxWriteWait: cacheTTL(cfg.MaxWait)})
}
