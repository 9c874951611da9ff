package sweep_test

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sweep"
)

// rig is a sandbox serving (its chain watcher credits payments) and a
// sweeper of its Ethereum chain with the sandbox's sweeper key.
type rig struct {
	t   *testing.T
	sb  *sandbox.Sandbox
	api *client.Client
	dir string
}

// newRig starts the sandbox; with serviceSweeps the service's own
// sweepers run every 200 ms, otherwise they are off and the test drives one.
func newRig(t *testing.T, serviceSweeps ...bool) *rig {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.SweepInterval = 0
	if len(serviceSweeps) > 0 && serviceSweeps[0] {
		cfg.SweepInterval, cfg.SweepMin = 200*time.Millisecond, "1"
	}
	cfg.WatchInterval = 100 * time.Millisecond
	cfg.RateEndpoint = 100_000
	ctx, cancel := context.WithCancel(context.Background())
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, TRONBlockInterval: 200 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { sb.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; sb.Close() })
	return &rig{t: t, sb: sb, api: client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey), dir: cfg.Data}
}

// sweeper is a fresh sweeper, as after a restart: a new client on the
// sweeper key's journal.
func (r *rig) sweeper(min string) *sweep.Sweeper {
	n := r.sb.Info.Networks["ETH"]
	j, err := evm.OpenFileJournal(filepath.Join(r.dir, "sweeper-journal"), n.ChainID, r.sb.Info.Roles["sweeper"].EVMAddress)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { j.Close() })
	c, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: n.ChainID, URLs: []string{n.RPCURL},
		Key: r.sb.Info.Roles["sweeper"].MustKey(), Journal: j})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(c.Close)
	return &sweep.Sweeper{Chain: cashier.ChainETH, Store: r.sb.Service.Store, Registry: r.sb.Service.Registry, Client: c, MinAmount: min}
}

// paid creates an ETH USDT order, pays it from the customer wallet and
// waits until the watcher has credited it; it returns the deposit address.
func (r *rig) paid(orderNo, amount string) string {
	r.t.Helper()
	ctx := context.Background()
	if _, err := r.api.CreateCollection(ctx, client.CollectionRequest{CashierID: r.sb.Info.CashierID, OrderNo: orderNo,
		Amount: amount, Symbol: "USDT", ChainID: "ETH"}); err != nil {
		r.t.Fatal(err)
	}
	p, err := sandbox.Pay(ctx, r.sb.Info, r.sb.Service.Store, sandbox.PayRequest{OrderNo: orderNo})
	if err != nil {
		r.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := r.api.CollectionDetail(ctx, orderNo)
		if err != nil {
			r.t.Fatal(err)
		}
		if d.Status == "SUCCESS" {
			return p.To
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("order %s not credited: %+v", orderNo, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (r *rig) balance(holder string) *big.Int {
	r.t.Helper()
	b, err := r.sb.Service.Chains[cashier.ChainETH].TokenBalance(context.Background(), r.sb.Info.Networks["ETH"].Tokens["USDT"], holder)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

func (r *rig) nonce() uint64 {
	r.t.Helper()
	n, err := r.sb.ETH.Client.NonceAt(context.Background(), common.HexToAddress(r.sb.Info.Roles["sweeper"].EVMAddress), nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return n
}

func (r *rig) sweeps() []cashier.Sweep {
	r.t.Helper()
	s, err := r.sb.Service.Store.Sweeps(context.Background(), cashier.ChainETH, false)
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

func units(s string) *big.Int {
	v, err := cashier.ParseAmount(s, 6)
	if err != nil {
		panic(err)
	}
	return v
}

// settleAll runs rounds until nothing is in flight.
func (r *rig) settleAll(s *sweep.Sweeper) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := s.Round(context.Background()); err != nil {
			r.t.Fatal(err)
		}
		open, err := r.sb.Service.Store.Sweeps(context.Background(), cashier.ChainETH, true)
		if err != nil {
			r.t.Fatal(err)
		}
		if len(open) == 0 {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("sweeps still in flight: %+v", open)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestSweepPaidDeposits(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	vault := r.sb.Info.Networks["ETH"].PayoutContract
	addrs := []string{r.paid("SW-1", "10.00"), r.paid("SW-2", "20.50"), r.paid("SW-3", "1.25")}
	before := r.balance(vault)

	// Not worth the gas yet: nothing is sent or recorded.
	n0 := r.nonce()
	if n, err := r.sweeper("100").Round(ctx); err != nil || n != 0 {
		t.Fatalf("round under the minimum started %d, %v", n, err)
	}
	if len(r.sweeps()) != 0 || r.nonce() != n0 {
		t.Fatal("a batch under the minimum was swept")
	}

	s := r.sweeper("5")
	if n, err := s.Round(ctx); err != nil || n != 1 {
		t.Fatalf("round started %d sweeps, %v; want 1", n, err)
	}
	r.settleAll(s)
	sw := r.sweeps()
	if len(sw) != 1 || sw[0].Status != cashier.SweepDone || len(sw[0].Items) != 3 || sw[0].Amount.Cmp(units("31.75")) != 0 || sw[0].TxHash == "" {
		t.Fatalf("sweeps: %+v", sw)
	}
	if got := new(big.Int).Sub(r.balance(vault), before); got.Cmp(units("31.75")) != 0 {
		t.Fatalf("the payout contract gained %s base units, want 31750000", got)
	}
	for _, a := range addrs {
		if b := r.balance(a); b.Sign() != 0 {
			t.Fatalf("deposit address %s still holds %s", a, b)
		}
	}

	// A second run sweeps nothing.
	n1 := r.nonce()
	if n, err := s.Round(ctx); err != nil || n != 0 {
		t.Fatalf("second round started %d, %v", n, err)
	}
	if len(r.sweeps()) != 1 || r.nonce() != n1 {
		t.Fatal("the second round swept again")
	}
}

// TestSweepCrashBetweenSendAndRecord: the sweeper sends and dies before
// recording the hash; after the restart the sweep is settled from the
// chain, nothing is sent again and nothing is moved twice. A sweep that
// crashed before it was sent is sent after the restart.
func TestSweepCrashBetweenSendAndRecord(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	vault := r.sb.Info.Networks["ETH"].PayoutContract
	a := r.paid("CR-1", "7.00")
	before := r.balance(vault)

	s := r.sweeper("")
	bs, err := s.Batches(ctx)
	if err != nil || len(bs) != 1 {
		t.Fatalf("batches %+v, %v", bs, err)
	}
	sw, err := s.Prepare(ctx, bs[0])
	if err != nil {
		t.Fatal(err)
	}
	n0 := r.nonce()
	hash, err := s.Send(ctx, sw)
	if err != nil {
		t.Fatal(err)
	}
	// The process dies here; the transaction is mined meanwhile.
	if _, err := r.sb.ETH.WaitReceipt(ctx, common.HexToHash(hash)); err != nil {
		t.Fatal(err)
	}

	after := r.sweeper("")
	if n, err := after.Round(ctx); err != nil || n != 0 {
		t.Fatalf("round after the restart started %d, %v", n, err)
	}
	got := r.sweeps()
	if len(got) != 1 || got[0].Status != cashier.SweepDone {
		t.Fatalf("sweeps after the restart: %+v", got)
	}
	if r.nonce() != n0+1 {
		t.Fatalf("the sweeper sent %d transactions, want 1", r.nonce()-n0)
	}
	if d := new(big.Int).Sub(r.balance(vault), before); d.Cmp(units("7")) != 0 || r.balance(a).Sign() != 0 {
		t.Fatalf("the payout contract gained %s, want 7000000", d)
	}

	// Crash before the send: recorded, never sent; the restart sends it.
	b := r.paid("CR-2", "3.00")
	before = r.balance(vault)
	bs, err = s.Batches(ctx)
	if err != nil || len(bs) != 1 || len(bs[0].Items) != 1 || bs[0].Items[0].Address != b {
		t.Fatalf("batches %+v, %v", bs, err)
	}
	if _, err := s.Prepare(ctx, bs[0]); err != nil {
		t.Fatal(err)
	}
	again := r.sweeper("")
	r.settleAll(again)
	if d := new(big.Int).Sub(r.balance(vault), before); d.Cmp(units("3")) != 0 || r.balance(b).Sign() != 0 {
		t.Fatalf("after the restart the payout contract gained %s, want 3000000", d)
	}
	if got := r.sweeps(); len(got) != 2 || got[0].Status != cashier.SweepDone || got[1].Status != cashier.SweepDone {
		t.Fatalf("sweeps: %+v", got)
	}
}

// TestServiceSweeps: the service's own sweeper, with the sweeper key the
// sandbox gives it, sweeps a paid order's deposit into the payout contract.
func TestServiceSweeps(t *testing.T) {
	r := newRig(t, true)
	if len(r.sb.Service.Sweepers) != len(sandbox.Networks) {
		t.Fatalf("%d sweepers, want one per network", len(r.sb.Service.Sweepers))
	}
	vault := r.sb.Info.Networks["ETH"].PayoutContract
	before := r.balance(vault)
	a := r.paid("SVC-1", "2.50")
	deadline := time.Now().Add(30 * time.Second)
	for r.balance(a).Sign() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the service never swept the deposit address")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if d := new(big.Int).Sub(r.balance(vault), before); d.Cmp(units("2.5")) != 0 {
		t.Fatalf("the payout contract gained %s, want 2500000", d)
	}

	// TRON: the sweep goes through the TRON client and the stand-in's API.
	ctx := context.Background()
	tr := r.sb.Service.Chains[cashier.ChainTRON]
	tvault, tusdt := r.sb.Info.Networks["TRON"].PayoutContract, r.sb.Info.Networks["TRON"].Tokens["USDT"]
	tbal := func(holder string) *big.Int {
		b, err := tr.TokenBalance(ctx, tusdt, holder)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tbefore := tbal(tvault)
	if _, err := r.api.CreateCollection(ctx, client.CollectionRequest{CashierID: r.sb.Info.CashierID, OrderNo: "SVC-T",
		Amount: "3.00", Symbol: "USDT", ChainID: "TRON"}); err != nil {
		t.Fatal(err)
	}
	p, err := sandbox.Pay(ctx, r.sb.Info, r.sb.Service.Store, sandbox.PayRequest{OrderNo: "SVC-T"})
	if err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(60 * time.Second)
	for tbal(p.To).Sign() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the service never swept the TRON deposit address")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if d := new(big.Int).Sub(tbal(tvault), tbefore); d.Cmp(units("3")) != 0 {
		t.Fatalf("the TRON payout contract gained %s, want 3000000", d)
	}
}
