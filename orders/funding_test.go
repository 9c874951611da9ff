package orders_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// ruledFunds adds the contract's whitelist and the node's head to fixedFunds.
type ruledFunds struct {
	*fixedFunds
	head        uint64
	whitelistOn bool
	whitelisted map[string]bool // lower-case recipients
}

func (r *ruledFunds) HeadNumber(context.Context, cashier.Chain) (uint64, error) { return r.head, nil }

func (r *ruledFunds) Whitelisted(_ context.Context, _ cashier.Chain, _ string, _ cashier.PayoutType, to string) (bool, error) {
	return !r.whitelistOn || r.whitelisted[strings.ToLower(to)], nil
}

func checkTotals(t *testing.T, f *fixture) {
	t.Helper()
	ctx := context.Background()
	want, err := orders.RecomputeLocks(ctx, f.st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.st.PoolTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range got {
		w := want[k]
		if w == nil {
			w = new(big.Int)
		}
		if v.Cmp(w) != 0 {
			t.Fatalf("pool %s: running total %s, recomputed %s", k, v, w)
		}
	}
	for k, w := range want {
		if got[k] == nil && w.Sign() != 0 {
			t.Fatalf("pool %s: no running total, recomputed %s", k, w)
		}
	}
}

// Random creations, batches, refusals, executions and payments in both
// modes and on two wallets: after every step the running totals equal a
// full recomputation from the orders.
func TestRunningTotalsMatchRecomputation(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	wallets := []string{walletAddr, "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa"}
	f.funds.balance[strings.ToLower(contractAddr)] = units("500")
	for _, w := range wallets {
		f.funds.balance[strings.ToLower(w)] = units("300")
		f.funds.allow[strings.ToLower(w)] = units("200")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var ids []string
	for step := 0; step < 300; step++ {
		switch op := rng.IntN(10); {
		case op < 4:
			req := orders.PayoutRequest{ContractID: "k_1", OrderNo: fmt.Sprintf("R-%d", step), Recipient: recipient,
				Amount: fmt.Sprintf("%d.%d", 1+rng.IntN(40), rng.IntN(10)), Symbol: "USDT"}
			if rng.IntN(2) == 0 {
				req.PayoutType, req.FromAddress = 2, wallets[rng.IntN(2)]
			}
			o, err := f.svc.CreatePayout(ctx, f.m, req)
			if err == nil {
				ids = append(ids, o.ID)
			} else if c := cashier.ErrorCode(err); c != cashier.EInsufficientContr && c != cashier.EInsufficientAllow && c != cashier.EInsufficientFunds {
				t.Fatal(err)
			}
		case op < 5:
			var items []orders.BatchItem
			for i := 0; i < 1+rng.IntN(5); i++ {
				items = append(items, orders.BatchItem{OrderNo: fmt.Sprintf("B-%d-%d", step, i), Recipient: recipient, Amount: fmt.Sprint(1 + rng.IntN(30)), Symbol: "USDT"})
			}
			res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: items})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Orders {
				if r.Order != nil {
					ids = append(ids, r.Order.ID)
				}
			}
		case len(ids) > 0:
			id := ids[rng.IntN(len(ids))]
			next := []cashier.PayoutStatus{cashier.PayoutProcessing, cashier.PayoutSuccess, cashier.PayoutRefuse}[rng.IntN(3)]
			_, err := f.svc.TransitionPayout(ctx, id, next, func(o *cashier.PayoutOrder) { o.BlockNumber = uint64(step) })
			if err != nil && cashier.ErrorCode(err) != cashier.EInvalidStatus {
				t.Fatal(err)
			}
		}
		checkTotals(t, f)
	}
	if len(ids) < 20 {
		t.Fatalf("only %d orders created: the test exercised too little", len(ids))
	}
}

// A paid order's amount stays locked for creations whose chain read was
// made below the block that paid it, and only for those.
func TestSettleCountsUntilReadReflectsPayment(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rf := &ruledFunds{fixedFunds: f.funds, head: 100}
	f.svc.Funds = rf
	c := strings.ToLower(contractAddr)
	f.funds.balance[c] = units("100")
	o, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "S-1", Recipient: recipient, Amount: "60", Symbol: "USDT"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.TransitionPayout(ctx, o.ID, cashier.PayoutProcessing, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.TransitionPayout(ctx, o.ID, cashier.PayoutSuccess, func(o *cashier.PayoutOrder) { o.BlockNumber = 105 }); err != nil {
		t.Fatal(err)
	}
	// A lagging node at block 104 still shows the 100 the payment spent: the
	// 61 paid must count, leaving 39.
	rf.head = 104
	req := orders.PayoutRequest{ContractID: "k_1", OrderNo: "S-2", Recipient: recipient, Amount: "50", Symbol: "USDT"}
	_, err = f.svc.CreatePayout(ctx, f.m, req)
	wantCode(t, err, cashier.EInsufficientContr)
	// At block 105 the balance read shows 39 and nothing else is locked.
	rf.head = 105
	f.funds.balance[c] = units("39")
	req.Amount = "38"
	if _, err := f.svc.CreatePayout(ctx, f.m, req); err != nil {
		t.Fatal(err)
	}
	checkTotals(t, f)
}

// Orders the contract would refuse are refused at creation and lock nothing.
func TestPayoutContractRules(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rf := &ruledFunds{fixedFunds: f.funds, whitelistOn: true, whitelisted: map[string]bool{}}
	f.svc.Funds = rf
	f.funds.balance[strings.ToLower(contractAddr)] = units("100")
	w := strings.ToLower(walletAddr)
	f.funds.balance[w], f.funds.allow[w] = units("100"), units("100")
	_, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "W-1", Recipient: recipient, Amount: "1", Symbol: "USDT"})
	wantCode(t, err, cashier.ENotWhitelisted)
	res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: []orders.BatchItem{{OrderNo: "W-2", Recipient: recipient, Amount: "1", Symbol: "USDT"}}})
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, res.Orders[0].Err, cashier.ENotWhitelisted)
	rf.whitelisted[strings.ToLower(recipient)] = true
	if _, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "W-3", Recipient: recipient, Amount: "1", Symbol: "USDT"}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "W-4", Recipient: strings.ToLower(walletAddr), Amount: "1",
		Symbol: "USDT", PayoutType: 2, FromAddress: walletAddr})
	wantCode(t, err, cashier.EInvalidAddress)
	for _, no := range []string{"W-1", "W-2", "W-4"} {
		if _, err := f.st.PayoutByOrderNo(ctx, "m_1", no); cashier.ErrorCode(err) != cashier.ENotFound {
			t.Fatalf("refused order %s stored: %v", no, err)
		}
	}
	checkTotals(t, f)
}

// slowFunds is a node that takes a long time to answer.
type slowFunds struct {
	*fixedFunds
	clock *cashier.ManualClock
}

func (s slowFunds) ContractBalance(ctx context.Context, c cashier.Chain, token, contract string) (*big.Int, error) {
	s.clock.Advance(31 * time.Minute)
	return s.fixedFunds.ContractBalance(ctx, c, token, contract)
}

// A chain read older than half the settle retention by the time its
// transaction runs is not trusted: a settle it needed may be pruned.
func TestStaleChainReadRefused(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("100")
	f.svc.Funds = slowFunds{f.funds, f.clock}
	_, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "O-1", Recipient: recipient, Amount: "1", Symbol: "USDT"})
	wantCode(t, err, cashier.EInternal)
}
