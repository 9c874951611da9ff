package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// Backup writes a consistent copy of the database at path to out while
// the service may be running and writing: VACUUM INTO reads one snapshot
// (WAL readers do not block the writer, nor it them) and writes a compact,
// self-contained file with the WAL's committed pages folded in. Copying
// the file with cp instead could catch it between a commit to the WAL and
// its checkpoint, and miss the WAL. out must not exist. The copy is then
// opened and checked (PRAGMA integrity_check); it returns its size.
func Backup(ctx context.Context, path, out string) (int64, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	if _, err := os.Stat(out); err == nil {
		return 0, fmt.Errorf("backup: %s exists; name a new file", out)
	}
	if strings.ContainsRune(path, '?') {
		return 0, fmt.Errorf("backup: %q is not a plain file path", path)
	}
	// Not query_only: SQLite counts VACUUM INTO as a write, though it
	// writes only to out.
	src, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, `VACUUM INTO ?`, out); err != nil {
		os.Remove(out)
		return 0, fmt.Errorf("backup: %w", err)
	}
	if err := os.Chmod(out, 0o600); err != nil { // holds sealed secrets and every order
		return 0, err
	}
	cp, err := sql.Open("sqlite", out+"?_pragma=query_only(1)")
	if err != nil {
		return 0, err
	}
	defer cp.Close()
	var check string
	if err := cp.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		return 0, fmt.Errorf("backup: the copy %s fails its integrity check: %v %s", out, err, check)
	}
	st, err := os.Stat(out)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
