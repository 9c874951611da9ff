package watch_test

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

var token = bindings.NewTestUSDC()

// hooks is a real HTTP receiver that verifies every webhook's signature.
type hooks struct {
	key atomic.Value
	mu  sync.Mutex
	got []*client.WebhookEvent
	srv *httptest.Server
}

func newHooks(t *testing.T) *hooks {
	h := &hooks{}
	h.key.Store("")
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, _, err := client.VerifyWebhook(r, h.key.Load().(string))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		h.mu.Lock()
		h.got = append(h.got, ev)
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// wait returns the first verified webhook of orderNo that satisfies ok.
func (h *hooks) wait(t *testing.T, orderNo string, ok func(*client.WebhookEvent) bool) *client.WebhookEvent {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		for _, ev := range h.got {
			if ev.OrderNo == orderNo && ok(ev) {
				h.mu.Unlock()
				return ev
			}
		}
		h.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no matching webhook for %s", orderNo)
	return nil
}

func field(ev *client.WebhookEvent, k string) string {
	v, _ := ev.Fields[k].(string)
	return v
}

type env struct {
	t   *testing.T
	sb  *sandbox.Sandbox
	api *client.Client
	h   *hooks
}

func startSandbox(t *testing.T, ttl time.Duration) *env {
	h := newHooks(t)
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.WatchInterval = 100 * time.Millisecond
	cfg.CollectionTTL = ttl
	cfg.RateKey, cfg.RateIP, cfg.RateEndpoint = 100_000, 100_000, 100_000 // the test polls the detail endpoint
	ctx, cancel := context.WithCancel(context.Background())
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, WebhookURL: h.srv.URL + "/hook", TRONBlockInterval: 500 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.key.Store(sb.Info.WebhookKey)
	done := make(chan struct{})
	go func() { sb.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; sb.Close() })
	return &env{t: t, sb: sb, api: client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey), h: h}
}

func (e *env) order(chain, orderNo, amount, symbol string) *client.Collection {
	e.t.Helper()
	ctx := context.Background()
	created, err := e.api.CreateCollection(ctx, client.CollectionRequest{CashierID: e.sb.Info.CashierID, OrderNo: orderNo,
		Amount: amount, Symbol: symbol, ChainID: chain})
	if err != nil {
		e.t.Fatal(err)
	}
	d, err := e.api.CollectionDetail(ctx, orderNo)
	if err != nil {
		e.t.Fatal(err)
	}
	if created.Address == "" || created.Address != d.Address || d.Address != d.DepositAddress {
		e.t.Fatalf("create answered address %q, detail %q / %q", created.Address, d.Address, d.DepositAddress)
	}
	return d
}

func units(s string) *big.Int {
	v, err := cashier.ParseAmount(s, 6)
	if err != nil {
		panic(err)
	}
	return v
}

// payEVM signs an ERC-20 transfer from the customer key, as any wallet
// would, outside the service, and returns its hash once mined.
func (e *env) payEVM(chain *devchain.Chain, net, symbol, to, amount string) string {
	e.t.Helper()
	tok := common.HexToAddress(e.sb.Info.Networks[net].Tokens[symbol])
	rc, err := chain.Transact(context.Background(), e.sb.Info.Wallets["customer"].MustKey(), &tok, nil,
		token.PackTransfer(common.HexToAddress(to), units(amount)), 200_000)
	if err != nil {
		e.t.Fatal(err)
	}
	if rc.Status != 1 {
		e.t.Fatalf("transfer %s failed", rc.TxHash)
	}
	return rc.TxHash.Hex()
}

// payTRON sends a TRC-20 transfer from the customer key through the
// TRON full-node HTTP API.
func (e *env) payTRON(symbol, to, amount string) string {
	e.t.Helper()
	ctx := context.Background()
	c, err := tron.New(tron.Config{URLs: []string{e.sb.Info.Networks["TRON"].RPCURL}, Key: e.sb.Info.Wallets["customer"].MustKey()})
	if err != nil {
		e.t.Fatal(err)
	}
	dest, err := tron.ParseAddress(to)
	if err != nil {
		e.t.Fatal(err)
	}
	h, err := c.SendCall(ctx, cashier.Call{To: e.sb.Info.Networks["TRON"].Tokens[symbol], Data: token.PackTransfer(dest.EVM(), units(amount))})
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

func (e *env) detail(orderNo string) *client.Collection {
	e.t.Helper()
	d, err := e.api.CollectionDetail(context.Background(), orderNo)
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// waitStatus polls the detail endpoint until the order has status and
// paidAmount.
func (e *env) waitStatus(orderNo, status, paid string) *client.Collection {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var d *client.Collection
	for time.Now().Before(deadline) {
		d = e.detail(orderNo)
		if d.Status == status && d.PaidAmount == paid {
			return d
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("order %s is %s paid %s, want %s paid %s (payments %+v)", orderNo, d.Status, d.PaidAmount, status, paid, d.Payments)
	return nil
}

func sameHash(a, b string) bool {
	return strings.EqualFold(strings.TrimPrefix(a, "0x"), strings.TrimPrefix(b, "0x"))
}

// The acceptance path: a wallet outside the service pays ETH, ARB and TRON
// orders; each turns SUCCESS with the wallet's transaction as txId, and a
// signed webhook carrying txId, paidAmount, fromAddress and the block time
// reaches a real receiver. Under, over, wrong-token, extra, expired and
// late payments behave as the outcome table says.
func TestCollectionsEndToEnd(t *testing.T) {
	e := startSandbox(t, 12*time.Second)
	customer := e.sb.Info.Wallets["customer"]

	// Created first so that it expires while the others run.
	late := e.order("ETH", "LATE-1", "10.00", "USDT")
	e.payEVM(e.sb.ETH, "ETH", "USDT", late.Address, "4.00")

	for _, c := range []struct {
		net   string
		chain *devchain.Chain
	}{{"ETH", e.sb.ETH}, {"ARB", e.sb.ARB}} {
		no := "EXACT-" + c.net
		o := e.order(c.net, no, "25.00", "USDT")
		tx := e.payEVM(c.chain, c.net, "USDT", o.Address, "25.00")
		d := e.waitStatus(no, "SUCCESS", "25.00")
		if !sameHash(d.TxID, tx) || !strings.EqualFold(d.FromAddress, customer.EVMAddress) || d.PayTime == 0 {
			t.Fatalf("%s detail txId %s from %s payTime %d, want %s from %s", c.net, d.TxID, d.FromAddress, d.PayTime, tx, customer.EVMAddress)
		}
		if len(d.Payments) != 1 || !sameHash(d.Payments[0].TxID, tx) || d.Payments[0].Status != "CONFIRMED" ||
			d.Payments[0].Effect != "CREDITED" || d.Payments[0].Amount != "25.00" || d.Payments[0].Confirmations < 1 {
			t.Fatalf("%s payments %+v", c.net, d.Payments)
		}
		ev := e.h.wait(t, no, func(ev *client.WebhookEvent) bool { return ev.Status == "SUCCESS" })
		if !sameHash(field(ev, "txId"), tx) || field(ev, "paidAmount") != "25.00" ||
			!strings.EqualFold(field(ev, "fromAddress"), customer.EVMAddress) {
			t.Fatalf("%s webhook %+v", c.net, ev.Fields)
		}
		if bt := field(ev, "blockTime"); bt != fmt.Sprint(d.PayTime) {
			t.Fatalf("%s webhook blockTime %s, detail payTime %d", c.net, bt, d.PayTime)
		}
	}

	// TRON through the stand-in's HTTP API.
	o := e.order("TRON", "EXACT-TRON", "7.50", "USDC")
	tx := e.payTRON("USDC", o.Address, "7.50")
	d := e.waitStatus("EXACT-TRON", "SUCCESS", "7.50")
	if !sameHash(d.TxID, tx) || d.FromAddress != customer.TRONAddress {
		t.Fatalf("TRON detail txId %s from %s, want %s from %s", d.TxID, d.FromAddress, tx, customer.TRONAddress)
	}
	e.h.wait(t, "EXACT-TRON", func(ev *client.WebhookEvent) bool {
		return ev.Status == "SUCCESS" && sameHash(field(ev, "txId"), tx)
	})

	// Under, then the rest: PENDING with paidAmount, then SUCCESS; a
	// further transfer is an extra payment.
	o = e.order("ARB", "SPLIT-1", "30.00", "USDC")
	e.payEVM(e.sb.ARB, "ARB", "USDC", o.Address, "10.00")
	e.waitStatus("SPLIT-1", "PENDING", "10.00")
	e.h.wait(t, "SPLIT-1", func(ev *client.WebhookEvent) bool {
		return ev.Status == "PENDING" && field(ev, "paidAmount") == "10.00"
	})
	rest := e.payEVM(e.sb.ARB, "ARB", "USDC", o.Address, "20.00")
	d = e.waitStatus("SPLIT-1", "SUCCESS", "30.00")
	if !sameHash(d.TxID, rest) {
		t.Fatalf("split order txId %s, want the completing %s", d.TxID, rest)
	}
	extra := e.payEVM(e.sb.ARB, "ARB", "USDC", o.Address, "1.00")
	d = e.waitStatus("SPLIT-1", "SUCCESS", "31.00")
	if !sameHash(d.TxID, rest) || len(d.Payments) != 3 || d.Payments[2].Effect != "EXTRA" || !sameHash(d.Payments[2].TxID, extra) {
		t.Fatalf("after an extra payment: txId %s payments %+v", d.TxID, d.Payments)
	}

	// Over: SUCCESS with paidAmount above amount.
	o = e.order("ETH", "OVER-1", "5.00", "USDC")
	e.payEVM(e.sb.ETH, "ETH", "USDC", o.Address, "6.25")
	d = e.waitStatus("OVER-1", "SUCCESS", "6.25")
	if d.Amount != "5.00" {
		t.Fatalf("over: amount %s", d.Amount)
	}

	// Wrong token: recorded and visible, never completes the order.
	o = e.order("ETH", "WRONG-1", "3.00", "USDT")
	wrong := e.payEVM(e.sb.ETH, "ETH", "USDC", o.Address, "3.00")
	deadline := time.Now().Add(20 * time.Second)
	for {
		d = e.detail("WRONG-1")
		if len(d.Payments) == 1 && d.Payments[0].Status == "CONFIRMED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrong-token payment not recorded: %+v", d.Payments)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if d.Status != "PENDING" || d.PaidAmount != "0.00" || d.Payments[0].Effect != "WRONG_TOKEN" ||
		d.Payments[0].Symbol != "USDC" || !sameHash(d.Payments[0].TxID, wrong) {
		t.Fatalf("wrong token: %+v", d)
	}

	// Under at expiry: EXPIRED with paidAmount; the rest paid late
	// completes it.
	e.waitStatus("LATE-1", "EXPIRED", "4.00")
	e.h.wait(t, "LATE-1", func(ev *client.WebhookEvent) bool {
		return ev.Status == "EXPIRED" && field(ev, "paidAmount") == "4.00"
	})
	lateTx := e.payEVM(e.sb.ETH, "ETH", "USDT", late.Address, "6.00")
	d = e.waitStatus("LATE-1", "SUCCESS", "10.00")
	if !sameHash(d.TxID, lateTx) || d.Payments[1].Effect != "LATE" {
		t.Fatalf("late: txId %s payments %+v", d.TxID, d.Payments)
	}
	e.h.wait(t, "LATE-1", func(ev *client.WebhookEvent) bool {
		return ev.Status == "SUCCESS" && sameHash(field(ev, "txId"), lateTx)
	})
}
