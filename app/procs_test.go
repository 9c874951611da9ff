package app

import (
	"io"
	"log/slog"
	"os"
	"runtime"
	"testing"
)

// Serving raises GOMAXPROCS by one, once, unless the operator set it.
func TestSpareProc(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	spareProc(slog.New(slog.NewTextHandler(io.Discard, nil)))
	spareProc(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if os.Getenv("GOMAXPROCS") != "" {
		if got := runtime.GOMAXPROCS(0); got != before || spareFrom != 0 {
			t.Fatalf("GOMAXPROCS set by the operator: %d became %d", before, got)
		}
		return
	}
	if spareFrom == 0 {
		t.Fatal("GOMAXPROCS was not raised")
	}
	if got := runtime.GOMAXPROCS(0); got != spareFrom+1 {
		t.Fatalf("GOMAXPROCS %d, want %d: one more than the %d the runtime chose", got, spareFrom+1, spareFrom)
	}
}
