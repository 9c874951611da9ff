package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sqlite"
)

// backupCmd copies a data directory's SQLite database, live, to a new
// file (sqlite.Backup). The master key is not in the copy: it is backed up
// apart (docs/going-live.md). PostgreSQL has its own tools.
func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var out string
	cfg, _, err := parseSettings("backup", args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&out, "out", "", "the file to write the copy to; must not exist (required)")
	})
	if err != nil {
		return err
	}
	if out == "" {
		return fmt.Errorf("backup: --out FILE is required")
	}
	if cfg.DatabaseURL != "" {
		return fmt.Errorf("backup: the database is PostgreSQL: back it up with pg_dump or pg_basebackup (docs/going-live.md)")
	}
	if err := app.NeedStore(cfg); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	db, _ := filepath.Abs(filepath.Join(cfg.Data, app.DBFile))
	dst, _ := filepath.Abs(out)
	n, err := sqlite.Backup(ctx, db, dst)
	if err != nil {
		return err
	}
	if err := app.RecordBackup(cfg.Data, dst, time.Now()); err != nil { // its age is checked by `cashier doctor`
		return err
	}
	key := "CASHIER_MASTER_KEY"
	if cfg.MasterKey == "" {
		key, _ = filepath.Abs(filepath.Join(cfg.Data, "master.key"))
	}
	return printJSON(stdout, map[string]any{"database": db, "out": dst, "bytes": n, "integrity": "ok",
		"masterKey": key, "note": "the copy's secrets are sealed with the master key: back the key up too, apart from the copy"})
}
