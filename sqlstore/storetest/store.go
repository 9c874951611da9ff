package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stablecashier/cashier"
)

func testUpdateRollsBack(t *testing.T) {
	db := openTest(t)
	boom := errors.New("boom")
	err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o1", "m1", "A-1", t0)); err != nil {
			return err
		}
		// Inside, the transaction sees its write; the read pool does not.
		if _, err := tx.Collection(ctx, "o1"); err != nil {
			t.Errorf("in tx: %v", err)
		}
		if _, err := db.Collection(ctx, "o1"); cashier.ErrorCode(err) != cashier.ENotFound {
			t.Errorf("uncommitted write visible outside: %v", err)
		}
		return boom
	})
	if err != boom {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	_, err = db.Collection(ctx, "o1")
	wantCode(t, err, cashier.ENotFound)

	func() {
		defer func() {
			if r := recover(); r != "kaboom" {
				t.Fatalf("recovered %v, want the original panic", r)
			}
		}()
		db.Update(ctx, func(tx cashier.Tx) error {
			if err := tx.CreateCollection(ctx, Collection("o2", "m1", "A-2", t0)); err != nil {
				return err
			}
			panic("kaboom")
		})
	}()
	_, err = db.Collection(ctx, "o2")
	wantCode(t, err, cashier.ENotFound)

	// The write connection was released: the next Update works, and a
	// duplicate inside a transaction leaves the transaction usable.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o3", "m1", "A-3", t0)); err != nil {
			return err
		}
		err := tx.CreateCollection(ctx, Collection("o4", "m1", "A-3", t0))
		wantCode(t, err, cashier.EDuplicate)
		return tx.CreateCollection(ctx, Collection("o5", "m1", "A-5", t0))
	})
	if _, total, _ := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); total != 2 {
		t.Fatalf("%d orders, want 2", total)
	}
}

func testUpdateCancelledContext(t *testing.T) {
	db := openTest(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err := db.Update(cctx, func(tx cashier.Tx) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Update with cancelled context: %v", err)
	}
	mustUpdate(t, db, func(tx cashier.Tx) error { return nil })
}

// Concurrent writers queue on the write connection instead of failing.
func testConcurrentWriters(t *testing.T) {
	db := openTest(t)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := Collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0)
			errs <- db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
			if _, _, err := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1", PageSize: 5}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, total, _ := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); total != n {
		t.Fatalf("%d orders, want %d", total, n)
	}
}
