package storetest

import (
	"errors"
	"sync"
	"testing"

	"github.com/stablecashier/cashier"
)

// A user's last accepted TOTP step only moves forward: the same step or an
// earlier one is refused with ErrTOTPReused and changes nothing, UpdateUser
// never rolls it back, and of many transactions racing with one step (on
// separate handles, as separate instances would) exactly one commits.
func testTOTPStep(t *testing.T) {
	loc, key := newLocation(t), newKey(t)
	db := openAt(t, loc, key)
	u := &cashier.User{ID: "u_totp", Email: "totp@example.com", Role: cashier.RoleOperator, PasswordHash: "x",
		TOTPSecret: []byte("0123456789abcdefghij"), CreatedAt: t0}
	accept := func(db cashier.AccountStore, id string, step int64) error {
		return db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.AcceptTOTPStep(ctx, id, step) })
	}
	if err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.CreateUser(ctx, u) }); err != nil {
		t.Fatal(err)
	}
	step := func() int64 {
		t.Helper()
		got, err := db.User(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.TOTPStep
	}
	if s := step(); s != 0 {
		t.Fatalf("new user's step %d, want 0", s)
	}
	if err := accept(db, u.ID, 100); err != nil {
		t.Fatal(err)
	}
	for _, s := range []int64{100, 99} {
		if err := accept(db, u.ID, s); !errors.Is(err, cashier.ErrTOTPReused) {
			t.Fatalf("step %d after 100: %v, want ErrTOTPReused", s, err)
		}
	}
	if s := step(); s != 100 {
		t.Fatalf("step %d after refusals, want 100", s)
	}
	for _, bad := range []int64{0, -1} {
		if err := accept(db, u.ID, bad); cashier.ErrorCode(err) != cashier.EInvalid {
			t.Fatalf("step %d: %v, want invalid", bad, err)
		}
	}
	if err := accept(db, "u_nobody", 5); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("unknown user: %v, want not found", err)
	}
	// UpdateUser (a role or second-factor change) keeps the step.
	stale, err := db.User(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	stale.TOTPStep, stale.Disabled = 0, true
	if err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.UpdateUser(ctx, stale) }); err != nil {
		t.Fatal(err)
	}
	if s := step(); s != 100 {
		t.Fatalf("UpdateUser moved the step to %d", s)
	}

	// Racing transactions with one step, half on a second handle.
	other := openAt(t, loc, key)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		ok, used int
	)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h cashier.AccountStore = db
			if i%2 == 1 {
				h = other
			}
			err := accept(h, u.ID, 101)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, cashier.ErrTOTPReused):
				used++
			default:
				t.Errorf("racing accept: %v", err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || used != 7 {
		t.Fatalf("8 racing accepts of one step: %d committed, %d refused; want 1 and 7", ok, used)
	}
	if s := step(); s != 101 {
		t.Fatalf("step %d after the race, want 101", s)
	}
}
