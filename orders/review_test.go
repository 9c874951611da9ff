package orders_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

func TestReviewPolicyAndOperations(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("100")
	w := strings.ToLower(walletAddr)
	f.funds.balance[w], f.funds.allow[w] = units("1000"), units("1000")
	bal := func(no, amount string) *cashier.PayoutOrder {
		t.Helper()
		o, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: no, Recipient: recipient, Amount: amount, Symbol: "USDT"})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	allow := func(no, amount string) *cashier.PayoutOrder {
		t.Helper()
		o, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: no, Recipient: recipient, Amount: amount,
			Symbol: "USDT", PayoutType: 2, FromAddress: walletAddr})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	// Default: balance mode reviewed, allowance mode not.
	if o := bal("D-1", "10"); !o.NeedsReview {
		t.Fatal("balance-mode order not held for review by default")
	}
	if o := allow("D-2", "10"); o.NeedsReview {
		t.Fatal("allowance-mode order held for review by default")
	}
	for _, c := range []struct {
		mode          cashier.ReviewMode
		above         string
		small, large  bool // review of a 5 and a 50 token allowance order
		balanceReview bool
	}{
		{cashier.ReviewAlways, "", true, true, true},
		{cashier.ReviewNever, "", false, false, false},
		{cashier.ReviewAbove, "20", false, true, false},
	} {
		if _, err := f.svc.SetReviewPolicy(ctx, "m_1", c.mode, c.above); err != nil {
			t.Fatal(err)
		}
		if o := allow(string(c.mode)+"-s", "5"); o.NeedsReview != c.small {
			t.Fatalf("%s: 5 token order review %v", c.mode, o.NeedsReview)
		}
		if o := allow(string(c.mode)+"-l", "50"); o.NeedsReview != c.large {
			t.Fatalf("%s: 50 token order review %v", c.mode, o.NeedsReview)
		}
		if o := bal(string(c.mode)+"-b", "1"); o.NeedsReview != c.balanceReview {
			t.Fatalf("%s: 1 token balance order review %v", c.mode, o.NeedsReview)
		}
	}
	for _, bad := range []struct {
		mode  cashier.ReviewMode
		above string
	}{{"sometimes", ""}, {cashier.ReviewAbove, ""}, {cashier.ReviewAlways, "5"}, {cashier.ReviewAbove, "-1"}} {
		if _, err := f.svc.SetReviewPolicy(ctx, "m_1", bad.mode, bad.above); err == nil {
			t.Fatalf("policy %q %q accepted", bad.mode, bad.above)
		}
	}
	if p, _ := f.st.ReviewPolicy(ctx, "m_1"); p.Mode != cashier.ReviewAbove || p.Above != "20" {
		t.Fatalf("refused policies changed the stored one: %+v", p)
	}

	// Approve: only a PENDING order held for review, once.
	held := f.mustPayout(t, "D-1")
	if _, err := f.svc.ApprovePayout(ctx, held.ID); err != nil {
		t.Fatal(err)
	}
	if o := f.mustPayout(t, "D-1"); o.NeedsReview || o.Status != cashier.PayoutPending {
		t.Fatalf("approved order: %+v", o)
	}
	_, err := f.svc.ApprovePayout(ctx, held.ID)
	wantCode(t, err, cashier.EInvalidStatus)
	_, err = f.svc.ApprovePayout(ctx, "po_nobody")
	wantCode(t, err, cashier.ENotFound)

	// Refuse: reason required, funds unlocked at once, event written.
	before, _ := f.st.PoolLocked(ctx, "contract/ETH/"+contractAddr+"/USDT", 0)
	_, err = f.svc.RefusePayout(ctx, held.ID, "  ")
	wantCode(t, err, cashier.EMissing)
	_, err = f.svc.RefusePayout(ctx, held.ID, strings.Repeat("x", orders.MaxReasonLen+1))
	wantCode(t, err, cashier.ETooLarge)
	o, err := f.svc.RefusePayout(ctx, held.ID, "recipient failed KYC")
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != cashier.PayoutRefuse || o.FailReason != "recipient failed KYC" {
		t.Fatalf("refused order: %+v", o)
	}
	after, _ := f.st.PoolLocked(ctx, "contract/ETH/"+contractAddr+"/USDT", 0)
	if diff := before.Sub(before, after); diff.Cmp(units("11")) != 0 {
		t.Fatalf("refusing a 10 + 1 fee order unlocked %s base units", diff)
	}
	evs, err := f.st.Events(ctx, cashier.EventFilter{OrderID: held.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || evs[0].Status != string(cashier.PayoutRefuse) {
		t.Fatalf("no REFUSE event for the refused order: %+v", evs)
	}
	_, err = f.svc.RefusePayout(ctx, held.ID, "again")
	wantCode(t, err, cashier.EInvalidStatus)

	// List validates its filter.
	if _, _, err := f.svc.ListPayouts(ctx, cashier.PayoutFilter{Status: "DONE"}); err == nil {
		t.Fatal("unknown status accepted")
	}
	if _, _, err := f.svc.ListPayouts(ctx, cashier.PayoutFilter{Chain: "SOL"}); err == nil {
		t.Fatal("unknown chain accepted")
	}
	list, n, err := f.svc.ListPayouts(ctx, cashier.PayoutFilter{Status: cashier.PayoutRefuse, Chain: "eth", MerchantID: "m_1"})
	if err != nil || n != 1 || list[0].ID != held.ID {
		t.Fatalf("list of refused: %d %v", n, err)
	}
	checkTotals(t, f)
}

func (f *fixture) mustPayout(t *testing.T, no string) *cashier.PayoutOrder {
	t.Helper()
	o, err := f.st.PayoutByOrderNo(context.Background(), "m_1", no)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
