package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"time"

	"github.com/stablecashier/cashier/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the embedded migrations in version order.
func migrations() ([]sqlstore.Migration, error) {
	ms, err := sqlstore.Migrations(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return ms, nil
}

// migrate applies every migration the database has not recorded, each in
// its own transaction together with its schema_migrations row. Checking
// inside the write transaction makes concurrent Opens of one file safe: the
// second waits for the first and then finds the step done.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	var newest int
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
		return fmt.Errorf("sqlite: read schema version: %w", err)
	}
	if len(ms) > 0 && newest > ms[len(ms)-1].Version {
		return fmt.Errorf("sqlite: database schema version %d is newer than this program knows (%d); use a newer release",
			newest, ms[len(ms)-1].Version)
	}
	for _, m := range ms {
		if err := applyMigration(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, m sqlstore.Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var applied bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, m.Version).Scan(&applied); err != nil {
		return err
	}
	if applied {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("sqlite: migration %04d_%s: %w", m.Version, m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}
