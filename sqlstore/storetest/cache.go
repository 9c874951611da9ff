package storetest

import (
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore"
)

// A write through this DB to a cached table is visible to the next lookup
// the moment Update returns, whichever statement made it; lookups hand out
// copies.
func testCacheInvalidatedByOwnWrites(t *testing.T) {
	db := openTest(t)
	c, err := db.Cashier(ctx, "c1")
	if err != nil || c.Status != cashier.CashierActive {
		t.Fatalf("%v %v", c, err)
	}
	c.Name = "mutated by a caller"
	if again, _ := db.Cashier(ctx, "c1"); again.Name != "Shop 1" {
		t.Fatalf("cache handed out a shared value: %q", again.Name)
	}
	m, err := db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef1")
	if err != nil || m.ID != "m1" {
		t.Fatalf("%v %v", m, err)
	}
	ks, err := db.ContractsByMerchant(ctx, "m1")
	if err != nil || len(ks) != 1 {
		t.Fatalf("%v %v", ks, err)
	}

	// Any statement on the cached tables counts, not only Tx methods.
	err = db.WriteRaw(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`UPDATE cashiers SET status = 'inactive' WHERE id = 'c1'`); err != nil {
			return err
		}
		_, err := tx.Exec(`UPDATE merchants SET status = 'disabled' WHERE id = 'm1'`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := db.Cashier(ctx, "c1"); c.Status != cashier.CashierInactive {
		t.Fatalf("cashier status %s after the write", c.Status)
	}
	if m, _ := db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef1"); m.Status != "disabled" {
		t.Fatalf("merchant status %s after the write", m.Status)
	}
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{ID: "k3", MerchantID: "m1", Chain: cashier.ChainARB,
			Address: "0x00000000000000000000000000000000000000a3", Status: cashier.ContractActive, CreatedAt: t0})
	})
	if ks, _ := db.ContractsByMerchant(ctx, "m1"); len(ks) != 2 {
		t.Fatalf("%d contracts after adding one", len(ks))
	}
	if k, err := db.Contract(ctx, "k3"); err != nil || k.Chain != cashier.ChainARB {
		t.Fatalf("%v %v", k, err)
	}
	// A failed write to a cached table changes nothing and serves the
	// cached rows as before.
	_ = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "c1", MerchantID: "m1", Status: cashier.CashierActive, CreatedAt: t0})
	})
	if c, _ := db.Cashier(ctx, "c1"); c.Status != cashier.CashierInactive {
		t.Fatalf("cashier status %s after a failed write", c.Status)
	}
}

// A write by another process (here a second DB on the same file) is seen
// once the entry is older than the TTL, not before.
func testCacheTTLBoundsOtherProcessesWrites(t *testing.T) {
	path := newLocation(t)
	key := newKey(t)
	db := openAt(t, path, key)
	Seed(t, db)
	other := openAt(t, path, key)
	var mu sync.Mutex
	now := time.Now()
	db.SetCacheClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })

	if c, _ := db.Cashier(ctx, "c1"); c.Status != cashier.CashierActive {
		t.Fatal(c.Status)
	}
	if err := other.WriteRaw(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE cashiers SET status = 'inactive' WHERE id = 'c1'`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.Cashier(ctx, "c1"); c.Status != cashier.CashierActive {
		t.Fatalf("entry not cached: %s", c.Status)
	}
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	if c, _ := db.Cashier(ctx, "c1"); c.Status != cashier.CashierInactive {
		t.Fatalf("status %s after the TTL", c.Status)
	}
}

// With the cache off, every lookup reads the database.
func testCacheOff(t *testing.T) {
	s, err := sqlstore.NewAESSealer(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	db := openWith(t, newLocation(t), sqlstore.Options{Sealer: s, CacheTTL: -1})
	Seed(t, db)
	if _, err := db.Cashier(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := writePool(db).Exec(`UPDATE cashiers SET name = 'Renamed' WHERE id = 'c1'`); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.Cashier(ctx, "c1"); c.Name != "Renamed" {
		t.Fatalf("name %q with the cache off", c.Name)
	}
}
