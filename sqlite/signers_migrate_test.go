package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// A contract registered before merchant signers (schema 0009) survives the
// migration to 0010 with an empty signer, which the executor reads as
// "signed by the network's service signer", exactly as before.
func TestContractsSurviveSignerMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cashier.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Version >= 10 {
			break
		}
		if err := applyMigration(ctx, raw, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.ExecContext(ctx, `SELECT signer FROM contracts`); err == nil {
		t.Fatal("schema 0009 has a signer column already")
	}
	// A registration as schema 0009 stored it (foreign keys are off on this
	// raw connection, so no merchant row is needed).
	if _, err := raw.ExecContext(ctx, `INSERT INTO contracts (id, merchant_id, chain, address, webhook_url, status, created_at)
		VALUES ('k_old', 'm_old', 'ARB', '0x00000000000000000000000000000000000000a1', '', 'active', 1)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	key := newKey(t)
	db := openAt(t, path, key)
	defer db.Close()
	k, err := db.Contract(ctx, "k_old")
	if err != nil || k.Signer != "" || k.Status != "active" {
		t.Fatalf("old registration after the migration: %+v %v", k, err)
	}
}
