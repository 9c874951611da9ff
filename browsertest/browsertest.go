// Package browsertest holds what the tests that drive headless Chromium
// share: where the browser is, and a profile directory that is removed
// once the browser is done with it.
package browsertest

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// Chromium returns the browser to drive: $CHROMIUM, else chromium on PATH.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("these tests need headless Chromium: apt-get install -y chromium (or set CHROMIUM)")
	}
	return p
}

// ProfileDir returns a new directory for a browser's profile
// (--user-data-dir), removed after the test. Chromium's helper processes
// may still be writing its cache for a moment after the browser was
// stopped, which made t.TempDir's removal fail the test ("directory not
// empty"): the removal is tried again for up to 10 s.
func ProfileDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "chromium-profile-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("removing the browser profile: %v", err)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}
