package sqlstore

import (
	"testing"
	"time"
)

// The estimate: writes of the group still to be executed and those
// queued, at the average cost of an API write; background writes count in
// number but not in cost; the commit is not counted.
func TestWaitEstimate(t *testing.T) {
	var e waitEstimate
	if got := e.expected(10); got != 0 {
		t.Fatalf("no measurement yet: %v, want 0", got)
	}
	e.start(1)
	e.wrote(5 * time.Millisecond) // the first API write sets the cost
	if got := time.Duration(e.perWrite.Load()); got != 5*time.Millisecond {
		t.Fatalf("after the first write: %v per write, want 5ms", got)
	}
	e.perWrite.Store(int64(time.Millisecond))
	e.start(4)
	if got := e.expected(6); got != 10*time.Millisecond {
		t.Fatalf("4 to execute + 6 queued at 1 ms: %v", got)
	}
	e.wrote(0) // a background write, however long, leaves the cost
	if got := e.expected(0); got != 3*time.Millisecond {
		t.Fatalf("3 left at 1 ms: %v", got)
	}
	e.wrote(17 * time.Millisecond) // moves the average by a sixteenth of 16 ms
	if got := e.expected(1); got != 6*time.Millisecond {
		t.Fatalf("2 left + 1 queued at 2 ms: %v", got)
	}
	e.stop() // committing
	if got := e.expected(0); got != 0 {
		t.Fatalf("committing, nothing queued: %v, want 0", got)
	}
}
