package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore"
)

func testLeaseLifecycle(t *testing.T) {
	db := openTest(t)
	ttl := 10 * time.Second

	a, ok, err := db.AcquireLease(ctx, "watch/ETH", "A", t0, ttl)
	if err != nil || !ok || a.Token != 1 || !a.Expires.Equal(t0.Add(ttl)) {
		t.Fatalf("first acquire: %+v %v %v", a, ok, err)
	}
	// Another holder cannot take it before it expires, and learns who holds it.
	b, ok, err := db.AcquireLease(ctx, "watch/ETH", "B", t0.Add(9*time.Second), ttl)
	if err != nil || ok || b.Holder != "A" || b.Token != 1 {
		t.Fatalf("acquire of a held lease: %+v %v %v", b, ok, err)
	}
	// The holder re-acquiring extends it under the same token.
	a2, ok, err := db.AcquireLease(ctx, "watch/ETH", "A", t0.Add(time.Second), ttl)
	if err != nil || !ok || a2.Token != 1 || !a2.Expires.Equal(t0.Add(11*time.Second)) {
		t.Fatalf("re-acquire by the holder: %+v %v %v", a2, ok, err)
	}
	// Renewal moves the expiry.
	a3, err := db.RenewLease(ctx, a2, t0.Add(5*time.Second), ttl)
	if err != nil || !a3.Expires.Equal(t0.Add(15*time.Second)) {
		t.Fatalf("renew: %+v %v", a3, err)
	}
	if _, ok, _ := db.AcquireLease(ctx, "watch/ETH", "B", t0.Add(14*time.Second), ttl); ok {
		t.Fatal("B took a renewed lease before its expiry")
	}
	// Once expired, B takes it with the next token; A's renewal then fails.
	b2, ok, err := db.AcquireLease(ctx, "watch/ETH", "B", t0.Add(15*time.Second), ttl)
	if err != nil || !ok || b2.Holder != "B" || b2.Token != 2 {
		t.Fatalf("takeover: %+v %v %v", b2, ok, err)
	}
	if _, err := db.RenewLease(ctx, a3, t0.Add(16*time.Second), ttl); !errors.Is(err, cashier.ErrLeaseLost) {
		t.Fatalf("renew by the replaced holder: %v, want ErrLeaseLost", err)
	}
	if err := db.ReleaseLease(ctx, a3); !errors.Is(err, cashier.ErrLeaseLost) {
		t.Fatalf("release by the replaced holder: %v, want ErrLeaseLost", err)
	}
	// Release hands it over at once, with a new epoch.
	if err := db.ReleaseLease(ctx, b2); err != nil {
		t.Fatal(err)
	}
	a4, ok, err := db.AcquireLease(ctx, "watch/ETH", "A", t0.Add(16*time.Second), ttl)
	if err != nil || !ok || a4.Token != 3 {
		t.Fatalf("acquire after release: %+v %v %v", a4, ok, err)
	}

	list, err := db.ListLeases(ctx)
	if err != nil || len(list) != 1 || list[0].Holder != "A" || list[0].Token != 3 || !list[0].Expires.Equal(t0.Add(26*time.Second)) {
		t.Fatalf("list: %+v %v", list, err)
	}
}

func testLeaseBadInput(t *testing.T) {
	db := openTest(t)
	for _, c := range []struct {
		name, holder string
		ttl          time.Duration
	}{{"", "A", time.Second}, {"x", "", time.Second}, {"x", "A", 0}, {"x", "A", -time.Second}} {
		if _, ok, err := db.AcquireLease(ctx, c.name, c.holder, t0, c.ttl); err == nil || ok {
			t.Errorf("acquire %+v: ok=%v err=%v, want an error", c, ok, err)
		}
	}
	if _, err := db.PruneLeases(ctx, "%", t0); err == nil {
		t.Error("prune with a wildcard prefix was accepted")
	}
	if list, _ := db.ListLeases(ctx); len(list) != 0 {
		t.Fatalf("bad input left leases: %+v", list)
	}
}

func testPruneLeases(t *testing.T) {
	db := openTest(t)
	for _, n := range []string{"instance/old", "instance/new", "watch/ETH"} {
		if _, _, err := db.AcquireLease(ctx, n, "A", t0, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.RenewLease(ctx, cashier.Lease{Name: "instance/new", Holder: "A", Token: 1}, t0.Add(time.Hour), time.Second); err != nil {
		t.Fatal(err)
	}
	n, err := db.PruneLeases(ctx, "instance/", t0.Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want 1", n, err)
	}
	list, _ := db.ListLeases(ctx)
	if len(list) != 2 || list[0].Name != "instance/new" || list[1].Name != "watch/ETH" {
		t.Fatalf("left: %+v", list)
	}
}

// Several processes (here: separate DB handles on one file) racing for
// one expired lease: exactly one wins each round.
func testLeaseRaceAcrossHandles(t *testing.T) {
	path := newLocation(t)
	key := newKey(t)
	dbs := []*sqlstore.DB{openAt(t, path, key), openAt(t, path, key), openAt(t, path, key)}
	for round := 0; round < 20; round++ {
		now := t0.Add(time.Duration(round) * time.Minute) // every earlier lease has expired
		var wg sync.WaitGroup
		wins := make([]bool, len(dbs))
		tokens := make([]int64, len(dbs))
		for i, db := range dbs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, ok, err := db.AcquireLease(ctx, "expiry", string(rune('A'+i)), now, 30*time.Second)
				if err != nil {
					t.Error(err)
				}
				wins[i], tokens[i] = ok, l.Token
			}()
		}
		wg.Wait()
		n := 0
		for i, w := range wins {
			if w {
				n++
				if tokens[i] != int64(round+1) {
					t.Fatalf("round %d: winner's token %d", round, tokens[i])
				}
			}
		}
		if n != 1 {
			t.Fatalf("round %d: %d winners", round, n)
		}
	}
}
