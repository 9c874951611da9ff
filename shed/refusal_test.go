package shed

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Refusals are counted and logged in one warning a second at most, the
// first at once.
func TestRefusalLogOncePerSecond(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var l RefusalLog
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l.Note(log, t0)
	for i := 1; i <= 5; i++ {
		l.Note(log, t0.Add(time.Duration(i)*100*time.Millisecond))
	}
	l.Note(log, t0.Add(time.Second))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "refused=1") || !strings.Contains(lines[1], "refused=6") ||
		!strings.Contains(lines[0], "level=WARN") {
		t.Fatalf("log:\n%s", buf.String())
	}
}
