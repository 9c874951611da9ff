package orders_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

func TestExpiryBound(t *testing.T) {
	now := time.UnixMilli(1_700_000_600_000)
	at := func(s int) time.Time { return now.Add(time.Duration(s) * time.Second) }
	for _, c := range []struct {
		name  string
		cur   cashier.ChainCursor
		bound time.Time
		ok    bool
	}{
		{"no watcher yet: wait", cashier.ChainCursor{}, time.Time{}, false},
		{"block time unknown: wait", cashier.ChainCursor{Confirmed: 9, UpdatedAt: now}, time.Time{}, false},
		{"chain behind the clock", cashier.ChainCursor{Confirmed: 9, ConfirmedTime: at(-40), UpdatedAt: now}, at(-40), true},
		{"chain ahead of the clock", cashier.ChainCursor{Confirmed: 9, ConfirmedTime: at(5), UpdatedAt: now}, now, true},
	} {
		bound, ok := orders.ExpiryBound(c.cur, now)
		if ok != c.ok || !bound.Equal(c.bound) {
			t.Errorf("%s: bound %v %v, want %v %v", c.name, bound, ok, c.bound, c.ok)
		}
	}
}

// An order expires only once its network is scanned and confirmed past
// its expiry: a payment mined before the expiry and confirmed after it
// (the service was down, or the confirmations took longer) credits the
// order, SUCCESS and never LATE, without an EXPIRED webhook; an unpaid one
// expires as soon as the chain is known past its expiry; a network no
// watcher has followed yet waits for its first round; another network's
// watcher being behind holds nothing of this one.
func TestExpiryWaitsForTheChain(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	create := func(no, chain string) *cashier.CollectionOrder {
		t.Helper()
		o, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: no, Amount: "5", Symbol: "USDT", ChainID: chain})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	paid, unpaid, tron := create("E-PAID", "ETH"), create("E-UNPAID", "ETH"), create("T-1", "TRON")
	expiry := paid.ExpireAt
	usdt, _ := f.svc.Registry.LookupToken(cashier.ChainETH, "USDT")
	block := func(n uint64) string { return fmt.Sprintf("0x%064x", n) }
	// The watcher last confirmed block 100, a minute before the expiry.
	cursor := func(n uint64, at time.Time) cashier.ChainCursor {
		return cashier.ChainCursor{Confirmed: n, ConfirmedHash: block(n), ConfirmedTime: at, Head: n}
	}
	if err := f.svc.ApplyConfirmed(ctx, cashier.ChainETH, 100, 100, nil, cursor(100, expiry.Add(-time.Minute))); err != nil {
		t.Fatal(err)
	}
	expire := func() int {
		t.Helper()
		n, err := f.svc.ExpireDue(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	status := func(o *cashier.CollectionOrder) cashier.CollectionStatus {
		t.Helper()
		got, err := f.st.Collection(ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Status
	}

	// Past the expiry by the clock, the service restarts: the chain is not
	// yet scanned past it, so ETH orders wait; TRON's watcher has not run
	// yet (no cursor), so its order waits too.
	f.clock.Advance(31 * time.Minute)
	if n := expire(); n != 0 || status(tron) != cashier.CollectionPending || status(paid) != cashier.CollectionPending || status(unpaid) != cashier.CollectionPending {
		t.Fatalf("expired %d before the chains were scanned: paid %s unpaid %s tron %s", n, status(paid), status(unpaid), status(tron))
	}
	// The watcher catches up: the payment, mined 23 s before the expiry,
	// is confirmed with blocks up to one after the expiry.
	r := orders.Received{OrderID: paid.ID, Transfer: cashier.Transfer{Chain: cashier.ChainETH, Token: usdt.ContractAddress,
		From: walletAddr, To: paid.DepositAddress, Amount: units("5"), TxHash: block(7777), BlockNumber: 101, BlockHash: block(101),
		BlockTime: expiry.Add(-23 * time.Second)}}
	if err := f.svc.ApplyConfirmed(ctx, cashier.ChainETH, 101, 110, []orders.Received{r}, cursor(110, expiry.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	if n := expire(); n != 1 || status(paid) != cashier.CollectionSuccess || status(unpaid) != cashier.CollectionExpired || status(tron) != cashier.CollectionPending {
		t.Fatalf("after the chain passed the expiry: expired %d, paid %s, unpaid %s, tron %s", n, status(paid), status(unpaid), status(tron))
	}
	// TRON's watcher runs its first round, past the expiry: its order
	// expires.
	if err := f.svc.ApplyConfirmed(ctx, cashier.ChainTRON, 50, 50, nil, cursor(50, f.clock.Now().Add(-time.Second))); err != nil {
		t.Fatal(err)
	}
	if n := expire(); n != 1 || status(tron) != cashier.CollectionExpired {
		t.Fatalf("after TRON's first round: expired %d, tron %s", n, status(tron))
	}
	ps, err := f.st.PaymentsByOrder(ctx, paid.ID)
	if err != nil || len(ps) != 1 || ps[0].Effect != cashier.EffectCredited {
		t.Fatalf("payment of the paid order: %+v, %v", ps, err)
	}
	evs, err := f.st.Events(ctx, cashier.EventFilter{OrderID: paid.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Status == string(cashier.CollectionExpired) {
			t.Fatalf("the paid order had an EXPIRED webhook: %+v", evs)
		}
	}
	// A cursor whose block time is unknown (stored before block times
	// were) holds expiry until the watcher records one.
	late := create("E-LATE", "ETH")
	if err := f.st.Update(ctx, func(tx cashier.Tx) error {
		return tx.SetCursor(ctx, cashier.ChainCursor{Chain: cashier.ChainETH, Confirmed: 110, ConfirmedHash: block(110), Head: 110, UpdatedAt: f.clock.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(31 * time.Minute)
	if n := expire(); n != 0 || status(late) != cashier.CollectionPending {
		t.Fatalf("expired %d with the chain's time unknown: %s", n, status(late))
	}
	if err := f.svc.ApplyConfirmed(ctx, cashier.ChainETH, 111, 111, nil, cursor(111, f.clock.Now())); err != nil {
		t.Fatal(err)
	}
	if n := expire(); n != 1 || status(late) != cashier.CollectionExpired {
		t.Fatalf("expired %d once the chain's time is known: %s", n, status(late))
	}
}
