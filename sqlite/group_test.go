package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// holdWriter blocks the writer inside an Update until release is called,
// and returns once that Update is running: writes issued meanwhile queue
// up and form the next group.
func holdWriter(t *testing.T, db *DB) (release func()) {
	t.Helper()
	running, gate, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- db.Update(ctx, func(tx cashier.Tx) error {
			close(running)
			<-gate
			return nil
		})
	}()
	<-running
	var once sync.Once
	release = func() {
		once.Do(func() {
			close(gate)
			if err := <-done; err != nil {
				t.Errorf("holding update: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// waitQueued waits until n writes are queued behind the writer.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for db.WritesWaiting() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", db.WritesWaiting(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Writes that arrive while the writer is busy share one transaction; the
// ones whose function fails (an error, a duplicate key, a panic) are rolled
// back alone, and every successful caller finds its order committed the
// moment Update returns. The same holds for writes that may run again
// (cashier.ConcurrentWrite), which first run without savepoints.
func TestGroupCommitSharesOneTransaction(t *testing.T) {
	t.Run("plain", func(t *testing.T) { testGroupCommitSharesOneTransaction(t, ctx) })
	t.Run("rerunnable", func(t *testing.T) { testGroupCommitSharesOneTransaction(t, cashier.ConcurrentWrite(ctx)) })
}

func testGroupCommitSharesOneTransaction(t *testing.T, ctx context.Context) {
	db := openTest(t)
	createCollection(t, db, collection("co_dup", "m1", "DUP", t0))
	release := holdWriter(t, db)
	groupsBefore, togetherBefore := db.GroupsCommitted(), db.GroupsTogether()

	const n = 40
	errs := make([]error, n)
	panics := make([]any, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = db.Update(ctx, func(tx cashier.Tx) error {
				o := collection(fmt.Sprintf("co_%d", i), "m1", fmt.Sprintf("N-%d", i), t0)
				switch i % 4 {
				case 1: // writes, then fails: its write must vanish
					if err := tx.CreateCollection(ctx, o); err != nil {
						return err
					}
					return errors.New("refused after writing")
				case 2: // a failing statement
					o.OrderNo = "DUP"
					return tx.CreateCollection(ctx, o)
				case 3:
					if i == 3 {
						if err := tx.CreateCollection(ctx, o); err != nil {
							return err
						}
						panic("boom")
					}
				}
				if err := tx.CreateCollection(ctx, o); err != nil {
					return err
				}
				// Reads inside the transaction see this function's
				// own write.
				_, err := tx.Collection(ctx, o.ID)
				return err
			})
			if errs[i] == nil {
				// Answered only after the commit: the read pool, which
				// sees committed data only, has it.
				if _, err := db.Collection(ctx, fmt.Sprintf("co_%d", i)); err != nil {
					errs[i] = fmt.Errorf("committed order not readable after Update returned: %w", err)
				}
			}
		}()
	}
	waitQueued(t, db, n)
	release()
	wg.Wait()

	if got := db.GroupsCommitted() - groupsBefore; got != 2 { // the held one and ours
		t.Fatalf("%d groups committed, want 2 (one for the %d queued writes)", got, n)
	}
	if got := db.GroupsTogether() - togetherBefore; got != 0 {
		t.Fatalf("%d groups with failing writes committed without savepoints", got)
	}
	for i := 0; i < n; i++ {
		_, readErr := db.Collection(ctx, fmt.Sprintf("co_%d", i))
		switch {
		case i == 3:
			if panics[i] != "boom" {
				t.Fatalf("write %d: panic %v, want boom in the caller", i, panics[i])
			}
			wantCode(t, readErr, cashier.ENotFound)
		case i%4 == 1:
			if errs[i] == nil || errs[i].Error() != "refused after writing" {
				t.Fatalf("write %d: %v", i, errs[i])
			}
			wantCode(t, readErr, cashier.ENotFound)
		case i%4 == 2:
			wantCode(t, errs[i], cashier.EDuplicate)
			wantCode(t, readErr, cashier.ENotFound)
		default:
			if errs[i] != nil || panics[i] != nil || readErr != nil {
				t.Fatalf("write %d: %v, panic %v, read %v", i, errs[i], panics[i], readErr)
			}
		}
	}
}

// A group of writes that may all run again commits without a savepoint
// each, every function run once; one plain write among them puts the group
// back on savepoints.
func TestGroupOfRerunnableWritesRunsTogether(t *testing.T) {
	for _, mixed := range []bool{false, true} {
		t.Run(fmt.Sprintf("mixed=%v", mixed), func(t *testing.T) {
			db := openTest(t)
			release := holdWriter(t, db)
			groupsBefore, togetherBefore := db.GroupsCommitted(), db.GroupsTogether()
			const n = 20
			var runs [n]int
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wctx := cashier.ConcurrentWrite(ctx)
				if mixed && i == n/2 {
					wctx = ctx
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = db.Update(wctx, func(tx cashier.Tx) error {
						runs[i]++
						return tx.CreateCollection(ctx, collection(fmt.Sprintf("co_%d", i), "m1", fmt.Sprintf("N-%d", i), t0))
					})
				}()
				// One at a time: the group holds them in this order.
				waitQueued(t, db, i+1)
			}
			release()
			wg.Wait()
			for i := 0; i < n; i++ {
				if errs[i] != nil {
					t.Fatalf("write %d: %v", i, errs[i])
				}
				if runs[i] != 1 {
					t.Errorf("write %d ran %d times", i, runs[i])
				}
				if _, err := db.Collection(ctx, fmt.Sprintf("co_%d", i)); err != nil {
					t.Errorf("write %d not stored: %v", i, err)
				}
			}
			if got := db.GroupsCommitted() - groupsBefore; got != 2 {
				t.Fatalf("%d groups committed, want 2", got)
			}
			want := int64(1)
			if mixed {
				want = 0
			}
			if got := db.GroupsTogether() - togetherBefore; got != want {
				t.Fatalf("%d groups committed without savepoints, want %d", got, want)
			}
		})
	}
}

// After a group of re-runnable writes had to run again with savepoints,
// the next groups run with them at once; some groups later, without again.
func TestRerunnableGroupsPauseAfterAFailure(t *testing.T) {
	db := openTest(t)
	createCollection(t, db, collection("co_dup", "m1", "DUP", t0))
	wctx := cashier.ConcurrentWrite(ctx)
	group := func(name string, orderNos ...string) []error {
		t.Helper()
		release := holdWriter(t, db)
		errs := make([]error, len(orderNos))
		var wg sync.WaitGroup
		for i, no := range orderNos {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = db.Update(wctx, func(tx cashier.Tx) error {
					return tx.CreateCollection(ctx, collection(fmt.Sprintf("co_%s_%d", name, i), "m1", no, t0))
				})
			}()
			waitQueued(t, db, i+1)
		}
		release()
		wg.Wait()
		return errs
	}
	together := db.GroupsTogether()
	errs := group("a", "A-0", "DUP", "A-2")
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("the group's good writes: %v, %v", errs[0], errs[2])
	}
	wantCode(t, errs[1], cashier.EDuplicate)
	for _, e := range group("b", "B-0", "B-1", "B-2") {
		if e != nil {
			t.Fatal(e)
		}
	}
	if got := db.GroupsTogether() - together; got != 0 {
		t.Fatalf("%d groups without savepoints right after a failure", got)
	}
	for i := 0; i < 20; i++ { // more groups than the pause
		createCollection(t, db, collection(fmt.Sprintf("co_single_%d", i), "m1", fmt.Sprintf("S-%d", i), t0))
	}
	for _, e := range group("c", "C-0", "C-1", "C-2") {
		if e != nil {
			t.Fatal(e)
		}
	}
	if got := db.GroupsTogether() - together; got != 1 {
		t.Fatalf("%d groups without savepoints after the pause, want 1", got)
	}
}

// The writer serves writes in arrival order.
func TestGroupCommitIsFirstComeFirstServed(t *testing.T) {
	db := openTest(t)
	release := holdWriter(t, db)
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	const n = 30
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Update(ctx, func(tx cashier.Tx) error {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
		waitQueued(t, db, i+1) // i is queued before i+1 is sent
	}
	release()
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("served in order %v", order)
		}
	}
	if len(order) != n {
		t.Fatalf("%d of %d writes served", len(order), n)
	}
}

// A full queue refuses marked writes at once with EOverloaded and changes
// nothing; unmarked writes wait for room; a write whose context ends while
// queued is not stored.
func TestGroupCommitAdmission(t *testing.T) {
	s, err := NewAESSealer(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, filepath.Join(t.TempDir(), "cashier.db"), Options{Sealer: s, WriteQueue: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seed(t, db)
	release := holdWriter(t, db)

	cctx, cancel := context.WithCancel(ctx)
	results := make(chan error, 3)
	go func() {
		results <- db.Update(cctx, func(tx cashier.Tx) error {
			return tx.CreateCollection(ctx, collection("co_cancelled", "m1", "C-1", t0))
		})
	}()
	go func() {
		results <- db.Update(ctx, func(tx cashier.Tx) error {
			return tx.CreateCollection(ctx, collection("co_queued", "m1", "Q-1", t0))
		})
	}()
	waitQueued(t, db, 2)

	start := time.Now()
	err = db.Update(cashier.RefuseWhenBusy(ctx), func(tx cashier.Tx) error {
		return tx.CreateCollection(ctx, collection("co_refused", "m1", "R-1", t0))
	})
	wantCode(t, err, cashier.EOverloaded)
	if d := time.Since(start); d > time.Second {
		t.Fatalf("refusal took %v", d)
	}
	go func() { // waits for room instead
		results <- db.Update(ctx, func(tx cashier.Tx) error {
			return tx.CreateCollection(ctx, collection("co_waited", "m1", "W-1", t0))
		})
	}()
	cancel()
	release()
	var nilCount, cancelled int
	for i := 0; i < 3; i++ {
		switch err := <-results; {
		case err == nil:
			nilCount++
		case errors.Is(err, context.Canceled):
			cancelled++
		default:
			t.Fatal(err)
		}
	}
	if nilCount != 2 || cancelled != 1 {
		t.Fatalf("%d stored, %d cancelled", nilCount, cancelled)
	}
	for id, want := range map[string]bool{"co_cancelled": false, "co_queued": true, "co_refused": false, "co_waited": true} {
		_, err := db.Collection(ctx, id)
		if (err == nil) != want {
			t.Fatalf("%s stored=%v, want %v (%v)", id, err == nil, want, err)
		}
	}
}

// After Close, writes fail with ErrClosed; writes queued before it finish.
func TestGroupCommitClose(t *testing.T) {
	db := openAt(t, filepath.Join(t.TempDir(), "cashier.db"), newKey(t))
	seed(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	err := db.Update(ctx, func(tx cashier.Tx) error { return nil })
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("update after close: %v", err)
	}
}

// Once the writer has begun an Update, its caller's context ending does
// not cut it short: every statement of it is stored, and the caller is
// told so (sqlstore.writeStmts).
func TestBegunUpdateOutlivesItsContext(t *testing.T) {
	db := openTest(t)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := db.Update(cctx, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(cctx, collection("co_before", "m1", "B-1", t0)); err != nil {
			return err
		}
		cancel() // the client goes away mid-write
		return tx.CreateCollection(cctx, collection("co_after", "m1", "B-2", t0))
	})
	if err != nil {
		t.Fatalf("Update = %v, want it stored whole", err)
	}
	for _, id := range []string{"co_before", "co_after"} {
		if _, err := db.Collection(ctx, id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
}
