package app

import (
	"os"
	"path/filepath"
	"testing"
)

// A holder whose lock is held is alive; one whose lock file is left
// unlocked (its process exited) is dead; one without a file here is not
// judged; a name that is not a plain file name is never judged.
func TestDeadLocal(t *testing.T) {
	data := t.TempDir()
	unlock, err := lockInstance(data, "host-1-aa")
	if err != nil {
		t.Fatal(err)
	}
	if deadLocal(data, "host-1-aa") {
		t.Fatal("a running instance judged dead")
	}
	if err := os.WriteFile(filepath.Join(data, instancesDir, "host-2-bb.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !deadLocal(data, "host-2-bb") {
		t.Fatal("an instance whose lock is free judged alive")
	}
	if _, err := os.Stat(filepath.Join(data, instancesDir, "host-2-bb.lock")); !os.IsNotExist(err) {
		t.Fatal("the stale lock file stayed")
	}
	if deadLocal(data, "other-host-3-cc") || deadLocal(data, "../host-1-aa") {
		t.Fatal("an unknown or malformed holder judged dead")
	}
	unlock()
	if deadLocal(data, "host-1-aa") {
		t.Fatal("a cleanly stopped instance (file removed) judged dead")
	}
}
