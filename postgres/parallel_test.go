package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sqlstore"
)

// Writes marked ConcurrentWrite on two instances run in parallel with
// each other, and never beside an unmarked (exclusive) write: shown by
// blocking, not by timing. A's marked transaction is held open; B's marked
// write commits meanwhile; B's exclusive write waits for A's lock to go.
// Then the other way round: A's exclusive transaction held open makes B's
// marked write wait.
func TestConcurrentWritesRunInParallelAcrossInstances(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	a, b := open(t, url, s), open(t, url, s)
	ctx := context.Background()
	par := cashier.ConcurrentWrite(ctx)
	insert := func(pool string) func(*sql.Tx) error {
		return func(tx *sql.Tx) error {
			_, err := tx.Exec(`INSERT INTO funding_pools (pool, locked) VALUES (?, '1')`, pool)
			return err
		}
	}
	hold := func(ctx context.Context) (release func(), done <-chan error) {
		started, stop, out := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			out <- a.WriteRaw(ctx, func(*sql.Tx) error { close(started); <-stop; return nil })
		}()
		<-started
		return func() { close(stop) }, out
	}

	release, heldA := hold(par)
	if err := within(t, func() error { return b.WriteRaw(par, insert("p1")) }); err != nil {
		t.Fatalf("B's concurrent write beside A's: %v", err)
	}
	exclusive := goWrite(func() error { return b.WriteRaw(ctx, insert("p2")) })
	waitForLockWait(t, b, "ExclusiveLock")
	select {
	case err := <-exclusive:
		t.Fatalf("B's exclusive write ran beside A's concurrent one: %v", err)
	default:
	}
	release()
	if err := <-heldA; err != nil {
		t.Fatal(err)
	}
	if err := <-exclusive; err != nil {
		t.Fatal(err)
	}

	release, heldA = hold(ctx) // A exclusive
	concurrent := goWrite(func() error { return b.WriteRaw(par, insert("p3")) })
	waitForLockWait(t, b, "ShareLock")
	select {
	case err := <-concurrent:
		t.Fatalf("B's concurrent write ran beside A's exclusive one: %v", err)
	default:
	}
	release()
	if err := <-heldA; err != nil {
		t.Fatal(err)
	}
	if err := <-concurrent; err != nil {
		t.Fatal(err)
	}
	var n int
	_, read := a.Pools()
	if err := read.QueryRow(`SELECT count(*) FROM funding_pools`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d pools stored (%v), want 3", n, err)
	}
}

// Two instances deadlocking on rows (each group holds one row the other
// wants): PostgreSQL fails one statement, and its instance runs that write
// again. Both writes are stored once; neither caller sees the deadlock.
func TestDeadlockBetweenInstancesIsRunAgain(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	a, b := open(t, url, s), open(t, url, s)
	par := cashier.ConcurrentWrite(context.Background())
	if err := a.WriteRaw(par, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO funding_pools (pool, locked) VALUES ('x', '0'), ('y', '0')`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	aHas, bHas := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	runs := 0
	crossed := func(first, second string, mine, theirs chan struct{}) func(*sql.Tx) error {
		run := 0
		return func(tx *sql.Tx) error {
			mu.Lock()
			runs++
			mu.Unlock()
			run++
			if _, err := tx.Exec(`UPDATE funding_pools SET locked = (locked::bigint + 1)::text WHERE pool = ?`, first); err != nil {
				return err
			}
			if run == 1 {
				close(mine)
				<-theirs
			}
			_, err := tx.Exec(`UPDATE funding_pools SET locked = (locked::bigint + 1)::text WHERE pool = ?`, second)
			return err
		}
	}
	errA := goWrite(func() error { return a.WriteRaw(par, crossed("x", "y", aHas, bHas)) })
	errB := goWrite(func() error { return b.WriteRaw(par, crossed("y", "x", bHas, aHas)) })
	if err := <-errA; err != nil {
		t.Fatalf("A: %v", err)
	}
	if err := <-errB; err != nil {
		t.Fatalf("B: %v", err)
	}
	// At least one write ran again. A write run again can meet the other
	// one's row again and deadlock a second time (when it locks its first
	// row before the other, woken by the abort, takes it): then the other
	// runs again too. Either way each write is stored once (below).
	if runs < 3 {
		t.Fatalf("%d runs, want at least 3 (a write run again after the deadlock)", runs)
	}
	_, read := a.Pools()
	for _, p := range []string{"x", "y"} {
		var v string
		if err := read.QueryRow(`SELECT locked FROM funding_pools WHERE pool = ?`, p).Scan(&v); err != nil || v != "2" {
			t.Fatalf("pool %s: %q %v, want 2 (each write once)", p, v, err)
		}
	}
}

// The same order numbers created at once on two instances give exactly one
// order each, and different numbers all succeed with distinct numeric
// ids (a sequence: MAX(num) + 1 would give two parallel creations the same
// number and fail one of them as a duplicate).
func TestOrderNumbersOnceAcrossInstances(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	stores := []*sqlstore.DB{open(t, url, s), open(t, url, s)}
	ctx := context.Background()
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	seed(t, stores[0], t0)
	const numbers, tries = 12, 4
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		won  = map[string]int{}
		errs []error
	)
	for i := range numbers * tries {
		wg.Go(func() {
			no := fmt.Sprintf("n%d", i%numbers)
			o := &cashier.CollectionOrder{ID: fmt.Sprintf("co_%d", i), MerchantID: "m1", CashierID: "c1", OrderNo: no,
				Chain: cashier.ChainTRON, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(1_000_000), PaidAmount: new(big.Int),
				DepositAddress: fmt.Sprintf("T%d", i), Status: cashier.CollectionPending,
				ExpireAt: t0.Add(time.Hour), CreatedAt: t0, UpdatedAt: t0}
			err := stores[i%2].Update(cashier.ConcurrentWrite(ctx), func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won[no]++
			case cashier.ErrorCode(err) != cashier.EDuplicate:
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(won) != numbers {
		t.Fatalf("%d order numbers created, want %d: %v", len(won), numbers, won)
	}
	for no, n := range won {
		if n != 1 {
			t.Errorf("order number %s created %d times", no, n)
		}
	}

	// Deterministically: while A's creation of x1 is not committed, B
	// creates x2 (it waits for nothing) and x1 (it waits for A, then is a
	// duplicate).
	order := func(id, no string) *cashier.CollectionOrder {
		return &cashier.CollectionOrder{ID: id, MerchantID: "m1", CashierID: "c1", OrderNo: no,
			Chain: cashier.ChainTRON, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(1_000_000), PaidAmount: new(big.Int),
			DepositAddress: "T" + id, Status: cashier.CollectionPending, ExpireAt: t0.Add(time.Hour), CreatedAt: t0, UpdatedAt: t0}
	}
	created, stop := make(chan struct{}), make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(stop) }) }
	t.Cleanup(release) // before the stores close, should the test fail
	heldA := goWrite(func() error {
		return stores[0].Update(cashier.ConcurrentWrite(ctx), func(tx cashier.Tx) error {
			if err := tx.CreateCollection(ctx, order("co_a", "x1")); err != nil {
				return err
			}
			close(created)
			<-stop
			return nil
		})
	})
	<-created
	if err := within(t, func() error {
		return stores[1].Update(cashier.ConcurrentWrite(ctx), func(tx cashier.Tx) error { return tx.CreateCollection(ctx, order("co_b", "x2")) })
	}); err != nil {
		t.Fatalf("B's order beside A's uncommitted one: %v", err)
	}
	dup := goWrite(func() error {
		return stores[1].Update(cashier.ConcurrentWrite(ctx), func(tx cashier.Tx) error { return tx.CreateCollection(ctx, order("co_c", "x1")) })
	})
	release()
	if err := <-heldA; err != nil {
		t.Fatal(err)
	}
	if err := <-dup; cashier.ErrorCode(err) != cashier.EDuplicate {
		t.Fatalf("x1 created again on B: %v", err)
	}

	_, read := stores[1].Pools()
	var rows, nums int
	if err := read.QueryRow(`SELECT count(*), count(DISTINCT num) FROM collection_orders`).Scan(&rows, &nums); err != nil {
		t.Fatal(err)
	}
	if rows != numbers+2 || nums != rows {
		t.Fatalf("%d orders with %d distinct numbers, want %d", rows, nums, numbers+2)
	}
}

// Two instances taking fair claims of the same due events at once lease
// every event to exactly one owner. (The oldest-first claim is raced on
// three instances by storetest's ConcurrentClaims, which runs on
// PostgreSQL too.)
func TestEventsClaimedOnceAcrossInstances(t *testing.T) {
	claimRace(t, true)
}

// claimRace races two claimers on each of two instances, by the fair
// claim or the oldest-first one.
func claimRace(t *testing.T, fair bool) {
	url, s := pgtest.URL(t), sealer(t)
	stores := []*sqlstore.DB{open(t, url, s), open(t, url, s)}
	ctx := context.Background()
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	const events = 240
	if err := stores[0].Update(ctx, func(tx cashier.Tx) error {
		for i := range events {
			if err := tx.AddEvent(ctx, &cashier.Event{ID: fmt.Sprintf("e%d", i), MerchantID: fmt.Sprintf("m%d", i%3),
				Type: cashier.EventPayment, Status: "PENDING", URL: fmt.Sprintf("https://h%d.example/hook", i%4),
				Body: []byte(`{}`), CreatedAt: t0}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		owners = map[string][]string{}
		errs   []error
	)
	for w := range 4 {
		wg.Go(func() {
			db, owner := stores[w%2], fmt.Sprintf("owner%d", w)
			for {
				var (
					es  []cashier.Event
					err error
				)
				if fair {
					es, err = db.ClaimEventsFair(ctx, owner, t0, time.Hour, cashier.FairClaim{N: 7, PerMerchant: 3, PerHost: 2})
				} else {
					es, err = db.ClaimEvents(ctx, owner, t0, time.Hour, 7)
				}
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				for _, e := range es {
					owners[e.ID] = append(owners[e.ID], owner)
				}
				mu.Unlock()
				if err != nil || len(es) == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(owners) != events {
		t.Errorf("%d events claimed, want %d", len(owners), events)
	}
	for id, o := range owners {
		if len(o) != 1 {
			t.Errorf("event %s claimed by %v", id, o)
		}
	}
}

// An instance recording the delivery of events whose leases ran out while
// another instance claims them: each event is either recorded by the first
// (and not claimed) or claimed by the second (and the record refused),
// never both, which would deliver it twice.
func TestAttemptRecordedOrClaimedAcrossInstances(t *testing.T) {
	url, s := pgtest.URL(t), sealer(t)
	a, b := open(t, url, s), open(t, url, s)
	ctx := context.Background()
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	const events = 200
	if err := a.Update(ctx, func(tx cashier.Tx) error {
		for i := range events {
			if err := tx.AddEvent(ctx, &cashier.Event{ID: fmt.Sprintf("e%03d", i), MerchantID: "m1", Type: cashier.EventPayment,
				Status: "PENDING", URL: "https://h.example/hook", Body: []byte(`{}`), CreatedAt: t0}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if es, err := a.ClaimEvents(ctx, "A", t0, time.Second, events); err != nil || len(es) != events {
		t.Fatalf("A claimed %d: %v", len(es), err)
	}
	later := t0.Add(time.Minute) // A's leases have run out, unnoticed
	recorded := make([]bool, events)
	claimed := map[string]bool{}
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < events; i += 2 {
				err := a.RecordAttempt(ctx, "A", cashier.DeliveryAttempt{EventID: fmt.Sprintf("e%03d", i), Attempt: 1, At: later, HTTPStatus: 200},
					cashier.EventDelivered)
				switch {
				case err == nil:
					recorded[i] = true
				case cashier.ErrorCode(err) != cashier.EInvalidStatus:
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for {
			es, err := b.ClaimEvents(ctx, "B", later, time.Hour, 5)
			if err != nil {
				t.Error(err)
				return
			}
			if len(es) == 0 {
				return
			}
			for _, e := range es {
				claimed[e.ID] = true
			}
		}
	})
	wg.Wait()
	for i := range events {
		id := fmt.Sprintf("e%03d", i)
		if recorded[i] == claimed[id] {
			t.Errorf("event %s: recorded by A %v, claimed by B %v", id, recorded[i], claimed[id])
		}
	}
}

// seed stores merchant m1 with cashier c1.
func seed(t *testing.T, db *sqlstore.DB, at time.Time) {
	t.Helper()
	ctx := context.Background()
	err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", Name: "M", APIKey: "ak_live_0123456789abcdef1",
			SecretKey: "sk", WebhookKey: "wk", Status: cashier.MerchantActive, CreatedAt: at}); err != nil {
			return err
		}
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "c1", MerchantID: "m1", Name: "Shop", Status: cashier.CashierActive, CreatedAt: at})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func goWrite(f func() error) <-chan error {
	out := make(chan error, 1)
	go func() { out <- f() }()
	return out
}

// within runs f, failing the test if it has not returned after 30 s: a
// write that should not wait for another is then stuck behind it.
func within(t *testing.T, f func() error) error {
	t.Helper()
	select {
	case err := <-goWrite(f):
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the write is blocked")
		return nil
	}
}

// waitForLockWait waits until a transaction of db's database waits for
// the write lock in mode (ExclusiveLock, ShareLock).
func waitForLockWait(t *testing.T, db *sqlstore.DB, mode string) {
	t.Helper()
	_, read := db.Pools()
	for range 6000 {
		var n int
		err := read.QueryRow(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND mode = ?
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, mode).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no write waits for the write lock in %s", mode)
}
