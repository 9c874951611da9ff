package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func openWaitBound(t *testing.T, maxWait time.Duration) *DB {
	t.Helper()
	s, err := NewAESSealer(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, filepath.Join(t.TempDir(), "cashier.db"), Options{Sealer: s, MaxWriteWait: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	seed(t, db)
	return db
}

// An API write (context marked RefuseWhenBusy) is refused at once when the
// writes ahead of it imply a wait beyond MaxWriteWait, however short the
// queue (16 of 1024 here), but never while fewer than minWrites are ahead;
// background writes wait instead; once the writer has caught up the same
// API write goes through. The per-write cost is set by hand (an hour) so
// that the test does not depend on this machine's speed.
func TestWriteWaitBound(t *testing.T) {
	db := openWaitBound(t, 90*time.Minute)
	db.writer.wait.perWrite.Store(int64(time.Hour))
	if db.WritesBusy() {
		t.Fatal("busy with nothing queued")
	}
	release := holdWriter(t, db)
	var results []chan error
	write := func(ctx context.Context, id string) {
		ch := make(chan error, 1)
		results = append(results, ch)
		go func() {
			ch <- db.Update(ctx, func(tx cashier.Tx) error {
				return tx.CreateCollection(ctx, collection(id, "m1", id, t0))
			})
		}()
	}
	// 1 running + 14 queued: 15 hours expected, but under minWrites.
	for i := 0; i < minWrites-2; i++ {
		write(ctx, fmt.Sprintf("co_bg%d", i))
	}
	waitQueued(t, db, minWrites-2)
	if db.WritesBusy() {
		t.Fatalf("busy with %d writes ahead (expected wait %v)", minWrites-1, db.WriteWait())
	}
	write(cashier.RefuseWhenBusy(ctx), "co_admitted") // queues: 16 ahead now
	waitQueued(t, db, minWrites-1)
	if !db.WritesBusy() {
		t.Fatalf("not busy with %d writes ahead (expected wait %v)", minWrites, db.WriteWait())
	}
	err := db.Update(cashier.RefuseWhenBusy(ctx), func(tx cashier.Tx) error {
		return tx.CreateCollection(ctx, collection("co_refused", "m1", "R-1", t0))
	})
	wantCode(t, err, cashier.EOverloaded)
	if n := len(db.writer.queue); n != minWrites-1 {
		t.Fatalf("%d writes queued after the refusal, want %d", n, minWrites-1)
	}
	write(ctx, "co_waited") // not marked: waits its turn
	waitQueued(t, db, minWrites)
	release()
	for _, ch := range results {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	// Nothing running or queued any more.
	if db.WritesBusy() {
		t.Fatalf("still busy after catching up (expected wait %v)", db.WriteWait())
	}
	if err := db.Update(cashier.RefuseWhenBusy(ctx), func(tx cashier.Tx) error {
		return tx.CreateCollection(ctx, collection("co_refused", "m1", "R-1", t0))
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"co_bg0", "co_admitted", "co_waited", "co_refused"} {
		if _, err := db.Collection(ctx, id); err != nil {
			t.Fatalf("%s not stored: %v", id, err)
		}
	}
}

// A negative MaxWriteWait leaves only the queue's length as the bound.
func TestWriteWaitBoundOff(t *testing.T) {
	db := openWaitBound(t, -1)
	db.writer.wait.perWrite.Store(int64(time.Hour))
	release := holdWriter(t, db)
	const n = 2 * minWrites
	done := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			id := fmt.Sprintf("co_%d", i)
			done <- db.Update(cashier.RefuseWhenBusy(ctx), func(tx cashier.Tx) error {
				return tx.CreateCollection(ctx, collection(id, "m1", id, t0))
			})
		}()
	}
	waitQueued(t, db, n)
	if db.WritesBusy() {
		t.Fatal("busy although the bound is off")
	}
	release()
	for i := 0; i < n; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

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
