package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// A one-time view stored through one handle is taken through another (as
// another instance would), once, by its own session only, and not after
// it expires; storing a view drops the expired ones.
func testOneTimeViews(t *testing.T) {
	loc, key := newLocation(t), newKey(t)
	a, b := openAt(t, loc, key), openAt(t, loc, key)
	put := func(db cashier.AccountStore, tok, session, body string, until, now time.Time) {
		t.Helper()
		err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			return tx.PutOneTimeView(ctx, &cashier.OneTimeView{TokenHash: []byte(tok), Session: []byte(session), Body: []byte(body), Until: until}, now)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	take := func(db cashier.AccountStore, tok, session string, now time.Time) []byte {
		t.Helper()
		var got []byte
		err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			var err error
			got, err = tx.TakeOneTimeView(ctx, []byte(tok), []byte(session), now)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	put(a, "tok-1", "session-1", `{"apiKey":"ak_new"}`, t0.Add(10*time.Minute), t0)
	if got := take(b, "tok-1", "session-2", t0.Add(time.Minute)); got != nil {
		t.Fatalf("another session took %q", got)
	}
	if got := take(b, "tok-1", "session-1", t0.Add(time.Minute)); !bytes.Equal(got, []byte(`{"apiKey":"ak_new"}`)) {
		t.Fatalf("took %q", got)
	}
	if got := take(a, "tok-1", "session-1", t0.Add(time.Minute)); got != nil {
		t.Fatalf("taken twice: %q", got)
	}
	put(a, "tok-2", "session-1", "late", t0.Add(10*time.Minute), t0)
	if got := take(b, "tok-2", "session-1", t0.Add(10*time.Minute)); got != nil {
		t.Fatalf("expired view taken: %q", got)
	}
	put(a, "tok-3", "session-1", "old", t0.Add(time.Minute), t0)
	put(a, "tok-4", "session-1", "new", t0.Add(30*time.Minute), t0.Add(20*time.Minute)) // drops tok-3
	var n int
	if err := a.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		for _, tok := range []string{"tok-3", "tok-4"} {
			got, err := tx.TakeOneTimeView(ctx, []byte(tok), []byte("session-1"), t0) // at t0 neither is expired
			if err != nil {
				return err
			}
			if got != nil {
				n++
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d of the old and the new view left, want the new one only", n)
	}
}
