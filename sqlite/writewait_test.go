package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore"
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
// queue (16 of 1024 here), but never while fewer than sqlstore.MinWritesAhead are ahead;
// background writes wait instead; once the writer has caught up the same
// API write goes through. The per-write cost is set by hand (an hour) so
// that the test does not depend on this machine's speed.
func TestWriteWaitBound(t *testing.T) {
	db := openWaitBound(t, 90*time.Minute)
	db.SetWriteCost(time.Hour)
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
	// 1 running + 14 queued: 15 hours expected, but under sqlstore.MinWritesAhead.
	for i := 0; i < sqlstore.MinWritesAhead-2; i++ {
		write(ctx, fmt.Sprintf("co_bg%d", i))
	}
	waitQueued(t, db, sqlstore.MinWritesAhead-2)
	if db.WritesBusy() {
		t.Fatalf("busy with %d writes ahead (expected wait %v)", sqlstore.MinWritesAhead-1, db.WriteWait())
	}
	write(cashier.RefuseWhenBusy(ctx), "co_admitted") // queues: 16 ahead now
	waitQueued(t, db, sqlstore.MinWritesAhead-1)
	if !db.WritesBusy() {
		t.Fatalf("not busy with %d writes ahead (expected wait %v)", sqlstore.MinWritesAhead, db.WriteWait())
	}
	err := db.Update(cashier.RefuseWhenBusy(ctx), func(tx cashier.Tx) error {
		return tx.CreateCollection(ctx, collection("co_refused", "m1", "R-1", t0))
	})
	wantCode(t, err, cashier.EOverloaded)
	if n := db.WritesWaiting(); n != sqlstore.MinWritesAhead-1 {
		t.Fatalf("%d writes queued after the refusal, want %d", n, sqlstore.MinWritesAhead-1)
	}
	write(ctx, "co_waited") // not marked: waits its turn
	waitQueued(t, db, sqlstore.MinWritesAhead)
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
	db.SetWriteCost(time.Hour)
	release := holdWriter(t, db)
	const n = 2 * sqlstore.MinWritesAhead
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
