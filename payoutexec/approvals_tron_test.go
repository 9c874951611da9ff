package payoutexec_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// On the TRON stand-in, a wallet that lowers and then revokes its approval
// of the payout contract has the pending allowance-mode orders it no longer
// covers refused, newest first, each with its webhook; the approvals are
// recorded (never sent to the merchant) and shown as the allowance.
func TestRevokeOnTRONRefusesPendingOrders(t *testing.T) {
	e := startSandbox(t)
	ctx := context.Background()
	st, svc := e.sb.Service.Store, e.sb.Service.Orders
	if _, err := svc.SetReviewPolicy(ctx, e.m.ID, cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	n := e.sb.Info.Networks["TRON"]
	older := e.create(cashier.ChainTRON, 2, randomRecipient(cashier.ChainTRON), "10")
	newer := e.create(cashier.ChainTRON, 2, randomRecipient(cashier.ChainTRON), "20")

	wallet, err := tron.New(tron.Config{URLs: []string{n.RPCURL}, Key: e.sb.Info.Wallets["allowance"].MustKey()})
	if err != nil {
		t.Fatal(err)
	}
	contract, err := tron.ParseAddress(n.PayoutContract)
	if err != nil {
		t.Fatal(err)
	}
	approve := func(amount string) string {
		t.Helper()
		h, err := wallet.SendCall(ctx, cashier.Call{To: n.Tokens["USDT"], Data: usdcABI.PackApprove(contract.EVM(), units(amount))})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	waitStatus := func(id string, want cashier.PayoutStatus) *cashier.PayoutOrder {
		t.Helper()
		// A bound, not a measure: under the race detector beside the
		// binary's tests a failed watch round's backoff alone can pass 30 s.
		deadline := time.Now().Add(90 * time.Second)
		for {
			o, err := st.Payout(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if o.Status == want {
				return o
			}
			if time.Now().After(deadline) {
				// What the watcher had done, to tell a missed approval
				// from a refusal not made.
				cur, cerr := st.Cursor(ctx, cashier.ChainTRON)
				head, herr := wallet.Head(ctx)
				list, lerr := st.Allowances(ctx, cashier.ChainTRON, n.PayoutContract)
				t.Fatalf("order %s is %s, want %s; TRON cursor %+v (%v), head %+v (%v), allowances %+v (%v)",
					o.OrderNo, o.Status, want, cur, cerr, head, herr, list, lerr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	lowered := approve("15") // covers 10 + 1, not 20 + 1 as well
	o := waitStatus(newer.ID, cashier.PayoutRefuse)
	if !strings.Contains(o.FailReason, "now allows contract") || !strings.Contains(o.FailReason, lowered) {
		t.Fatalf("reason %q", o.FailReason)
	}
	e.waitHook(newer.OrderNo, "REFUSE", "now allows contract")
	if got, _ := st.Payout(ctx, older.ID); got.Status != cashier.PayoutPending {
		t.Fatalf("the covered order is %s", got.Status)
	}
	list, err := st.Allowances(ctx, cashier.ChainTRON, n.PayoutContract)
	if err != nil || len(list) != 1 || list[0].Owner != e.wallet(cashier.ChainTRON) || list[0].TxHash != lowered ||
		list[0].Approved.Cmp(units("15")) != 0 || list[0].Symbol != "USDT" {
		t.Fatalf("allowances %+v, %v", list, err)
	}
	if a, err := st.Approval(ctx, cashier.ChainTRON, lowered, 0); err != nil || a.Value.Cmp(units("15")) != 0 || a.Spender != n.PayoutContract {
		t.Fatalf("approval %+v, %v", a, err)
	}

	approve("0")
	waitStatus(older.ID, cashier.PayoutRefuse)
	e.waitHook(older.OrderNo, "REFUSE", "now allows contract")
	// Approvals are the service's business only: no webhook names them.
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, b := range e.hook {
		if strings.Contains(string(b), lowered) && !strings.Contains(string(b), "now allows contract") {
			t.Fatalf("an approval reached the merchant: %s", b)
		}
	}
	totals(t, e)
}
