package payoutexec_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// env is a running sandbox with its service (and so the executor) serving.
type env struct {
	t    *testing.T
	sb   *sandbox.Sandbox
	m    *cashier.Merchant
	mu   sync.Mutex
	hook [][]byte // webhook bodies received
}

func startSandbox(t *testing.T) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.PayoutWindow = 300 * time.Millisecond
	e := &env{t: t}
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.hook = append(e.hook, b)
		e.mu.Unlock()
		io.WriteString(w, "SUCCESS")
	}))
	t.Cleanup(recv.Close)
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, TRONBlockInterval: 300 * time.Millisecond, WebhookURL: recv.URL})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sb.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		sb.Close()
	})
	m, err := sb.Service.Store.Merchant(ctx, sb.Info.MerchantID)
	if err != nil {
		t.Fatal(err)
	}
	e.sb, e.m = sb, m
	return e
}

func randomRecipient(c cashier.Chain) string {
	var b [20]byte
	rand.Read(b[:])
	a := common.BytesToAddress(b[:])
	if c == cashier.ChainTRON {
		return tron.AddressFromEVM(a).String()
	}
	return a.Hex()
}

func (e *env) balance(c cashier.Chain, owner string) *big.Int {
	e.t.Helper()
	token := e.sb.Info.Networks[string(c)].Tokens["USDT"]
	b, err := e.sb.Service.Chains[c].TokenBalance(context.Background(), token, owner)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

func (e *env) create(c cashier.Chain, mode int, recipient, amount string) *cashier.PayoutOrder {
	e.t.Helper()
	req := orders.PayoutRequest{ContractID: e.sb.Info.ContractIDs[string(c)], OrderNo: orders.NewID("T-"), Recipient: recipient,
		Amount: amount, Symbol: "USDT", PayoutType: mode}
	if mode == 2 {
		req.FromAddress = e.wallet(c)
	}
	o, err := e.sb.Service.Orders.CreatePayout(context.Background(), e.m, req)
	if err != nil {
		e.t.Fatal(err)
	}
	return o
}

func (e *env) wallet(c cashier.Chain) string {
	w := e.sb.Info.Wallets["allowance"]
	if c == cashier.ChainTRON {
		return w.TRONAddress
	}
	return w.EVMAddress
}

// wait polls the order until it is final.
func (e *env) wait(id string) *cashier.PayoutOrder {
	e.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		o, err := e.sb.Service.Store.Payout(context.Background(), id)
		if err != nil {
			e.t.Fatal(err)
		}
		if o.Status.Final() {
			return o
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("order %s still %s (review %v, exec %q)", o.OrderNo, o.Status, o.NeedsReview, o.ExecID)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitHook waits for a webhook about orderNo carrying status and want.
func (e *env) waitHook(orderNo, status, want string) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		for _, b := range e.hook {
			if bytes.Contains(b, []byte(orderNo)) && bytes.Contains(b, []byte(`"`+status+`"`)) && bytes.Contains(b, []byte(want)) {
				e.mu.Unlock()
				return
			}
		}
		e.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("no %s webhook for %s carrying %q", status, orderNo, want)
}

func units(s string) *big.Int { v, _ := cashier.ParseAmount(s, 6); return v }

// cunits is s in base units of c's sandbox USDT (18 decimals on BSC).
func cunits(c cashier.Chain, s string) *big.Int {
	v, _ := cashier.ParseAmount(s, sandbox.TokenDecimals(c))
	return v
}

// Acceptance on the sandbox's chains, through the running service: review,
// approval, execution, allowance mode, refusal and a batch of 30, on
// Ethereum, on TRON and on the BSC chain, whose USDT has 18 decimals.
func TestPayoutsOnSandbox(t *testing.T) {
	e := startSandbox(t)
	ctx := context.Background()
	svc := e.sb.Service.Orders
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON, cashier.ChainBSC} {
		t.Run(string(c), func(t *testing.T) {
			e.t = t
			// Balance mode waits for review: nothing is sent before approval.
			to := randomRecipient(c)
			o := e.create(c, 1, to, "12.34")
			time.Sleep(1500 * time.Millisecond)
			if got, _ := e.sb.Service.Store.Payout(ctx, o.ID); got.Status != cashier.PayoutPending || !got.NeedsReview || e.balance(c, to).Sign() != 0 {
				t.Fatalf("before approval: %s review %v, recipient has %s", got.Status, got.NeedsReview, e.balance(c, to))
			}
			if _, err := svc.ApprovePayout(ctx, o.ID); err != nil {
				t.Fatal(err)
			}
			done := e.wait(o.ID)
			if done.Status != cashier.PayoutSuccess || done.TxID == "" || done.GasAmount == "" || done.BlockNumber == 0 {
				t.Fatalf("approved payout: %+v", done)
			}
			if got := e.balance(c, to); got.Cmp(cunits(c, "12.34")) != 0 {
				t.Fatalf("recipient received %s, want %s", got, cunits(c, "12.34"))
			}

			// Allowance mode runs without review; the wallet pays amount + fee.
			before := e.balance(c, e.wallet(c))
			to = randomRecipient(c)
			a := e.wait(e.create(c, 2, to, "7").ID)
			if a.Status != cashier.PayoutSuccess || e.balance(c, to).Cmp(cunits(c, "7")) != 0 {
				t.Fatalf("allowance payout: %s, recipient %s", a.Status, e.balance(c, to))
			}
			if spent := new(big.Int).Sub(before, e.balance(c, e.wallet(c))); spent.Cmp(new(big.Int).Add(cunits(c, "7"), a.Fee)) != 0 {
				t.Fatalf("wallet paid %s, want amount + fee %s", spent, new(big.Int).Add(cunits(c, "7"), a.Fee))
			}

			// Refused: pays nothing, and its webhook is written.
			to = randomRecipient(c)
			r := e.create(c, 1, to, "3")
			if _, err := svc.RefusePayout(ctx, r.ID, "not this one"); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			if got, _ := e.sb.Service.Store.Payout(ctx, r.ID); got.Status != cashier.PayoutRefuse || e.balance(c, to).Sign() != 0 {
				t.Fatalf("refused payout %s, recipient %s", got.Status, e.balance(c, to))
			}
			e.waitHook(r.OrderNo, "REFUSE", "not this one")
			e.waitHook(done.OrderNo, "SUCCESS", done.TxID)
			e.waitHook(done.OrderNo, "PROCESSING", "")

			// A batch of 30 executes in a few transactions.
			var items []orders.BatchItem
			var tos []string
			for i := 0; i < 30; i++ {
				tos = append(tos, randomRecipient(c))
				items = append(items, orders.BatchItem{OrderNo: orders.NewID("B-"), Recipient: tos[i], Amount: fmt.Sprintf("%d.5", i+1), Symbol: "USDT"})
			}
			res, err := svc.BatchPayout(ctx, e.m, orders.BatchRequest{ContractID: e.sb.Info.ContractIDs[string(c)], Orders: items})
			if err != nil || res.SuccessCount != 30 {
				t.Fatalf("batch: %v %+v", err, res)
			}
			for _, r := range res.Orders {
				if _, err := svc.ApprovePayout(ctx, r.Order.ID); err != nil {
					t.Fatal(err)
				}
			}
			txs := map[string]bool{}
			for i, r := range res.Orders {
				o := e.wait(r.Order.ID)
				if o.Status != cashier.PayoutSuccess {
					t.Fatalf("batch order %d: %s %s", i, o.Status, o.FailReason)
				}
				txs[o.TxID] = true
				if got := e.balance(c, tos[i]); got.Cmp(cunits(c, fmt.Sprintf("%d.5", i+1))) != 0 {
					t.Fatalf("batch recipient %d got %s", i, got)
				}
			}
			if len(txs) > 3 {
				t.Fatalf("30 payouts took %d transactions", len(txs))
			}
			t.Logf("%s: 30 payouts in %d transaction(s)", c, len(txs))
		})
	}
	e.t = t
	totals(t, e)
}

// totals compares the running locked totals with a recomputation.
func totals(t *testing.T, e *env) {
	ctx := context.Background()
	want, err := orders.RecomputeLocks(ctx, e.sb.Service.Store)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.sb.Service.Store.PoolTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range got {
		w := want[k]
		if w == nil {
			w = new(big.Int)
		}
		if v.Cmp(w) != 0 {
			t.Fatalf("pool %s: running %s, recomputed %s", k, v, w)
		}
	}
}
