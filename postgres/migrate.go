package postgres

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
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return ms, nil
}

// migrate applies every migration the database has not recorded, each in
// its own transaction with its schema_migrations row, holding a session
// advisory lock throughout: instances starting together take turns, and
// the later ones find the steps done.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	c, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("postgres: connect: %w", err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `SELECT pg_advisory_lock(?)`, migrateLock); err != nil {
		return fmt.Errorf("postgres: lock for migrating: %w", err)
	}
	defer c.ExecContext(context.Background(), `SELECT pg_advisory_unlock(?)`, migrateLock)

	if _, err := c.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    BIGINT PRIMARY KEY,
		name       TEXT   NOT NULL,
		applied_at BIGINT NOT NULL
	)`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", err)
	}
	var newest int
	if err := c.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
		return fmt.Errorf("postgres: read schema version: %w", err)
	}
	if len(ms) > 0 && newest > ms[len(ms)-1].Version {
		return fmt.Errorf("postgres: database schema version %d is newer than this program knows (%d); use a newer release",
			newest, ms[len(ms)-1].Version)
	}
	for _, m := range ms {
		if m.Version <= newest {
			continue
		}
		if err := apply(ctx, c, m); err != nil {
			return err
		}
	}
	return nil
}

func apply(ctx context.Context, c *sql.Conn, m sqlstore.Migration) error {
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("postgres: migration %04d_%s: %w", m.Version, m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}
