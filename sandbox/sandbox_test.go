package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sandbox/check"
	"github.com/stablecashier/cashier/tron"
)

// start brings a sandbox up on dir and serves it until the test ends or
// stop is called.
func start(t *testing.T, dir string) (sb *sandbox.Sandbox, stop func()) {
	t.Helper()
	cfg := config.Default()
	cfg.Data = dir
	ctx, cancel := context.WithCancel(t.Context())
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, TRONBlockInterval: 200 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sb.Serve(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v", err)
		}
		if err := sb.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
	t.Cleanup(stop)
	return sb, stop
}

// TestCheckAndRestart runs the acceptance check against an in-process
// sandbox, restarts it on the same data directory, verifies that the
// merchant, its orders and the chains' state survived, and runs the check
// once more.
func TestCheckAndRestart(t *testing.T) {
	dir := t.TempDir()
	sb, stop := start(t, dir)
	first := *sb.Info
	var out bytes.Buffer
	err := check.Run(t.Context(), sb.Info, dir, &out)
	t.Logf("check:\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}
	// Balances read before the restart, compared after it.
	before := map[cashier.Chain]map[string]*big.Int{}
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		before[c] = balances(t, sb.Info, c)
	}
	stop()

	sb, _ = start(t, dir)
	if sb.Info.MerchantID != first.MerchantID || sb.Info.APIKey != first.APIKey || sb.Info.SecretKey != first.SecretKey ||
		sb.Info.BaseURL != first.BaseURL {
		t.Fatalf("restart changed the merchant or address: %+v, was %+v", sb.Info, first)
	}
	for _, c := range []string{"ETH", "ARB", "TRON"} {
		if a, b := sb.Info.Networks[c], first.Networks[c]; a.PayoutContract != b.PayoutContract || a.RPCURL != b.RPCURL {
			t.Errorf("%s: restart changed %+v to %+v", c, b, a)
		}
	}
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		after := balances(t, sb.Info, c)
		for holder, want := range before[c] {
			if after[holder].Cmp(want) != 0 {
				t.Errorf("%s: %s holds %s after the restart, %s before", c, holder, after[holder], want)
			}
		}
	}
	// The service knows the orders created before the restart.
	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	collections := 0
	for _, c := range readRecord(t, dir) {
		d, err := api.CollectionDetail(t.Context(), c.OrderNo)
		if err != nil {
			t.Fatalf("collection %s after the restart: %v", c.OrderNo, err)
		}
		if d.DepositAddress != c.DepositAddress {
			t.Errorf("collection %s: deposit %s, was %s", c.OrderNo, d.DepositAddress, c.DepositAddress)
		}
		collections++
	}
	if collections != 2 {
		t.Errorf("the check recorded %d collections, want 2", collections)
	}
	out.Reset()
	err = check.Resumed(t.Context(), sb.Info, dir, &out)
	t.Logf("resumed check:\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}
	// The restarted sandbox does everything again: the check makes fresh
	// orders and nonces, and its senders resume from their journals.
	out.Reset()
	err = check.Run(t.Context(), sb.Info, dir, &out)
	t.Logf("check after the restart:\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}
}

// balances reads the USDT balances of the payout contract and the demo
// wallets on chain c through the project's chain client.
func balances(t *testing.T, info *sandbox.Info, c cashier.Chain) map[string]*big.Int {
	t.Helper()
	n := info.Networks[string(c)]
	var cl cashier.ChainClient
	var holders []string
	if c == cashier.ChainTRON {
		tc, err := tron.New(tron.Config{URLs: []string{n.RPCURL}})
		if err != nil {
			t.Fatal(err)
		}
		cl = tc
		holders = []string{n.PayoutContract, info.Wallets["customer"].TRONAddress, info.Wallets["allowance"].TRONAddress, info.Roles["fee"].TRONAddress}
	} else {
		ec, err := evm.New(evm.Config{Chain: c, ChainID: n.ChainID, URLs: []string{n.RPCURL}})
		if err != nil {
			t.Fatal(err)
		}
		defer ec.Close()
		cl = ec
		holders = []string{n.PayoutContract, info.Wallets["customer"].EVMAddress, info.Wallets["allowance"].EVMAddress, info.Roles["fee"].EVMAddress}
	}
	out := map[string]*big.Int{}
	for _, h := range holders {
		b, err := cl.TokenBalance(t.Context(), n.Tokens["USDT"], h)
		if err != nil {
			t.Fatalf("%s: balance of %s: %v", c, h, err)
		}
		out[h] = b
	}
	return out
}

func readRecord(t *testing.T, dir string) []check.Collection {
	t.Helper()
	rec, err := check.ReadRecord(filepath.Join(dir, check.RecordFile))
	if err != nil {
		t.Fatal(err)
	}
	return rec.Collections
}
